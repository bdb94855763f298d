import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { built } from "../helpers/built.js";
import { tempDir } from "../helpers/io.js";

/**
 * The bundled CLI (dist/cli-bundle, scripts/bundle-cli.js), which bin/errata.cjs runs, against
 * the unbundled modules it is built from (dist/cli/main.js): the same output for every command
 * path's help, and for commands that find files from their module's own location (the
 * classifier's language files, the bundled data sets, the shipped weights, the notebooks'
 * inputs). Both run in one child process, through `run(argv, io)`, one after the other in the
 * same scratch folder, at the same fixed clock; capture and reporter ids (random) are masked.
 */
const repo = fileURLToPath(new URL("../../", import.meta.url));
const bundleDir = join(repo, "dist", "cli-bundle");

/** The child: runs every step through both builds and prints {dist, bundle} as JSON. */
const CHILD = `
import { mkdirSync, readFileSync, rmSync } from "node:fs";
const [root, work] = process.argv.slice(1);
const dist = await import(root + "dist/cli/main.js");
const bundle = await import(root + "dist/cli-bundle/main.js");
const paths = (m) => {
  const io = { stdout: { write: () => true }, stderr: { write: () => true } };
  return m.loadRegisters(m.commandNames()).then((regs) => {
    const out = [[]];
    const walk = (cmd, path) => { for (const sub of cmd.commands) { const p = [...path, sub.name()]; out.push(p); walk(sub, p); } };
    walk(m.buildProgram({ io, exitCode: 0 }, regs), []);
    return out;
  });
};
const helpSteps = (await paths(dist)).map((p) => ({ argv: [...p, "--help"] }));
const steps = [
  ...helpSteps,
  { argv: [] },
  { argv: ["frobnicate"] },
  { argv: ["rules", "nosuch", "--help"] },
  { argv: ["list", "--bogus", "--json"] },
  { argv: ["hook", "user-prompt-submit"], stdin: JSON.stringify({ session_id: "s1", prompt: "No, that is wrong. I asked for the other file." }) },
  { argv: ["list", "--json"] },
  { argv: ["datasets", "copy", "ab-redial"] },
  { argv: ["engine", "ask", "--exchanges", "datasets/ab-redial/exchanges.jsonl", "--question", "detect.unhappy", "--limit", "5", "--json"] },
  { argv: ["notebook", "rules", "--out", "pages", "--json"], file: "pages/rules.html" },
];
const results = {};
for (const [name, m] of [["dist", dist], ["bundle", bundle]]) {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const rows = [];
  for (const s of steps) {
    let out = "", err = "";
    const io = {
      stdout: { write: (x) => ((out += String(x)), true) },
      stderr: { write: (x) => ((err += String(x)), true) },
      env: { HOME: work, ERRATA_DIR: work + "/ledger", PATH: process.env.PATH ?? "" },
      cwd: work,
      now: () => Date.parse("2026-11-30T12:00:00Z"),
      readStdin: async () => s.stdin ?? "",
      isTTY: false,
    };
    const code = await m.run(s.argv, io);
    const file = s.file ? readFileSync(work + "/" + s.file, "utf8") : null;
    rows.push({ argv: s.argv.join(" "), code, out, err, file });
  }
  results[name] = { paths: (await paths(m)).map((p) => p.join(" ")), rows };
}
rmSync(work, { recursive: true, force: true });
process.stdout.write(JSON.stringify(results));
`;

interface Row {
  argv: string;
  code: number;
  out: string;
  err: string;
  file: string | null;
}

const mask = (r: Row): Row => {
  const m = (s: string) => s.replace(/er-\d{8}-[0-9a-f]{6}/g, "er-<id>").replace(/rp-[0-9a-f]{16}/g, "rp-<id>");
  return { ...r, out: m(r.out), err: m(r.err), file: r.file === null ? null : m(r.file) };
};

