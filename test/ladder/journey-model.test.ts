// The journey as a specification, replayed: random sequences of the journey's steps (fast-check
// `commands`) against the real capture, reflection, auditor, ledger and approval table, with
// crashes injected between and inside steps, duplicates and reorders. The reflection runs two
// ways: the journey's step for any turn (reordered, duplicated), and the real hooks' path for
// the session's last prompt (the UserPromptSubmit capture into the errata ledger, then the
// Stop hook's reflection: once, twice, with a fault inside, after a torn sorted line). After every step:
// no correction lost, none counted twice, no instruction file or check changed without an
// approval, no rung skipped, nothing but a rule gap that broke the rule counted.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { classify } from "../../runtime/classifier/index.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { reflectAfterStop } from "../../runtime/hooks/hook-reflect.js";
import { approve, capture, InjectedCrash, JOURNEY, openRuleLedger, readProposals, reflect, reject, runAudit, sortedCauses, transcriptTurns, undo, type OwnerTurn } from "../../runtime/ladder/index.js";
import { sha256 } from "../../runtime/ladder/proposals.js";
import type { RuleRow } from "../../schemas/rule-ledger.js";
import { tempDir } from "../helpers/io.js";
import { hookIo } from "../hooks/hook-helpers.js";
import { writeSession, type Step } from "./helpers.js";

type Kind = "gap" | "env" | "mention";
const STEPS: Record<Kind, Step[]> = {
  gap: [
    { prompt: "add lodash", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed lodash with npm." },
    { prompt: "No, that's wrong. I told you to use pnpm, not npm.", reply: "Redone with pnpm." },
  ],
  env: [
    { prompt: "add dayjs", tools: [{ name: "Bash", input: { command: "pnpm add dayjs" } }], reply: "pnpm failed with a 503." },
    { prompt: "No, that's wrong: the npm registry is down again, retry later", reply: "I will retry later." },
  ],
  mention: [
    { prompt: "add zod", tools: [{ name: "Bash", input: { command: "pnpm add zod" } }], reply: "Added zod with pnpm." },
    { prompt: "from now on always use pnpm", reply: "Noted." },
  ],
};

interface Model {
  kinds: Kind[];
  /** Gap corrections typed before the last audit that finished its counting. */
  countedAtLeast: number;
  /** Files' hashes as the last approved change (or the owner's hand) left them. */
  hashes: Map<string, string | null>;
  handEdited: Set<string>;
}
interface Real {
  root: string;
  dir: string;
  project: string;
  transcript: string;
  turns: () => Promise<OwnerTurn[]>;
  now: () => string;
}

const counts = { runs: 0, commands: 0, crashes: { capture: 0, reflect_fault: 0, reflect_torn: 0, audit_inside: 0, audit_between: 0, approve_between: 0, approve_inside: 0 }, duplicates: 0, reorders: 0, stops: 0, handEdits: 0, approvals: 0, undos: 0, rejections: 0 };
const hashOf = (f: string): string | null => (existsSync(f) ? sha256(readFileSync(f, "utf8")) : null);
const guarded = (r: Real) => [join(r.project, "CLAUDE.md"), join(r.dir, "checks.json")];

function checkInvariants(m: Model, r: Real): void {
  const { ledger } = openRuleLedger(r.dir).read();
  const rule = ledger.rules.get("claude.tools.pnpm01")!;
  const gapsTyped = m.kinds.filter((k) => k === "gap").length;
  // None lost: every gap correction typed before the last audit that counted is an incident.
  expect(rule.incidents.length).toBeGreaterThanOrEqual(m.countedAtLeast);
  // None counted twice, and nothing but a gap counted: at most one per gap correction typed.
  expect(rule.incidents.length).toBeLessThanOrEqual(gapsTyped);
  const raw = readFileSync(openRuleLedger(r.dir).file, "utf8").split("\n").filter((l) => l.startsWith("{") && l.endsWith("}")).map((l) => JSON.parse(l) as { kind: string; incident_id?: string });
  const ids = raw.filter((l) => l.kind === "incident").map((l) => l.incident_id);
  expect(new Set(ids).size).toBe(ids.length);
  // No instruction file or check changed without an approval.
  for (const f of guarded(r)) expect(hashOf(f), f).toBe(m.hashes.get(f) ?? null);
  // No rung skipped: every rung change is one step.
  let rung = 2;
  for (const p of rule.patches) {
    if (p.set.rung === undefined) continue;
    expect(Math.abs(p.set.rung - rung)).toBe(1);
    rung = p.set.rung;
  }
  expect(rule.rung).toBe(rung);
  // An applied proposal moved its rule exactly once; an undone one moved it back once.
  for (const s of readProposals(r.dir).values()) {
    if (s.proposal.from_rung === s.proposal.to_rung) continue;
    const moves = rule.patches.filter((p) => p.because === s.proposal.id).length;
    const backs = rule.patches.filter((p) => p.because === `undo ${s.proposal.id}`).length;
    if (s.status === "applied") expect([moves, backs]).toEqual([1, 0]);
    if (s.status === "undone") expect([moves, backs]).toEqual([1, 1]);
    if (s.status === "pending" || s.status === "rejected") expect(moves + backs).toBe(0);
  }
}

class TypeCmd implements fc.AsyncCommand<Model, Real> {
  constructor(readonly kind: Kind) {}
  check = () => true;
  async run(m: Model, r: Real) {
    m.kinds.push(this.kind);
    writeSession(r.root, "j", "2026-11-20T10:00:00Z", m.kinds.flatMap((k) => STEPS[k]));
    checkInvariants(m, r);
  }
  toString = () => `type(${this.kind})`;
}

class CaptureCmd implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number, readonly crash: "none" | "before" | "inside") {}
  check = (m: Readonly<Model>) => m.kinds.length > 0;
  async run(m: Model, r: Real) {
    const turns = (await r.turns()).filter((t) => t.text.includes("pnpm") || t.text.includes("registry"));
    const t = turns[this.pick % turns.length]!;
    if (this.crash === "inside") {
      counts.crashes.capture++;
      appendFileSync(join(r.dir, "captured.jsonl"), `{"v":1,"exchange_id":"${t.exchange_id}","sess`); // killed mid-write
    } else if (this.crash === "before") counts.crashes.capture++;
    else if (!capture(r.dir, t)) counts.duplicates++;
    checkInvariants(m, r);
  }
  toString = () => `capture(${this.pick}, ${this.crash})`;
}

