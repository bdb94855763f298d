/**
 * The whole hook as a process: `node bin/errata.cjs hook user-prompt-submit` (compiled
 * JavaScript, the package's bin) reading a prompt on stdin and, for a capturing prompt,
 * appending to a scratch ledger, against a bare `node -e 0` started the same way (spawnSync,
 * same stdin) in the same run. Target: the hook within 1.3x of a bare Node start.
 *
 * Variants, as the host runs them with both hooks installed:
 * - ordinary prompt (most prompts: nothing written);
 * - capturing prompt after the Stop hook (the usual capture: a row, a deep-context
 *   attachment, the record row; the Stop hook recorded the reply's hash, the capture reads the
 *   reply from the transcript and hashes it by the WebAssembly SHA-256, core/sha256.ts);
 * - capturing prompt with no Stop record (Stop hook not installed: the same reads);
 * - capturing prompt in a session without a transcript, after the Stop hook kept the reply's
 *   text and hash (no transcript read, no hashing).
 * The transcript is a real one (the bundled spotter session).
 *
 * And the Stop hook (`hook stop`), which records the last reply and runs the quick reflection:
 * - Stop, nothing captured (most Stops: the reflection's part looks at the ledger's tail for
 *   the session's id, finds none, and writes nothing);
 * - Stop after a captured correction (the reflection reads the transcript's end, the shipped
 *   cause model, sorts the correction and writes its line and receipt; the sorted line is
 *   removed before each run so that every run sorts).
 *
 * Two measures:
 * - wall time, runs alternating so that machine load hits all alike, medians of
 *   HOOK_BENCH_RUNS (30) runs each; in the environment as given and, when it sets
 *   NODE_EXTRA_CA_CERTS, also without it (an extra CA bundle makes every Node start several
 *   times dearer and hides the hook's own cost; the stock figure is the honest one);
 * - instructions executed under valgrind's callgrind (when valgrind is installed; stock
 *   environment; medians of HOOK_BENCH_CALLGRIND_RUNS (5)): deterministic but for Node's
 *   background threads and hash seeds (a few percent run to run), so it is the clearer figure
 *   on a shared machine. HOOK_BENCH_CALLGRIND=0 skips it.
 *
 * Run: `npm run build && node dist/bench/run.js hook`
 */
import { spawnSync } from "node:child_process";
import { classify } from "../runtime/classifier/classify.js";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

interface Variant {
  name: string;
  args: string[];
  input: string;
  /** Run before each measured run, outside the measure. */
  before?: () => void;
}

function hasValgrind(): boolean {
  return spawnSync("valgrind", ["--version"], { encoding: "utf8" }).status === 0;
}

