#!/usr/bin/env node
// The fault suite: what a careless world does to Errata, tried many times on the compiled
// CLI (`npm run faults` builds first). SIGKILL at random moments in `add`, the hook,
// `rotate`, `daily` and `exchanges`; five dailies at once; a full disk (a real tmpfs, when
// the machine lets us mount one); a model server that stalls the response body; a FIFO as
// the transcript. Each fault prints one row: tries, survived, lost (acknowledged data that
// is gone, duplicated, or a run that did not recover). docs/reliability.md holds the table.
//
// Usage: node scripts/faults.mjs [--quick] [--seed N] [--only name,name] [--root DIR]
//   --quick     a few tries of each (the version `npm test` runs, test/faults/suite.test.ts)
//   --root DIR  try another built checkout (its bin/ and dist/), e.g. main before a change;
//               a checkout without the run lock is run without --wait
//
// Random moments come from a seeded generator (mulberry32), so a run can be repeated.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
// The project's own seeded generator, from the build (the suite runs on the compiled CLI).
const { mulberry32 } = await import(new URL("../dist/core/mulberry32.js", import.meta.url).href);

const rootArg = process.argv.indexOf("--root");
const root = rootArg > 0 && process.argv[rootArg + 1] ? process.argv[rootArg + 1] : fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "errata.cjs");
const spotter = join(root, "datasets", "claude-code", "spotter");
const dist = (p) => import(pathToFileURL(join(root, "dist", p)).href);
const hasLock = existsSync(join(root, "dist", "runtime", "files", "lock.js"));

/** Full tries per fault; `--quick` uses the second number. */
const TRIES = { add: [40, 4], hook: [40, 4], rotate: [15, 2], daily: [10, 2], exchanges: [15, 2], "concurrent-daily": [3, 0], "full-disk": [20, 3], "stalled-server": [5, 1], fifo: [10, 2] };

function run(args, { env, input = "", killAfterMs, cwd } = {}) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [bin, ...args], { cwd: cwd ?? root, env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      done({ code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** A command through the compiled CLI's `run(argv, io)` in this process (setup only: a fault's own runs are processes). */
async function runInProcess(args, { env, cwd } = {}) {
  const { run: runCli } = await dist("cli/main.js");
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (s) => ((stdout += String(s)), true) }, stderr: { write: (s) => ((stderr += String(s)), true) }, env: { PATH: process.env.PATH ?? "", ...env }, cwd: cwd ?? root, now: () => Date.now(), readStdin: async () => "", isTTY: false };
  const code = await runCli(args, io);
  if (code !== 0) throw new Error(`errata ${args.join(" ")} (in process) exited ${code}: ${stderr}`);
  return { code, stdout, stderr };
}

const envFor = (dir) => ({ ERRATA_DIR: join(dir, "ledger"), HOME: dir });

/** The ledger as readers see it: complaints (with counts) and the problems met. */
async function ledgerView(dir) {
  const { openLedger } = await dist("runtime/store/index.js");
  const { resolvePaths } = await dist("runtime/paths.js");
  const { errata, problems } = openLedger(resolvePaths(envFor(dir), dir), { systems: new Set(["assistant", "other"]) }).readAll();
  return { errata: errata.map((f) => f.erratum), problems };
}

/** What a daily run leaves, comparable across runs (ids are random): see test/faults/concurrent-daily.test.ts. */
function snapshot(dir) {
  const ledgerDir = join(dir, "ledger");
  const lines = (f) => (existsSync(f) ? readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "").flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } }) : []);
  const rows = readdirSync(ledgerDir).filter((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f)).sort().flatMap((f) => lines(join(ledgerDir, f)));
  const status = new Map();
  for (const r of rows) if (r.schema === "erratum-patch/1" && r.set?.status) status.set(r.id, r.set.status);
  return JSON.stringify({
    errata: rows.filter((r) => r.schema === "erratum/1").map((r) => `${r.source}\t${r.kind}\t${r.complaint}\t${status.get(r.id) ?? "new"}`).sort(),
    exchanges: lines(join(ledgerDir, "v4", "exchanges.jsonl")).map((e) => e.id).sort(),
    answers: lines(join(ledgerDir, "v4", "answers.jsonl")).map((a) => `${a.exchange_id}\t${a.question_id}\t${a.status}`).sort(),
  });
}

/** How long one uninterrupted run takes: kills land uniformly in [0, 1.2 x that). */
async function window(args, env, input) {
  return Math.max(50, (await run(args, { env, input })).ms * 1.2);
}