class ReflectCmd implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.kinds.length > 0;
  async run(m: Model, r: Real) {
    const turns = await r.turns();
    const t = turns[this.pick % turns.length]!;
    const k = m.kinds[Math.floor((this.pick % turns.length) / 2)] ?? "gap";
    if (!reflect(r.dir, t.exchange_id, k === "env" ? "environment" : "rule_gap")) counts.reorders++;
    checkInvariants(m, r);
  }
  toString = () => `reflect(${this.pick})`;
}

/** The real hooks for the session's last prompt: its capture into the errata ledger, then the Stop hook's reflection. */
class StopHookCmd implements fc.AsyncCommand<Model, Real> {
  constructor(readonly how: "once" | "twice" | "fault" | "torn") {}
  check = (m: Readonly<Model>) => m.kinds.length > 0;
  async run(m: Model, r: Real) {
    const last = (await r.turns()).at(-1)!;
    const env = { ERRATA_DIR: r.root, HOME: r.root };
    const ts = Date.parse(last.ts);
    const iso = (ms: number) => new Date(ms).toISOString();
    await runHook(["user-prompt-submit"], hookIo(JSON.stringify({ session_id: "j", transcript_path: r.transcript, cwd: r.project, prompt: last.text }), env, iso(ts + 1000)).io);
    if (this.how === "torn") {
      counts.crashes.reflect_torn++;
      appendFileSync(join(r.dir, "sorted.jsonl"), `{"v":1,"exchange_id":"${last.exchange_id}","cau`); // an earlier reflection killed mid-write
    }
    const said: string[] = [];
    const stop = async (faulty: boolean) =>
      reflectAfterStop({
        env,
        cwd: "/",
        nowMs: ts + 30_000,
        sessionId: "j",
        transcriptPath: r.transcript,
        verdictKind: faulty
          ? () => {
              throw new Error("injected fault");
            }
          : (p, reply) => classify(p, { previousReply: reply }).kind,
        say: (l) => said.push(l),
      });
    const before = sortedCauses(r.dir).get(last.exchange_id);
    const out = await stop(this.how === "fault");
    counts.stops++;
    if (this.how === "fault" && before === undefined) {
      // The fault is met only where there is something to sort: one line, nothing sorted (the audit sorts it).
      counts.crashes.reflect_fault++;
      expect([out, said.length, sortedCauses(r.dir).has(last.exchange_id)]).toEqual([{ ran: false }, 1, false]);
    } else {
      expect(said).toEqual([]);
      // Sorted now, and a cause already there (an earlier reflection) stands.
      expect(sortedCauses(r.dir).get(last.exchange_id)).toBe(before ?? (out.ran && out.sorted ? out.cause : undefined));
      expect(sortedCauses(r.dir).has(last.exchange_id)).toBe(true);
    }
    if (this.how === "twice") {
      // A second Stop for the same capture: the gate finds its receipt and loads nothing; no second line.
      const lines = () => readFileSync(join(r.dir, "sorted.jsonl"), "utf8").split(last.exchange_id).length;
      const n = lines();
      expect(await stop(false)).toEqual({ ran: false });
      expect(lines()).toBe(n);
      counts.duplicates++;
    }
    checkInvariants(m, r);
  }
  toString = () => `stop-hook(${this.how})`;
}