/** Instructions executed by one process under callgrind (all threads). */
function instructions(v: Variant, env: NodeJS.ProcessEnv, outFile: string): number {
  const r = spawnSync("valgrind", ["--tool=callgrind", `--callgrind-out-file=${outFile}`, process.execPath, ...v.args], { input: v.input, env, encoding: "utf8" });
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${v.name} under callgrind exited ${r.status}: ${r.stderr.slice(-400)}`);
  return Number(m[1]);
}

/**
 * A 1,000-character prompt that writes nothing: the first run of the bundled synthetic coding prompts,
 * joined, that the classifier finds ordinary (a person pasting a long request).
 */
function longOrdinaryPrompt(repoRoot: string): string {
  const lines = readFileSync(join(repoRoot, "datasets", "synthetic", "exchanges.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "");
  const prompts = lines.map((l) => (JSON.parse(l) as { prompt: string }).prompt);
  for (let start = 0; start < prompts.length; start++) {
    let text = "";
    for (let k = start; k < prompts.length && text.length < 1000; k++) text += `${prompts[k]} `;
    text = text.slice(0, 1000);
    if (text.length === 1000 && classify(text).kind === "none") return text;
  }
  throw new Error("hook bench: no ordinary 1,000-character prompt in datasets/synthetic/exchanges.jsonl");
}

export async function run(): Promise<void> {
  const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const bin = join(repoRoot, "bin", "errata.cjs");
  const runs = Number(process.env["HOOK_BENCH_RUNS"] ?? 30);
  const cgRuns = Number(process.env["HOOK_BENCH_CALLGRIND_RUNS"] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), "errata-hook-bench-"));
  try {
    const ledger = join(dir, "ledger");
    const transcript = join(dir, "session.jsonl");
    // A real transcript tail for the hook to read: the bundled spotter session.
    writeFileSync(transcript, readFileSync(join(repoRoot, "datasets", "claude-code", "spotter", "tool_heavy.jsonl")));
    const asGiven = { ...process.env, ERRATA_DIR: ledger };
    const stock: NodeJS.ProcessEnv = { ...asGiven };
    delete stock["NODE_EXTRA_CA_CERTS"];
    const stdinFor = (session: string, prompt: string) =>
      JSON.stringify({ session_id: session, transcript_path: transcript, cwd: dir, hook_event_name: "UserPromptSubmit", permission_mode: "default", prompt });
    const hook = [bin, "hook", "user-prompt-submit"];
    const capturing = "No, that's wrong. I already told you to keep the old API.";
    const long = longOrdinaryPrompt(repoRoot);
    const variants: Variant[] = [
      { name: "node -e 0", args: ["-e", "0"], input: stdinFor("kept", capturing) },
      { name: "hook, ordinary prompt", args: hook, input: stdinFor("kept", "add a retry to the fetch call and run the tests") },
      { name: "hook, ordinary 1,000-character prompt", args: hook, input: stdinFor("kept", long) },
      { name: "hook, capturing prompt after the Stop hook (reply read from the transcript and hashed)", args: hook, input: stdinFor("kept", capturing) },
      { name: "hook, capturing prompt with no Stop record (transcript read and hashed)", args: hook, input: stdinFor("unkept", capturing) },
      {
        name: "hook, capturing prompt without a transcript (reply and hash kept by the Stop hook)",
        args: hook,
        input: JSON.stringify({ session_id: "no-transcript", cwd: dir, hook_event_name: "UserPromptSubmit", permission_mode: "default", prompt: capturing }),
      },
    ];
    // The Stop hook's two cases. A session whose last prompt was captured: its transcript (the
    // prompt stamped now, as the host writes it), its capture, and its Stop.
    const stopCap = "stop-captured";
    const stopTranscript = join(dir, "stop-session.jsonl");
    const base = { isSidechain: false, userType: "external", cwd: dir, sessionId: stopCap, version: "2.1.9" };
    const rec = (r: object) => JSON.stringify({ ...base, ...r });
    const sortedFile = join(ledger, "ladder", "sorted.jsonl");
    // Before each measured Stop: the transcript stamped now, its prompt captured anew (so it is
    // the newest row however many rows the capturing variants added), the sorted line removed.
    const prepareCapturedStop = () => {
      const nowIso = new Date().toISOString();
      writeFileSync(
        stopTranscript,
        [
          rec({ type: "user", uuid: "b1", timestamp: nowIso, message: { role: "user", content: "add lodash" } }),
          rec({ type: "assistant", uuid: "b2", timestamp: nowIso, message: { id: "m1", model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "text", text: "Installed lodash with npm install." }] } }),
          rec({ type: "user", uuid: "b3", timestamp: nowIso, message: { role: "user", content: capturing } }),
          rec({ type: "assistant", uuid: "b4", timestamp: nowIso, message: { id: "m2", model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "text", text: "Sorry, I kept the old API now." }] } }),
        ].join("\n") + "\n",
      );
      const cap = spawnSync(process.execPath, [...hook], { input: JSON.stringify({ session_id: stopCap, transcript_path: stopTranscript, cwd: dir, hook_event_name: "UserPromptSubmit", prompt: capturing }), env: asGiven, encoding: "utf8" });
      if (cap.status !== 0 || !/acceptance pending/.test(cap.stdout)) throw new Error(`the capture for the Stop variant failed: ${cap.stderr}`);
      rmSync(sortedFile, { force: true });
    };
    const stopFor = (session: string, transcriptPath: string) => JSON.stringify({ session_id: session, transcript_path: transcriptPath, hook_event_name: "Stop", last_assistant_message: "Sorry, I kept the old API now." });
    variants.push(
      { name: "hook stop, nothing captured", args: [bin, "hook", "stop"], input: stopFor("stop-plain", transcript) },
      { name: "hook stop after a captured correction (reflection sorts it)", args: [bin, "hook", "stop"], input: stopFor(stopCap, stopTranscript), before: prepareCapturedStop },
    );
    // The Stop hook records the last reply of session "kept", as it does after every turn, and
    // keeps the reply itself for the session without a transcript.
    const keptReply = "I changed the API as you asked: `fetchAll` now takes an options object.";
    for (const fields of [{ session_id: "kept", transcript_path: transcript }, { session_id: "no-transcript" }]) {
      const stop = spawnSync(process.execPath, [bin, "hook", "stop"], { input: JSON.stringify({ ...fields, hook_event_name: "Stop", last_assistant_message: keptReply }), env: asGiven, encoding: "utf8" });
      if (stop.status !== 0 || stop.stderr !== "") throw new Error(`the Stop hook failed: ${stop.stderr}`);
    }

    const envs: Array<[string, NodeJS.ProcessEnv]> = [["environment as given", asGiven]];
    if (process.env["NODE_EXTRA_CA_CERTS"]) envs.push(["without NODE_EXTRA_CA_CERTS", stock]);
    process.stdout.write(`wall time, medians of ${runs} alternating runs (spawnSync, stdin piped):\n`);
    for (const [label, env] of envs) {
      const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
      for (let i = 0; i < 2; i++) for (const v of variants) (v.before?.(), spawnSync(process.execPath, v.args, { input: v.input, env })); // warm the file cache
      for (let i = 0; i < runs; i++) {
        for (const v of variants) {
          v.before?.();
          const t0 = process.hrtime.bigint();
          const r = spawnSync(process.execPath, v.args, { input: v.input, env });
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (r.status !== 0) throw new Error(`${v.name} exited ${r.status}: ${String(r.stderr)}`);
          times.get(v.name)?.push(ms);
        }
      }
      const base = median(times.get("node -e 0") ?? []);
      process.stdout.write(`${label}:\n`);
      for (const [name, xs] of times) {
        const m = median(xs);
        process.stdout.write(`  ${name}: ${m.toFixed(1)} ms, ratio to node -e 0: ${(m / base).toFixed(2)}x\n`);
      }
    }

    if (process.env["HOOK_BENCH_CALLGRIND"] !== "0" && cgRuns > 0) {
      if (!hasValgrind()) {
        process.stdout.write("instructions: skipped (valgrind is not installed; apt-get install valgrind)\n");
      } else {
        process.stdout.write(`instructions under callgrind, stock environment, medians of ${cgRuns} alternating runs:\n`);
        const counts = new Map<string, number[]>(variants.map((v) => [v.name, []]));
        const outFile = join(dir, "callgrind.out");
        for (let i = 0; i < cgRuns; i++) for (const v of variants) (v.before?.(), counts.get(v.name)?.push(instructions(v, stock, outFile)));
        const base = median(counts.get("node -e 0") ?? []);
        for (const [name, xs] of counts) {
          const m = median(xs);
          const spread = `${(Math.min(...xs) / 1e6).toFixed(1)}-${(Math.max(...xs) / 1e6).toFixed(1)} M`;
          process.stdout.write(`  ${name}: ${(m / 1e6).toFixed(1)} M (runs ${spread}), ratio to node -e 0: ${(m / base).toFixed(2)}x\n`);
        }
      }
    }
    const rows = readdirSync(ledger).filter((f) => f.endsWith(".jsonl")).flatMap((f) => readFileSync(join(ledger, f), "utf8").trim().split("\n"));
    process.stdout.write(`ledger rows appended by the capturing runs: ${rows.length}\n`);
    // The Stop variant with a capture must have sorted (else it measured the gate alone).
    if (!existsSync(sortedFile) || !readFileSync(sortedFile, "utf8").includes('"by":"reflection"')) throw new Error("hook bench: the Stop after a capture sorted nothing");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