async function killedAppends(kind, tries, rnd, tmp) {
  const dir = join(tmp, kind);
  mkdirSync(dir, { recursive: true });
  const env = envFor(dir);
  const argsFor = (w) => (kind === "add" ? [["add", `bug: it broke ${w}`], ""] : [["hook", "user-prompt-submit"], JSON.stringify({ session_id: "s1", prompt: `No, that is wrong: ${w}` })]);
  const [a0, i0] = argsFor("warm-up");
  const win = await window(a0, env, i0);
  const acked = [];
  for (let i = 0; i < tries; i++) {
    const w = `w${i}x${Math.floor(rnd() * 1e9)}`;
    const [args, input] = argsFor(w);
    const r = await run(args, { env, input, killAfterMs: rnd() * win });
    if (r.code === 0 && (kind === "add" ? /^added /.test(r.stdout) : /captured/.test(r.stdout))) acked.push(w);
  }
  const { errata, problems } = await ledgerView(dir);
  const count = (w) => errata.filter((e) => e.complaint.endsWith(w)).length;
  const lostWords = acked.filter((w) => count(w) !== 1);
  const fragments = problems.filter((p) => p.code === "malformed-json" || p.code === "torn-tail").length;
  return { tries, survived: tries - lostWords.length, lost: lostWords.length, note: `${acked.length} acknowledged; ${fragments} torn line(s) of killed writes skipped by readers` };
}

async function rotateKills(tries, rnd, tmp) {
  const template = join(tmp, "rotate-template");
  const env = envFor(template);
  // The ledger to rotate is written by the same `errata add` run in this process (the compiled
  // CLI's `run`, with the template's environment): eleven process starts fewer, none of them
  // the fault under test. The rotations below, killed and re-run, are real processes.
  for (const [m, n] of [["08", 4], ["09", 4], ["10", 3]]) for (let k = 1; k <= n; k++) await runInProcess(["add", "--ts", `2026-${m}-0${k}T10:00:00Z`, `bug: month ${m} number ${k}`], { env });
  const want = (await ledgerView(template)).errata.map((e) => e.id).sort().join();
  const win = await window(["rotate", "--before", "2026-10", "--dry-run"], env);
  let lost = 0;
  let survived = 0;
  for (let i = 0; i < tries; i++) {
    const dir = join(tmp, `rotate-${i}`);
    cpSync(template, dir, { recursive: true });
    await run(["rotate", "--before", "2026-10"], { env: envFor(dir), killAfterMs: rnd() * win * 2 });
    const mid = (await ledgerView(dir)).errata.map((e) => e.id).sort().join();
    const again = await run(["rotate", "--before", "2026-10"], { env: envFor(dir) });
    const after = await ledgerView(dir);
    const ok = mid === want && again.code === 0 && after.errata.map((e) => e.id).sort().join() === want && !after.problems.some((p) => p.code === "rotation-overlap");
    if (ok) survived++;
    else lost++;
  }
  return { tries, survived, lost, note: "ids read back after the kill and after re-running rotate" };
}

async function jobKills(job, tries, rnd, tmp) {
  const args = job === "daily" ? ["daily", "--root", spotter, "--json"] : ["exchanges", "--root", spotter, "--json"];
  const refDir = join(tmp, `${job}-ref`);
  mkdirSync(refDir, { recursive: true });
  const win = await window(args, envFor(refDir));
  const want = snapshot(refDir);
  let survived = 0;
  const fails = [];
  for (let i = 0; i < tries; i++) {
    const dir = join(tmp, `${job}-${i}`);
    mkdirSync(dir, { recursive: true });
    await run(args, { env: envFor(dir), killAfterMs: rnd() * win });
    const again = await run(args, { env: envFor(dir) }); // also takes over the killed run's lock
    if (again.code === 0 && snapshot(dir) === want) survived++;
    else fails.push(`try ${i}: exit ${again.code} ${again.stderr.slice(0, 160)}`);
  }
  return { tries, survived, lost: tries - survived, note: fails.length ? fails.join(" | ") : "re-run after the kill leaves what one clean run leaves" };
}

