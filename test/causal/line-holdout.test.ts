// The holdout of rung-1/2 rule lines: the line left out of an instruction file's text, the
// file a nested_memory attachment names, the line-holdouts file, the evidence per rule
// (sessions in play, in force vs held out, the cluster interval), the morning report's
// disclosure, the CLI's opt-in, and the mod's handlers (what the model is sent, what is recorded).
import fc from "fast-check";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import "../helpers/fast-check-seed.js";
import { run } from "../../cli/main.js";
import { lineHoldoutRows } from "../../runtime/ladder/holdout.js";
import { morningReport } from "../../runtime/ladder/morning.js";
import { attachmentFile, heldOut, parseLineHoldouts, withholdLines, type LineHoldout } from "../../runtime/ladder-formats/holdout.js";
import { createErrataMod } from "../../runtime/mod/core.js";
import type { ModApi } from "../../runtime/mod/api.js";
import type { InstructionsLoadedRow } from "../../schemas/ladder-checks.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { mulberry32 } from "../../core/mulberry32.js";

/** Covered and runs (halving, then no effect), seeds 31 and 32, 2,000 histories each. */
const LINE_COVERAGE: number[] = [1909, 2000, 1947, 2000];

const RULE: LineHoldout = { rule_id: "claude.project.6c265d", text: "- Use pnpm, never npm.", file: "/p/CLAUDE.md", one_in: 5, seed: 1 };

describe("withholdLines", () => {
  it("leaves out the line that carries the rule (list marker and blanks aside), nothing else", () => {
    const text = "# Project\n\n- Use  pnpm, never npm.\n- Pin exact versions.\n";
    expect(withholdLines(text, [RULE])).toEqual({ text: "# Project\n\n- Pin exact versions.\n", withheld: [RULE.rule_id] });
    expect(withholdLines("- Pin exact versions.\n", [RULE])).toEqual({ text: "- Pin exact versions.\n", withheld: [] });
    // A rule of several lines leaves each out.
    const two = { ...RULE, rule_id: "r2", text: "Reply in Finnish.\nEven in commit messages." };
    expect(withholdLines("a\nReply in Finnish.\nEven in commit messages.\nb", [two])).toEqual({ text: "a\nb", withheld: ["r2"] });
  });
  it("property: no kept line carries the rule; every other line is kept in order; withholding twice changes nothing more", () => {
    const other = fc.string({ maxLength: 30 }).filter((s) => !s.includes("\n") && !s.replace(/\s+/g, " ").includes("Use pnpm, never npm."));
    fc.assert(
      fc.property(fc.array(fc.oneof(other, fc.constant("- Use pnpm, never npm."), fc.constant("  * Use pnpm,  never npm. (really)")), { maxLength: 12 }), (lines) => {
        const text = lines.join("\n");
        const w = withholdLines(text, [RULE]);
        const carries = (l: string) => l.replace(/\s+/g, " ").includes("Use pnpm, never npm.");
        expect(w.withheld).toEqual(lines.some(carries) ? [RULE.rule_id] : []);
        if (w.withheld.length > 0) expect(w.text).toBe(lines.filter((l) => !carries(l)).join("\n"));
        else expect(w.text).toBe(text);
        expect(withholdLines(w.text, [RULE]).withheld).toEqual([]);
      }),
    );
  });
});

describe("attachmentFile and parseLineHoldouts", () => {
  it("reads the path off the client's framing; says which entry is bad", () => {
    expect(attachmentFile("Contents of /p/.claude/rules/tools.md:\n\n# Packages\n")).toBe("/p/.claude/rules/tools.md");
    expect(attachmentFile("Contents of /p/CLAUDE.md (project instructions, checked into the codebase):\n\nx")).toBe("/p/CLAUDE.md");
    expect(attachmentFile("# Packages")).toBeNull();
    expect(parseLineHoldouts(JSON.stringify({ version: 1, rules: [RULE] }))).toEqual([RULE]);
    expect(() => parseLineHoldouts(JSON.stringify({ version: 1, rules: [{ ...RULE, one_in: 1 }] }))).toThrow("rules[0]: expected holdout.one_in, a whole number in 2..1000");
    expect(() => parseLineHoldouts(JSON.stringify({ version: 1, rules: [{ ...RULE, text: " " }] }))).toThrow("rules[0]: expected text");
    expect(() => parseLineHoldouts("[]")).toThrow("expected {version: 1, rules: [...]}");
  });
});