class AuditCmd implements fc.AsyncCommand<Model, Real> {
  constructor(readonly crash: "none" | "inside" | "count" | "draft") {}
  check = () => true;
  async run(m: Model, r: Real) {
    const gaps = m.kinds.filter((k) => k === "gap").length;
    if (this.crash === "inside") {
      counts.crashes.audit_inside++;
      appendFileSync(openRuleLedger(r.dir).file, '{"kind":"incident","v":1,"incident_id":"inc-torn'); // killed mid-append
    } else {
      const transcripts = m.kinds.length > 0 ? [r.transcript] : [];
      try {
        const out = await runAudit({ ladderDir: r.dir, projectDir: r.project, transcripts, at: r.now(), ...(this.crash !== "none" ? { crashAfter: this.crash } : {}) });
        if (out.incidents === 0) counts.duplicates++;
      } catch (err) {
        if (!(err instanceof InjectedCrash)) throw err;
        counts.crashes.audit_between++;
      }
      m.countedAtLeast = gaps; // counting is the first step: it ran whole whenever the run got past it
    }
    checkInvariants(m, r);
  }
  toString = () => `audit(${this.crash})`;
}

class ApproveCmd implements fc.AsyncCommand<Model, Real> {
  constructor(readonly how: "yes" | "between" | "write" | "patch" | "hand" | "reject" | "undo") {}
  check = () => true;
  async run(m: Model, r: Real) {
    const all = [...readProposals(r.dir).values()];
    const open = all.filter((p) => p.status === "pending" || p.status === "approved");
    const applied = all.filter((p) => p.status === "applied");
    const at = r.now();
    if (this.how === "undo") {
      const p = applied[0];
      if (!p) return void counts.reorders++;
      const edit = p.proposal.edit!;
      const appliedHash = [...p.decisions].reverse().find((d) => d.status === "applied")?.after_hash;
      if (hashOf(edit.file) !== appliedHash) expect(() => undo(r.dir, p.proposal.id, at)).toThrow(/changed after proposal/);
      else {
        undo(r.dir, p.proposal.id, at);
        counts.undos++;
      }
    } else if (open.length === 0) {
      counts.reorders++;
      expect(() => approve(r.dir, "pr-0000000000", at)).toThrow(/no proposal/);
    } else {
      const p = open[0]!.proposal;
      if (this.how === "reject") {
        if (open[0]!.status === "approved") return void counts.reorders++;
        reject(r.dir, p.id, "not now", at);
        counts.rejections++;
      } else if (this.how === "hand" && p.edit) {
        counts.handEdits++;
        const f = p.edit.file;
        // Still a valid file of its kind (JSON allows trailing blanks), but not the one drafted against.
        writeFileSync(f, `${existsSync(f) ? readFileSync(f, "utf8") : f.endsWith(".json") ? '{"version":1,"checks":[]}' : ""}\n `);
        m.hashes.set(f, hashOf(f)); // the owner's own edit
        m.handEdited.add(f);
        expect(() => approve(r.dir, p.id, at)).toThrow(/changed since proposal/);
      } else if (this.how === "between" && open[0]!.status === "pending") {
        counts.crashes.approve_between++;
        // What a process killed between recording the yes and writing the file leaves behind.
        appendFileSync(join(r.dir, "proposals.jsonl"), `${JSON.stringify({ kind: "decision", v: 1, id: p.id, at, status: "approved", why: null, backup: null, after_hash: null })}\n`);
      } else if (this.how === "write" || this.how === "patch") {
        counts.crashes.approve_inside++;
        let threw = false;
        try {
          approve(r.dir, p.id, at, { crashAfter: this.how });
        } catch (err) {
          threw = true;
          if (!String(err).includes("injected crash")) {
            expect((err as { code?: string }).code).toBe("FILE_CHANGED");
            expect(m.handEdited.has(p.edit?.file ?? "")).toBe(true);
          }
        }
        expect(threw).toBe(true);
      } else {
        // A refusal is right only when the owner edited the file by hand at some point.
        try {
          approve(r.dir, p.id, at);
          counts.approvals++;
        } catch (err) {
          expect((err as { code?: string }).code).toBe("FILE_CHANGED");
          expect(m.handEdited.has(p.edit?.file ?? "")).toBe(true);
        }
      }
    }
    // Only here may a guarded file change: take its new hash as approved.
    for (const f of guarded(r)) m.hashes.set(f, hashOf(f));
    checkInvariants(m, r);
  }
  toString = () => `owner(${this.how})`;
}

