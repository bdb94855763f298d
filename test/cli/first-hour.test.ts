/**
 * Issue 19, "the first hour": one test per item a new user met. Each runs the CLI in process
 * (or the built bin where the item is about the process) on real bundled data.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildProgram, commandNames, escapeControl, loadRegisters, reportError, run } from "../../cli/main.js";
import { count, snakeKey, snakeKeys, type Io } from "../../cli/shared/io.js";
import { progress } from "../../cli/shared/progress.js";
import { isCalendarDate } from "../../cli/shared/ledger.js";
import { ErrataError } from "../../core/errors.js";
import { memoryIo, removeTempDirs, tempDir } from "../helpers/io.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const synthetic = join(repo, "datasets", "synthetic");
const spotter = join(repo, "datasets", "claude-code", "spotter");
const NOW = Date.parse("2026-11-30T12:00:00Z");

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir("errata-first-hour-");
});
afterEach(() => t.cleanup());

async function cli(argv: string[], env: Record<string, string> = {}, opts: { stdin?: string } = {}) {
  const m = memoryIo({ env: { ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir, USER: "ann", ...env }, cwd: t.dir, now: NOW, ...opts });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

/** Every object key of a JSON value, recursively. */
function keysOf(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) keysOf(x, out);
  else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) (out.push(k), keysOf(x, out));
  return out;
}
const CAMEL = /^[a-z][a-z0-9]*[A-Z]/;