async function concurrentDailies(tries, _rnd, tmp) {
  const args = ["daily", "--root", spotter, "--json"];
  const refDir = join(tmp, "conc-ref");
  mkdirSync(refDir, { recursive: true });
  await run(args, { env: envFor(refDir) });
  const want = snapshot(refDir);
  let survived = 0;
  for (let i = 0; i < tries; i++) {
    const dir = join(tmp, `conc-${i}`);
    mkdirSync(dir, { recursive: true });
    const rs = await Promise.all(Array.from({ length: 5 }, () => run(hasLock ? [...args, "--wait", "300"] : args, { env: envFor(dir) })));
    if (rs.every((r) => r.code === 0) && snapshot(dir) === want) survived++;
  }
  return { tries, survived, lost: tries - survived, note: "5 at once with --wait, compared with one run" };
}

function canMountTmpfs() {
  return process.platform === "linux" && process.getuid?.() === 0;
}

async function fullDisk(tries, rnd, tmp) {
  if (!canMountTmpfs()) return { tries: 0, survived: 0, lost: 0, note: "SKIPPED: mounting a tmpfs needs root on Linux" };
  let survived = 0;
  const notes = new Map();
  for (let i = 0; i < tries; i++) {
    const mnt = join(tmp, `disk-${i}`);
    mkdirSync(mnt, { recursive: true });
    if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt]).status !== 0) return { tries: 0, survived: 0, lost: 0, note: "SKIPPED: mount -t tmpfs failed" };
    try {
      const env = { ERRATA_DIR: join(mnt, "ledger"), HOME: tmp };
      await run(["hook", "user-prompt-submit"], { env, input: JSON.stringify({ session_id: "s", prompt: "No, that is wrong." }) });
      const month = readdirSync(env.ERRATA_DIR).find((f) => f.endsWith(".jsonl"));
      // tmpfs counts free space in 4 KiB pages: leave none or one, so most writes find no room.
      let n = 0;
      const leave = 4096 * Math.floor(rnd() * 2);
      const free = () => statfsSync(mnt).bavail * statfsSync(mnt).bsize;
      while (free() > leave) {
        try {
          writeFileSync(join(mnt, `fill-${n++}`), Buffer.alloc(Math.min(32768, free() - leave)));
        } catch {
          break;
        }
      }
      const before = readFileSync(join(env.ERRATA_DIR, month));
      const useAdd = rnd() < 0.5;
      const words = `No, that is wrong. ${"again ".repeat(Math.floor(rnd() * 2000))}`;
      const r = useAdd ? await run(["add", words], { env }) : await run(["hook", "user-prompt-submit"], { env, input: JSON.stringify({ session_id: "s", prompt: words }) });
      const after = readFileSync(join(env.ERRATA_DIR, month));
      const temps = [];
      const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(join(d, e.name)) : /\.tmp$/.test(e.name) && temps.push(e.name); };
      walk(mnt);
      const wrote = after.length > before.length;
      const whole = wrote && after.subarray(0, before.length).equals(before) && after[after.length - 1] === 0x0a && JSON.parse(after.subarray(before.length).toString()).complaint !== undefined;
      const said = useAdd ? (r.code === 0 ? "added" : /^errata: disk full: .*nothing was left in the file\n$/.test(r.stderr) ? "full" : "other") : /captured/.test(r.stdout) ? "added" : r.stderr === "errata hook: not captured: disk full\n" ? "full" : "other";
      const ok = temps.length === 0 && ((said === "added" && whole) || (said === "full" && after.equals(before)));
      notes.set(said, (notes.get(said) ?? 0) + 1);
      if (ok) survived++;
    } finally {
      spawnSync("umount", [mnt]);
    }
  }
  return { tries, survived, lost: tries - survived, note: [...notes].map(([k, v]) => `${v} ${k === "full" ? "refused (disk full, nothing left)" : k === "added" ? "written whole" : "other"}`).join(", ") };
}