const commands = [
  fc.constantFrom<Kind>("gap", "gap", "env", "mention").map((k) => new TypeCmd(k)),
  fc.tuple(fc.nat(20), fc.constantFrom("none", "none", "before", "inside") as fc.Arbitrary<"none" | "before" | "inside">).map(([p, c]) => new CaptureCmd(p, c)),
  fc.nat(20).map((p) => new ReflectCmd(p)),
  (fc.constantFrom("once", "once", "twice", "fault", "torn") as fc.Arbitrary<"once" | "twice" | "fault" | "torn">).map((h) => new StopHookCmd(h)),
  (fc.constantFrom("none", "none", "inside", "count", "draft") as fc.Arbitrary<"none" | "inside" | "count" | "draft">).map((c) => new AuditCmd(c)),
  (fc.constantFrom("yes", "yes", "between", "write", "patch", "hand", "reject", "undo") as fc.Arbitrary<"yes" | "between" | "write" | "patch" | "hand" | "reject" | "undo">).map((h) => new ApproveCmd(h)),
];

const pnpm: RuleRow = {
  kind: "rule", v: 1, rule_id: "claude.tools.pnpm01", at: "2026-11-01T00:00:00.000Z", text: "Use pnpm, never npm.", why: null, when: null, when_not: null, rung: 2,
  location: { kind: "text", file: "CLAUDE.md", section: "Tools" }, origin: "index", keywords: ["pnpm", "npm"], witness: null, exempt: false,
};

describe("the journey, model-based", () => {
  it("has the table's 24 transitions, each from a stage to a stage", () => {
    expect(JOURNEY).toHaveLength(24);
    expect(JOURNEY.map((t) => t.n)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it("keeps its invariants under random steps, crashes, duplicates and reorders", async () => {
    const tmp = tempDir("errata-journey-model-");
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: "large" }), async (cmds) => {
          const root = join(tmp.dir, `r${run++}`);
          const dir = join(root, "ladder");
          const project = join(root, "app");
          mkdirSync(dir, { recursive: true });
          mkdirSync(project, { recursive: true });
          writeFileSync(join(project, "CLAUDE.md"), "- Use pnpm, never npm.\n");
          openRuleLedger(dir).append([{ ...pnpm, location: { kind: "text", file: join(project, "CLAUDE.md"), section: "Tools" } }]);
          writeFileSync(join(dir, "instructions-loaded.jsonl"), `${JSON.stringify({ v: 1, ts: "t", session_id: "j", file_path: join(project, "CLAUDE.md"), memory_type: "Project", load_reason: "session_start", globs: null, trigger_file_path: null, parent_file_path: null })}\n`);
          const transcript = join(root, "j.jsonl");
          let tick = 0;
          const real: Real = { root, dir, project, transcript, turns: async () => (existsSync(transcript) ? (await transcriptTurns(transcript)).turns : []), now: () => new Date(Date.parse("2026-11-21T00:00:00Z") + 3_600_000 * tick++).toISOString() };
          const model: Model = { kinds: [], countedAtLeast: 0, hashes: new Map(guarded(real).map((f) => [f, hashOf(f)])), handEdited: new Set() };
          counts.runs++;
          counts.commands += [...cmds].length;
          // Every run starts with a rule broken twice and audited, so the owner's steps meet a pending proposal.
          const prefix = [new TypeCmd("gap"), new TypeCmd("gap"), new AuditCmd("none")];
          await fc.asyncModelRun(() => ({ model, real }), [...prefix, ...cmds]);
          rmSync(root, { recursive: true, force: true });
        }),
        { numRuns: 40, seed: 2201 },
      );
    } finally {
      tmp.cleanup();
    }
  });

  afterAll(() => {
    process.stdout.write(`journey model test: ${JSON.stringify(counts)}\n`);
  });
});