/** Session ids the draw holds out of RULE (or not), in order. */
function sessions(held: boolean, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) if (heldOut({ id: RULE.rule_id, holdout: RULE }, `s${String(i).padStart(4, "0")}`) === held) out.push(`s${String(i).padStart(4, "0")}`);
  return out;
}
const load = (session: string, withheld?: string[]): InstructionsLoadedRow => ({ v: 1, ts: "2026-12-01T10:00:00Z", session_id: session, file_path: RULE.file!, memory_type: "Project", load_reason: "session_start", globs: null, trigger_file_path: null, parent_file_path: null, ...(withheld ? { withheld } : {}) });
const inc = (session: string, k = 0): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i-${session}-${k}`, rule_id: RULE.rule_id, exchange_id: `ex-${session}-${k}`, session_id: session, date: "2026-12-01", severity: 2, signal: "explicit", in_view: true, rung: 2, cause: "rule_gap" });

/** 20 sessions in force (2 slipped, one of them twice), 5 held out (3 slipped), 1 drawn held out without the mod. */
function example(): { loads: InstructionsLoadedRow[]; incidents: IncidentRow[]; treated: string[]; held: string[]; drawn: string } {
  const treated = sessions(false, 20);
  const [drawn, ...held] = sessions(true, 6) as [string, ...string[]];
  const loads = [...treated.map((s) => load(s)), ...held.flatMap((s) => [load(s), load(s, [RULE.rule_id])]), load(drawn), { ...load("other"), file_path: "/q/CLAUDE.md" }];
  const incidents = [inc(treated[0]!), inc(treated[0]!, 1), inc(treated[1]!), inc(held[0]!), inc(held[1]!), inc(held[2]!), inc(drawn), { ...inc(treated[2]!), rule_id: "claude.other.000000" }];
  return { loads, incidents, treated, held, drawn };
}

/** Wilson's interval, written out here as the reference (z for 95%). */
function wilsonRef(x: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = x / n;
  const mid = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [mid - half, mid + half];
}

describe("lineHoldoutRows", () => {
  it("a chance is a session in play; held out are the sessions with a withholding; one drawn without it is in neither arm", () => {
    const { loads, incidents, held, drawn } = example();
    const [row] = lineHoldoutRows([RULE], loads, incidents);
    expect(row!.counts).toEqual({ in_force: { incidents: 2, chances: 20 }, held: { incidents: 3, chances: 5 } });
    expect(row!.held_out_sessions).toEqual([...held].sort());
    expect(row!.drawn_not_withheld).toEqual([drawn]);
    // One chance a session: the design effect is m/(m-1), so Wilson on n-1 effective chances; Newcombe's difference.
    const [tl, th] = wilsonRef((2 / 20) * 19, 19);
    const [hl, hh] = wilsonRef((3 / 5) * 4, 4);
    const d = 2 / 20 - 3 / 5;
    expect(row!.interval!.difference).toBeCloseTo(-0.5, 12);
    expect(row!.interval!.low).toBeCloseTo(d - Math.hypot(0.1 - tl, hh - 0.6), 12);
    expect(row!.interval!.high).toBeCloseTo(d + Math.hypot(th - 0.1, 0.6 - hl), 12);
    expect(row!.line).toBe(`rule ${RULE.rule_id}: 2/20 vs 3/5 chances slipped (in force vs held out; a chance is a session the rule was in play), difference -0.5 [${(Math.round((d - Math.hypot(0.1 - tl, hh - 0.6)) * 1000) / 1000).toString()}, ${(Math.round((d + Math.hypot(th - 0.1, 0.6 - hl)) * 1000) / 1000).toString()}]`);
  });
  it("no interval until both arms have a session", () => {
    const { loads, incidents } = example();
    const [row] = lineHoldoutRows([RULE], loads.filter((l) => l.withheld === undefined), incidents);
    expect(row!.interval).toBeNull();
    expect(row!.line).toMatch(/0\/0 chances slipped .*; no interval until both kinds of session have a chance$/);
  });
});

describe("the morning report and errata rules holdout <rule-id>", () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = tempDir("errata-line-holdout-")));
  afterEach(() => tmp.cleanup());
  const ruleLine = (rung: number, location: Record<string, unknown>) => JSON.stringify({ kind: "rule", v: 1, rule_id: RULE.rule_id, at: "2026-12-01T00:00:00Z", text: RULE.text, why: null, when: null, when_not: null, rung, location, origin: "index", keywords: [], witness: null, exempt: false, project: "/p", file_abs: rung === 3 ? null : RULE.file });

  it("opts a rung-2 line in and out; refuses a check rule and an unknown id (exit 2, nothing written); the morning report names the held-out sessions", async () => {
    const ledger = join(tmp.dir, "ledger");
    const dir = join(ledger, "ladder");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "rules.jsonl"), `${ruleLine(2, { kind: "text", file: "CLAUDE.md", section: null })}\n`);
    const cli = async (...args: string[]) => {
      const m = memoryIo({ env: { ERRATA_DIR: ledger, HOME: join(tmp.dir, "home") }, cwd: tmp.dir });
      const code = await run(args, m.io);
      return { code, out: m.out(), err: m.err() };
    };
    const unknown = await cli("rules", "holdout", "claude.none.000000", "--one-in", "5");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("no installed check and no rule claude.none.000000");
    expect(existsSync(join(dir, "line-holdouts.json"))).toBe(false);
    const dry = await cli("rules", "holdout", RULE.rule_id, "--one-in", "5", "--dry-run");
    expect(dry.out).toContain("(dry run: nothing written)");
    expect(existsSync(join(dir, "line-holdouts.json"))).toBe(false);
    const on = await cli("rules", "holdout", RULE.rule_id, "--one-in", "5");
    expect(on.code, on.err).toBe(0);
    expect(on.out).toContain(`rule ${RULE.rule_id}: held out in 1 of 5 sessions (seed 1)`);
    expect(JSON.parse(readFileSync(join(dir, "line-holdouts.json"), "utf8"))).toEqual({ version: 1, rules: [RULE] });

    const { loads, incidents, held } = example();
    appendFileSync(join(dir, "instructions-loaded.jsonl"), loads.map((l) => `${JSON.stringify(l)}\n`).join(""));
    appendFileSync(join(dir, "rules.jsonl"), incidents.filter((i) => i.rule_id === RULE.rule_id).map((i) => `${JSON.stringify(i)}\n`).join(""));
    const report = morningReport(dir, "2026-12-02T07:00:00Z");
    expect(report).toContain("Randomised holdout of rule lines");
    expect(report).toContain(`rule ${RULE.rule_id}: 2/20 vs 3/5 chances slipped`);
    expect(report).toContain(`held out 1 in 5 sessions; held-out sessions: ${[...held].sort().join(", ")}`);
    expect(report).toContain("1 session drawn to be held out still carried the line");
    // The Pulse page (errata report --html) discloses it beside the checks, ids and counts only.
    const env = { ERRATA_DIR: ledger, ERRATA_STATE_DIR: join(tmp.dir, "state"), ERRATA_HOST_DIR: join(tmp.dir, "host") };
    const page = memoryIo({ env, cwd: tmp.dir, now: Date.parse("2026-12-06T12:00:00Z") });
    expect([0, 1], page.err()).toContain(await run(["report", "--html", "--out", "pulse.html"], page.io));
    const html = readFileSync(join(tmp.dir, "pulse.html"), "utf8");
    expect(html).toContain(`<td>rule ${RULE.rule_id} (line)</td><td>1 in 5</td><td>2/20 (20 sessions)</td><td>3/5 (5 sessions)</td>`);
    expect(html).toContain([...held].sort().join(", "));

    const off = await cli("rules", "holdout", RULE.rule_id, "--off");
    expect(off.out).toContain("no longer held out");
    expect(JSON.parse(readFileSync(join(dir, "line-holdouts.json"), "utf8"))).toEqual({ version: 1, rules: [] });
    writeFileSync(join(dir, "rules.jsonl"), `${ruleLine(3, { kind: "check", check: "ladder-pnpm" })}\n`);
    const check = await cli("rules", "holdout", RULE.rule_id, "--one-in", "5");
    expect(check.code).toBe(2);
    expect(check.err).toContain("a rule at rung 1 or 2 that lives as a line of an instruction file");
  });
});

describe("the mod leaves a held-out line out of what the model is sent", () => {
  const holdouts = JSON.stringify({ version: 1, rules: [{ ...RULE, one_in: 2 }] });
  function api(sessionId: string, runs: string[]): ModApi {
    return {
      log: () => undefined,
      sessionInfo: async () => ({}),
      sessionId: async () => sessionId,
      sessionCwd: async () => "/p",
      hookEnv: async () => ({}),
      read: async (p) => {
        if (p === "/h/.local/share/errata/ladder/line-holdouts.json") return holdouts;
        throw new Error(`ENOENT ${p}`);
      },
      write: async () => undefined,
      exists: async (p) => p === "/h/.local/share/errata/ladder/line-holdouts.json",
      list: async () => [],
      run: async (argv, init) => {
        runs.push(`${argv.join(" ")} ${init?.stdin ?? ""}`);
        return { exitCode: 0, stdout: "", stderr: "" };
      },
      // The README's hooks installed: the mod stands down for instruction loads, and still withholds.
      settings: async () => ({ hooks: { InstructionsLoaded: [{ hooks: [{ type: "command", command: "errata-tool-hook instructions-loaded" }] }] } }),
      env: async () => ({ HOME: "/h" }),
      registerCommand: async () => ({}),
      readData: async () => "{}",
    };
  }
  const draw = (s: string) => heldOut({ id: RULE.rule_id, holdout: { one_in: 2, seed: 1 } }, s);
  const pick = (held: boolean) => ["a", "b", "c", "d", "e", "f", "g", "h"].find((s) => draw(s) === held)!;
  const files = [
    { path: "/p/CLAUDE.md", kind: "project", content: "# P\n- Use pnpm, never npm.\n- Reply in English.\n" },
    { path: "/etc/claude-code/CLAUDE.md", kind: "managed", content: "- Use pnpm, never npm.\n" },
  ];
  const attachment = { type: "nested_memory", text: "Contents of /p/.claude/rules/tools.md:\n\n- Use pnpm, never npm.\n- Pin.\n", origin: { kind: "engine" } };

  it("held out: CLAUDE.md and the scoped file lose the line (a managed file keeps it), each withholding recorded; treated: nothing changes", async () => {
    const runs: string[] = [];
    const mod = createErrataMod();
    const $ = api(pick(true), runs);
    const ctx = await mod.promptContext($, { blocks: [], instructionFiles: files }, async (x) => x);
    expect(ctx.instructionFiles!.map((f) => f.content)).toEqual(["# P\n- Reply in English.\n", "- Use pnpm, never npm.\n"]);
    const att = await mod.promptAttachment($, attachment, async (x) => ({ text: x.text }));
    expect(att.text).toBe("Contents of /p/.claude/rules/tools.md:\n\n- Pin.\n");
    await new Promise((r) => setTimeout(r, 10));
    const recorded = runs.map((r) => JSON.parse(r.slice(r.indexOf("{"))) as Record<string, unknown>).map((p) => [p["session_id"], p["file_path"], p["load_reason"], p["withheld"]]);
    expect(recorded).toEqual([
      [pick(true), "/p/CLAUDE.md", "session_start", [RULE.rule_id]],
      [pick(true), "/p/.claude/rules/tools.md", "path_glob_match", [RULE.rule_id]],
    ]);

    const runs2: string[] = [];
    const mod2 = createErrataMod();
    const $2 = api(pick(false), runs2);
    const e = { blocks: [], instructionFiles: files };
    expect(await mod2.promptContext($2, e, async (x) => x)).toBe(e);
    expect(await mod2.promptAttachment($2, attachment, async (x) => ({ text: x.text }))).toEqual({ text: attachment.text });
    await new Promise((r) => setTimeout(r, 10));
    expect(runs2).toEqual([]);
  });
});

describe("the line holdout's interval covers the true difference (simulated, synthetic)", () => {
  // One rule, four weeks of six sessions a day (168), one in five held out by the mod's draw on
  // fresh session ids; a session slips (has an incident) with probability pIn in force and pOut
  // held out. Assumptions, not measurements. Wilson's interval of the coverage beside it.
  const cover = (seed: number, pIn: number, pOut: number, histories: number) => {
    const rand = mulberry32(seed);
    let covered = 0;
    let width = 0;
    let runs = 0;
    for (let h = 0; h < histories; h++) {
      const loads: InstructionsLoadedRow[] = [];
      const incidents: IncidentRow[] = [];
      for (let s = 0; s < 168; s++) {
        const id = `h${seed}-${h}-${s}`;
        const held = heldOut({ id: RULE.rule_id, holdout: RULE }, id);
        loads.push(held ? load(id, [RULE.rule_id]) : load(id));
        if (rand() < (held ? pOut : pIn)) incidents.push(inc(id));
      }
      const i = lineHoldoutRows([RULE], loads, incidents)[0]!.interval;
      if (i === null) continue;
      runs++;
      width += i.high - i.low;
      if (i.low <= pIn - pOut && pIn - pOut <= i.high) covered++;
    }
    return { covered, runs, width: width / runs };
  };
  it("a halving of a 7% session rate (true difference -0.07) and no effect: at or above 95%", () => {
    const halving = cover(31, 0.07, 0.14, 2000);
    const none = cover(32, 0.07, 0.07, 2000);
    process.stdout.write(`  line holdout coverage: halving ${halving.covered}/${halving.runs} mean width ${halving.width.toFixed(3)}; no effect ${none.covered}/${none.runs} mean width ${none.width.toFixed(3)}\n`);
    expect([halving.covered, halving.runs, none.covered, none.runs]).toEqual(LINE_COVERAGE);
    for (const c of [halving, none]) expect(c.covered / c.runs).toBeGreaterThanOrEqual(0.94);
  });
});