async function stalledServer(tries) {
  const { createEngine } = await dist("runtime/engine/index.js");
  const sockets = new Set();
  let requests = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      requests++;
      res.writeHead(200, { "content-type": "application/json", "content-length": "9000" });
      res.write('{"id":"x","choices":[');
    });
  });
  server.on("connection", (s) => sockets.add(s));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/v1`;
  let survived = 0;
  const timeoutMs = 500;
  // The default retries (4) with real waits; the call's budget (default 2 x timeoutMs) must hold
  // them: 3 items at concurrency 8 end within ceil(3 / 8) x 1000 ms (runBoundMs; no probe in a
  // fixed mode). A build without the budget spends 5 attempts and 4 waits a call.
  const boundMs = 2 * timeoutMs;
  const worst = [];
  try {
    const { questionById } = await dist("questions/index.js");
    const question = questionById.get("detect.unhappy");
    const exchange = (i) => ({ schema: "exchange/1", id: `ex-000000000000000${i}`, corpus: "faults", session_id: "s", turn: i, prompt: `No, that is wrong (${i}).`, prompt_ts: "2026-11-30T12:00:00Z", reply_end: "Done.", reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null });
    for (let i = 0; i < tries; i++) {
      const engine = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: url, model: "m", timeoutMs, mode: "logprobs" } });
      requests = 0;
      const t0 = Date.now();
      // A run still waiting after 30 s is counted lost (a build without the deadline would wait for ever).
      const answers = await Promise.race([engine.ask([1, 2, 3].map((k) => ({ exchange: exchange(k), question })), { caller: "faults" }), new Promise((r) => setTimeout(() => r(null), 30_000).unref())]);
      const ms = Date.now() - t0;
      worst.push(ms);
      const allTimedOut = answers !== null && answers.every((a) => a?.status === "unscored" && /^timeout: /.test(a.reason ?? ""));
      if (allTimedOut && ms < boundMs + 1000 && requests <= 3 * 2) survived++;
    }
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
  return { tries, survived, lost: tries - survived, note: `3 items, time-out 500 ms, 4 retries: unscored 'timeout' within the stated bound (${boundMs} ms) + 1 s, at most 2 attempts a call; slowest run ${Math.max(...worst)} ms` };
}

async function fifoTranscript(tries, _rnd, tmp) {
  const fifo = join(tmp, "t.fifo");
  spawnSync("mkfifo", [fifo]);
  let survived = 0;
  for (let i = 0; i < tries; i++) {
    const event = i % 2 === 0 ? "user-prompt-submit" : "stop";
    const input = JSON.stringify({ session_id: "s", prompt: "No, that is wrong.", transcript_path: fifo });
    const r = await run(["hook", event], { env: envFor(tmp), input, killAfterMs: 2000 });
    if (r.signal === null && r.code === 0) survived++;
  }
  return { tries, survived, lost: tries - survived, note: "prompt and stop hooks; each must return by itself within 2 s" };
}

const FAULTS = {
  add: (n, rnd, tmp) => killedAppends("add", n, rnd, tmp),
  hook: (n, rnd, tmp) => killedAppends("hook", n, rnd, tmp),
  rotate: rotateKills,
  daily: (n, rnd, tmp) => jobKills("daily", n, rnd, tmp),
  exchanges: (n, rnd, tmp) => jobKills("exchanges", n, rnd, tmp),
  "concurrent-daily": concurrentDailies,
  "full-disk": fullDisk,
  "stalled-server": (n) => stalledServer(n),
  fifo: fifoTranscript,
};

const LABEL = {
  add: "SIGKILL at a random moment in `errata add`",
  hook: "SIGKILL at a random moment in the hook",
  rotate: "SIGKILL at a random moment in `errata rotate`",
  daily: "SIGKILL at a random moment in `errata daily`",
  exchanges: "SIGKILL at a random moment in `errata exchanges`",
  "concurrent-daily": "five `errata daily` at once",
  "full-disk": "full disk (256 KB tmpfs), hook or add",
  "stalled-server": "model server sends headers, then stalls the body (3 items, retries on)",
  fifo: "FIFO as transcript_path",
};

/** Runs the faults; returns one row each. */
export async function runFaults({ quick = false, seed = 17, only = null, log = () => undefined } = {}) {
  const rnd = mulberry32(seed);
  const tmp = mkdtempSync(join(tmpdir(), "errata-faults-"));
  const rows = [];
  try {
    for (const [name, fn] of Object.entries(FAULTS)) {
      if (only && !only.includes(name)) continue;
      const n = TRIES[name][quick ? 1 : 0];
      if (n === 0) continue;
      const t0 = Date.now();
      const r = await fn(n, rnd, tmp);
      const row = { fault: name, label: LABEL[name], ...r, seconds: Math.round((Date.now() - t0) / 100) / 10 };
      rows.push(row);
      log(row);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const quick = process.argv.includes("--quick");
  const only = arg("--only")?.split(",") ?? null;
  process.stdout.write("| fault | tries | survived | lost | note |\n|---|---:|---:|---:|---|\n");
  const rows = await runFaults({ quick, seed: Number(arg("--seed") ?? 17), only, log: (r) => process.stdout.write(`| ${r.label} | ${r.tries} | ${r.survived} | ${r.lost} | ${r.note} (${r.seconds} s) |\n`) });
  if (rows.some((r) => r.lost > 0)) process.exitCode = 1;
}