describe("a truthful demo", () => {
  it("mined rows from generated transcripts carry synthetic: true (from the errataSynthetic mark), real ones none", async () => {
    const root = join(t.dir, "transcripts");
    const project = readdirSync(join(synthetic, "transcripts"))[0]!;
    cpSync(join(synthetic, "transcripts", project), join(root, "synthetic", project), { recursive: true });
    cpSync(spotter, join(root, "real"), { recursive: true });
    const r = await cli(["mine", "--root", root, "--json"]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.synthetic).toBeGreaterThan(0);
    expect(report.written).toBeGreaterThan(report.synthetic); // the spotter sessions give real rows too
    const month = readdirSync(join(t.dir, "ledger")).filter((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f));
    const rows = month.flatMap((f) => readFileSync(join(t.dir, "ledger", f), "utf8").trim().split("\n").map((l) => JSON.parse(l)));
    const marked = rows.filter((e) => e.synthetic === true);
    expect(marked).toHaveLength(report.synthetic);
    // The mark is structural: every marked row's session is one of the generated ones, and no real row has the field.
    const generated = new Set(readdirSync(join(root, "synthetic", project)).map((f) => f.replace(/\.jsonl$/, "")));
    expect(marked.every((e) => generated.has(e.context.session_id))).toBe(true);
    expect(rows.filter((e) => !generated.has(e.context.session_id)).every((e) => !("synthetic" in e))).toBe(true);
    expect((await cli(["validate", "--json"])).code).toBe(0);
  });

  it("the v4 report scores synthetic exchanges against the generator's plan, and says unknown without it", async () => {
    const withPlan = await cli(["v4", "report", "--exchanges", join(synthetic, "exchanges.jsonl"), "--json"]);
    expect(withPlan.code, withPlan.err).toBe(0);
    const s = JSON.parse(withPlan.out).synthetic;
    // datasets/synthetic/README.md: 112 planted (detect.unhappy yes) over 519 exchanges; nothing answered yet, so none found.
    expect(s).toMatchObject({ exchanges: 519, plan_exchanges: 519, planted: 112, found: 0, missed: 112, unplanted_flagged: 0 });
    mkdirSync(join(t.dir, "bare"));
    copyFileSync(join(synthetic, "exchanges.jsonl"), join(t.dir, "bare", "exchanges.jsonl"));
    const without = await cli(["v4", "report", "--exchanges", join(t.dir, "bare", "exchanges.jsonl")]);
    expect(without.code).toBe(0);
    expect(without.out).toMatch(/planted failures: unknown \(no generator plan/);
    expect(without.out).not.toMatch(/false alarms/);
  });

  it("triage says what it rests on, files only from confident entries, lists kind, date and a redacted excerpt, never an id twice", async () => {
    const add = async (words: string, ts: string) => expect((await cli(["add", words, "--ts", ts])).code).toBe(0);
    await add("it pushed to main without asking, token ghp_R7kQ2mX9vL4pT8wZ3nB6yH1cJ5dF0sGaE2uK", "2026-11-29T10:00:00Z");
    await add("it pushed to main again without asking", "2026-11-29T11:00:00Z");
    expect((await cli(["enrich"])).code).toBe(0);
    const daily = await cli(["triage", "--min-confidence", "1", "--json"]);
    expect(daily.code, daily.err).toBe(0);
    const counts = JSON.parse(daily.out).stages[0].counts;
    expect(counts).toMatchObject({ entries: 2, synthetic: 0, low_confidence: 2, filed: 0 });
    const again = await cli(["triage", "--min-confidence", "0", "--json"]);
    expect(JSON.parse(again.out).stages[0].counts).toMatchObject({ entries: 2, low_confidence: 0 });
    const report = readFileSync(join(t.dir, "ledger", "reports", "triage-2026-11-30.md"), "utf8");
    expect(report).toMatch(/Rests on 2 entries: 0 SYNTHETIC .*, 2 below enrichment confidence 1 /);
    expect(report).toMatch(/^- er-20261129-[0-9a-f]{6} \(complaint, 2026-11-29, how_upset \d, confidence [\d.]+\): "it pushed to main again without asking"$/m);
    expect(report).toMatch(/token \[REDACTED:[a-z-]+\]/);
    expect(report).not.toContain("ghp_R7kQ2mX9");
    const ids = [...report.matchAll(/^- (er-\S+) /gm)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    // The second pass lists none again: each cluster points back at its entries (2 in all).
    const earlier = [...report.matchAll(/^- and (\d+) (?:entry|entries) listed earlier in this report$/gm)].reduce((n, m) => n + Number(m[1]), 0);
    expect(earlier, report).toBe(2);
    expect((await cli(["triage", "--min-confidence", "1.5"])).code).toBe(2);
  });
});

describe("runs that did nothing say so", () => {
  it("v4 detect on a file of garbage exits 1, the warning on stderr, one JSON value on stdout", async () => {
    writeFileSync(join(t.dir, "junk.jsonl"), "\u0000\u0001 not json\n{\"also\": \"not an exchange\"}\n");
    const r = await cli(["v4", "detect", "--exchanges", "junk.jsonl", "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ exchanges_read: 0, skipped_lines: 2 });
    expect(r.err).toMatch(/errata: did nothing: no exchange could be read from .*junk\.jsonl; give an exchanges\.jsonl/);
    expect(r.err).toMatch(/skipped 2 unreadable lines/);
  });

  it("mine: a missing default folder names --root and ERRATA_TRANSCRIPTS_ROOT; an empty one exits 1; the variable is honoured", async () => {
    const missing = await cli(["mine"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--root DIR or set ERRATA_TRANSCRIPTS_ROOT/);
    mkdirSync(join(t.dir, "empty"));
    const empty = await cli(["mine"], { ERRATA_TRANSCRIPTS_ROOT: join(t.dir, "empty") });
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/did nothing: no Claude Code transcripts .* in .*empty; give --root/);
    const daily = await cli(["daily", "--json"]);
    expect(daily.code).toBe(1);
    expect(JSON.parse(daily.out).stages[0].error.message).toMatch(/ERRATA_TRANSCRIPTS_ROOT.*--skip-mine/);
  });

  it("classtier ask on the embedded lane: every answer unscored -> exit 1 with the lane to use", async () => {
    writeFileSync(join(t.dir, "ex.jsonl"), `${readFileSync(join(synthetic, "exchanges.jsonl"), "utf8").split("\n").slice(0, 2).join("\n")}\n`);
    const r = await cli(["classtier", "ask", "--exchanges", "ex.jsonl", "--lane", "embedded", "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).verdicts).toMatchObject({ unscored: 2 });
    expect(r.err).toMatch(/did nothing: every answer on the embedded lane is unscored.*--lane/);
    const dry = await cli(["classtier", "ask", "--exchanges", "ex.jsonl", "--lane", "embedded", "--dry-run"]);
    expect(dry.code).toBe(1);
  });

  it("a refused connection is named with host, port and the system's error", async () => {
    const port = await new Promise<number>((done) => {
      const srv = createServer();
      srv.listen(0, "127.0.0.1", () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => done(p));
      });
    });
    const r = await cli(["engine", "probe", "--lane", "openai"], { ERRATA_OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, ERRATA_OPENAI_MODEL: "m", ERRATA_OPENAI_API_KEY: "k" });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot connect to the OpenAI-compatible server at 127.0.0.1:${port}`);
    expect(r.err).toMatch(/ECONNREFUSED/);
    expect(r.err).not.toMatch(/supports neither/);
  });
});

describe("progress", () => {
  const ttyIo = (quiet: boolean) => {
    const m = memoryIo();
    let err = "";
    // A terminal's stderr: cli-progress draws only on a stream that says it is one.
    const stderr = { isTTY: true, columns: 100, write: (s: string | Uint8Array) => ((err += String(s)), true) };
    const io: Io = { ...m.io, isTTY: true, quiet, stderr };
    return { io, err: () => err, out: m.out };
  };
  it("draws on stderr only on a terminal, never with --quiet, never on stdout", () => {
    const tty = ttyIo(false);
    const bar = progress(tty.io, "engine train", 4);
    bar.tick();
    bar.update(4);
    bar.done();
    expect(tty.err()).toMatch(/engine train \[.*\] 100% 4\/4/);
    expect(tty.out()).toBe("");
    const quiet = ttyIo(true);
    const q = progress(quiet.io, "engine train", 4);
    q.tick(4);
    q.done();
    expect(quiet.err()).toBe("");
    const piped = memoryIo();
    const p = progress(piped.io, "engine train", 4);
    p.tick(4);
    p.done();
    expect(piped.err()).toBe("");
  });
  it("--quiet is accepted anywhere on the line", async () => {
    expect((await cli(["list", "--quiet"])).code).toBe(0);
    expect((await cli(["--quiet", "list"])).code).toBe(0);
  });
});

describe("--dry-run --json claims no write", () => {
  it("daily --dry-run --json lists what it would write under would_write, and wrote is empty", async () => {
    expect((await cli(["add", "bug: it pushed to main without asking", "--ts", "2026-11-29T10:00:00Z"])).code).toBe(0);
    const r = await cli(["daily", "--skip-mine", "--root", spotter, "--dry-run", "--json"]);
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out);
    expect(v.dry_run).toBe(true);
    for (const st of v.stages) expect(st.wrote).toEqual({});
    const would = Object.assign({}, ...v.stages.map((st: { name: string; would_write: Record<string, string> }) => Object.fromEntries(Object.entries(st.would_write).map(([k, p]) => [`${st.name}.${k}`, p]))));
    expect(Object.keys(would)).toEqual(expect.arrayContaining(["triage.report", "report.state", "report.events"]));
    for (const p of Object.values(would)) expect(existsSync(p as string)).toBe(false);
  });
});

describe("smaller items", () => {
  it("coded errors for a bad weights file, a folder where a file goes (EISDIR) and a file where a folder goes (ENOTDIR)", async () => {
    writeFileSync(join(t.dir, "w.json"), "{ not json");
    const bad = await cli(["engine", "eval", "--weights", "w.json", "--labels", join(synthetic, "labels.jsonl")]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^errata: w\.json is not JSON \(expected a weights file written by `errata engine train`; found /);
    expect(bad.err).not.toMatch(/internal error|\n\s+at /);
    writeFileSync(join(t.dir, "w2.json"), JSON.stringify({ questions: 3 }));
    expect((await cli(["engine", "eval", "--weights", "w2.json"])).err).toMatch(/w2\.json is not an embedded weights file/);
    mkdirSync(join(t.dir, "cuts.json"));
    const dir = await cli(["v4", "detect", "--exchanges", "cuts.json", "--dry-run", "--json"]);
    expect(dir.code).toBe(2);
    expect(JSON.parse(dir.out).error).toMatchObject({ code: "IS_A_FOLDER", expected: "a file" });
    writeFileSync(join(t.dir, "afile"), "");
    const notDir = await cli(["add", "x"], { ERRATA_DIR: join(t.dir, "afile", "ledger") });
    expect(notDir.code).toBe(2);
    expect(notDir.err).toMatch(/is a file, not a folder|ENOTDIR/);
    expect(notDir.err).not.toMatch(/internal error/);
  });

  it("add --attach F words...: the file is attached and the words recorded", async () => {
    writeFileSync(join(t.dir, "reply.txt"), "the whole reply");
    const r = await cli(["add", "--attach", "reply.txt", "it", "ignored", "the", "reply", "--json"]);
    expect(r.code, r.err).toBe(0);
    const e = JSON.parse(r.out).erratum;
    expect(e.complaint).toBe("it ignored the reply");
    expect(e.links.attachments).toEqual([`${e.id}/reply.txt`]);
  });

  it("control bytes in a message are shown escaped", () => {
    const m = memoryIo();
    expect(reportError(new ErrataError("BAD_INPUT", "bad name \u001b[2J\u0007 here\n"), m.io)).toBe(2);
    expect(m.err()).toBe("errata: bad name \\x1b[2J\\x07 here\\n\n");
    expect(escapeControl("tab\there \u009b")).toBe("tab\\there \\u009b");
  });

  it("real calendar dates only", async () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-29")).toBe(false);
    expect(isCalendarDate("2026-02-30")).toBe(false);
    expect(isCalendarDate("2026-13-01")).toBe(false);
    const ts = await cli(["add", "x", "--ts", "2026-02-30T10:00:00Z"]);
    expect(ts.code).toBe(2);
    expect(ts.err).toMatch(/bad --ts .*real calendar day/);
    expect((await cli(["triage", "--since", "2026-02-30"])).code).toBe(2);
    expect((await cli(["add", "x", "--ts", "2024-02-29T10:00:00Z", "--dry-run"])).code).toBe(0);
  });

  it("--version answers from package.json without loading the commands (the bin), and agrees with the program", () => {
    const version = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).version as string;
    const bin = join(repo, "bin", "errata.cjs");
    // The bin answers before it imports dist/: it works even where no build exists.
    expect(execFileSync(process.execPath, [bin, "--version"], { encoding: "utf8" })).toBe(`${version}\n`);
    const program = buildProgram({ io: memoryIo().io, exitCode: 0 }, []);
    expect(program.version()).toBe(version);
  });

  it("bare errata prints the help on stderr and exits 2", async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^Usage: errata/);
    expect(r.err).toMatch(/errata: no command given/);
  });

  it("every --json output uses snake_case keys (renamed at the boundary)", async () => {
    expect(snakeKey("exchangesRead")).toBe("exchanges_read");
    expect(snakeKey("detect.unhappy")).toBe("detect.unhappy");
    expect(snakeKey("Read")).toBe("Read");
    expect(snakeKeys({ aB: [{ cD: 1, "assistant/complaint": 2 }] })).toEqual({ a_b: [{ c_d: 1, "assistant/complaint": 2 }] });
    const outs = [
      await cli(["import", "synthetic", "--seed", "3", "--sessions", "2", "--dry-run", "--json"]),
      await cli(["exchanges", "--root", spotter, "--dry-run", "--json"]),
      await cli(["v4", "detect", "--exchanges", join(synthetic, "exchanges.jsonl"), "--limit", "2", "--dry-run", "--json"]),
      await cli(["stats", "--json"]),
    ];
    for (const o of outs) {
      expect(o.code, o.err).toBe(0);
      expect(keysOf(JSON.parse(o.out)).filter((k) => CAMEL.test(k))).toEqual([]);
    }
  });

  it("--json errors are one JSON value {ok: false, error: {code, message, expected, found}} on stdout", async () => {
    const r = await cli(["show", "er-20261130-3fa9c1", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({
      ok: false,
      error: { code: "NOT_FOUND", message: expect.stringMatching(/^no erratum with id er-20261130-3fa9c1/), expected: "an id listed by `errata list`", found: "er-20261130-3fa9c1" },
    });
    const usage = await cli(["list", "--no-such-flag", "--json"]);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.out).error.code).toBe("USAGE_UNKNOWN_OPTION");
  });

  it("plurals: 1 entry, 2 entries", async () => {
    expect(count(1, "entry", "entries")).toBe("1 entry");
    expect(count(2, "entry", "entries")).toBe("2 entries");
    expect((await cli(["add", "it broke the build", "--ts", "2026-11-29T10:00:00Z"])).code).toBe(0);
    await cli(["enrich"]);
    await cli(["triage", "--min-confidence", "0"]);
    const report = readFileSync(join(t.dir, "ledger", "reports", "triage-2026-11-30.md"), "utf8");
    expect(report).toMatch(/^1 entry in 1 cluster \(system x class\)\.$/m);
    expect(report).not.toMatch(/\b1 entries\b|\b1 clusters\b/);
  });
});

describe("commandNames", () => {
  it("still lists every command (bare errata loads them all for its help)", async () => {
    expect((await loadRegisters(commandNames())).length).toBe(commandNames().length);
  });
});

describe("tests that skip say so", () => {
  it("the global setup names each missing data set and how to get it, one line per group", async () => {
    const { vi } = await import("vitest");
    vi.stubEnv("ERRATA_SHARED_DATASETS", join(t.dir, "no-shared-datasets"));
    vi.resetModules();
    try {
      const { missingLines, REQUIREMENTS } = await import("../helpers/skips.js");
      const lines = missingLines();
      // Every shared-data group is missing there; the build, the real client and PostgreSQL are not shared data.
      const sharedGroups = REQUIREMENTS.filter((r) => r.paths.some((p) => p.includes("no-shared-datasets")));
      expect(sharedGroups.length).toBe(REQUIREMENTS.length - 3);
      expect(lines.filter((l) => l.includes("no-shared-datasets"))).toHaveLength(sharedGroups.length);
      for (const l of lines.filter((x) => x.includes("no-shared-datasets"))) expect(l).toMatch(/^skipping .+: missing .+; to run them, .*(\.\.\/shared\/datasets|ERRATA_SHARED_DATASETS)/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("tests clean their temp folders", () => {
  it("a folder tempDir made and nobody removed is removed at the end of the file", () => {
    const a = tempDir("errata-leak-check-");
    const b = tempDir("errata-leak-check-");
    b.cleanup();
    expect(existsSync(a.dir)).toBe(true);
    // t (this file's beforeEach folder) is still live too: both are removed.
    expect(removeTempDirs()).toBe(2);
    expect(existsSync(a.dir)).toBe(false);
    expect(existsSync(t.dir)).toBe(false);
  });
});