describe.skipIf(!built)("the bundled CLI (dist/cli-bundle)", () => {
  let results: { dist: { paths: string[]; rows: Row[] }; bundle: { paths: string[]; rows: Row[] } };
  let work: { dir: string; cleanup: () => void };

  beforeAll(() => {
    work = tempDir("errata-bundle-");
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, repo, join(work.dir, "w")], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`the comparison child exited ${r.status}: ${r.stderr.slice(-2000)}`);
    results = JSON.parse(r.stdout) as typeof results;
  });
  afterAll(() => work?.cleanup());

  it("has the same command paths as the unbundled CLI, and each path's help is byte for byte the same", () => {
    expect(results.bundle.paths).toEqual(results.dist.paths);
    expect(results.dist.paths.length).toBeGreaterThan(90);
    // Every row but the last five (the commands the next test compares).
    const help = (rows: Row[]) => rows.slice(0, -5);
    expect(help(results.bundle.rows)).toEqual(help(results.dist.rows));
    // Help was printed (not an error), and the typo and bad-flag lines exit 2.
    for (const r of results.dist.rows.filter((x) => x.argv.endsWith("--help") && x.argv !== "rules nosuch --help")) expect([r.argv, r.code, r.out.startsWith("Usage: errata")]).toEqual([r.argv, 0, true]);
    expect(results.dist.rows.filter((r) => ["", "frobnicate", "rules nosuch --help", "list --bogus --json"].includes(r.argv)).map((r) => r.code)).toEqual([2, 2, 2, 2]);
  });

  it("finds the files it reads from its modules' own location as the unbundled CLI does (language files, data sets, weights, notebook inputs)", () => {
    const real = (rows: Row[]) => rows.slice(-5).map(mask);
    const [hook, list, copy, ask, notebook] = real(results.dist.rows);
    expect(real(results.bundle.rows)).toEqual([hook, list, copy, ask, notebook]);
    // Each did its work (a capture by the classifier, data copied, answers from the shipped weights, a page).
    expect(hook!.out).toMatch(/captured this prompt as a correction \(er-<id>\)/);
    expect(JSON.parse(list!.out).total).toBe(1);
    expect([copy!.code, ask!.code, notebook!.code]).toEqual([0, 0, 0]);
    expect(JSON.parse(ask!.out)).toMatchObject({ lane: "embedded", scored: 5 });
    expect(notebook!.file).toMatch(/^<!doctype html>/i);
  });

  it("points each bundled module's own location (import.meta.url) at its unbundled file, which exists", () => {
    const rels = new Set<string>();
    for (const f of readdirSync(bundleDir)) {
      for (const m of readFileSync(join(bundleDir, f), "utf8").matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)) rels.add(m[1]!);
    }
    // The modules the CLI reaches that find files (or node:crypto) from their own location.
    for (const rel of ["cli/commands/notebook.js", "core/node-crypto-load.js", "runtime/classifier/lang-dir.js", "runtime/engine/embedded/shipped.js", "runtime/ladder-formats/cause-model.js", "runtime/ladder/naming-model.js", "runtime/ladder/naming.js"]) {
      expect(rels.has(`../${rel}`), rel).toBe(true);
    }
    expect([...rels].filter((rel) => !rel.startsWith("../") || !existsSync(join(bundleDir, rel)))).toEqual([]);
  });

  it("a command loads the bundle's chunks, not dist/'s modules one by one", () => {
    // A module-load hook in the child lists every file the command loads.
    const hooks = `data:text/javascript,${encodeURIComponent(
      'export async function load(url, context, next) { if (url.startsWith("file:")) process._rawDebug("LOADED " + url); return next(url, context); }',
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify(hooks)});`)}`;
    const r = spawnSync(process.execPath, ["--import", register, join(repo, "bin", "errata.cjs"), "calibrate", "cuts", "--help"], { encoding: "utf8", cwd: work.dir, env: { ...process.env, HOME: work.dir, ERRATA_CLI: "" } });
    expect(r.status).toBe(0);
    const loaded = r.stderr.split("\n").filter((l) => l.startsWith("LOADED ")).map((l) => fileURLToPath(l.slice(7)));
    const ours = loaded.filter((f) => f.startsWith(join(repo, "dist")));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.filter((f) => !f.startsWith(bundleDir + "/"))).toEqual([]);
    // The unbundled modules of this command: 96 files of dist/ and 132 of node_modules/ (2026-12-07).
    expect(loaded.length).toBeLessThan(40);
  });
});
