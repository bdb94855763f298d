/**
 * `errata hook user-prompt-submit` and `errata hook stop`: the capture door in Claude Code.
 * `bin/errata.cjs` loads only this module's bundle (and what it imports: no zod, no commander), so
 * a prompt costs little more than Node's own start.
 *
 * user-prompt-submit reads the UserPromptSubmit JSON on stdin (`session_id`,
 * `transcript_path`, `cwd`, `prompt`, `hook_event_name`, ...; unknown fields are ignored),
 * classifies the prompt against the reply it answers (kept by the Stop hook, else read from
 * the transcript's end) and, for an explicit rating, correction, standing directive or
 * praise, appends one erratum (secrets redacted) and prints one line for the host:
 * "Errata captured this prompt as a correction (er-…); acceptance pending." An ordinary
 * prompt writes and prints nothing. A rating <= 3 or an explicit correction also writes a
 * deep-context attachment (the reply, the turn's tool calls), linked from the erratum.
 *
 * stop reads the Stop JSON and records `last_assistant_message` (or the transcript's last
 * reply) in the state folder for the next capture: its hash, and its text only when the
 * session has no transcript to read it from (hook-state.ts); when the prompt it answered was
 * captured, the reflection (hook-reflect.ts) sorts that correction by cause for the ladder.
 *
 * The hook never blocks or breaks the host: every outcome exits 0; a fault prints one line
 * on stderr and leaves the ledger as it was.
 *
 * Example: stdin `{"session_id":"s1","prompt":"no, that's wrong","transcript_path":"…"}` ->
 * stdout `Errata captured this prompt as a correction (er-20261130-3fa9c1); acceptance pending.`
 */
import { fstatSync, readSync } from "node:fs";
import { classify } from "../classifier/classify.js";
import { rowKind } from "./row-kind.js";
import { outputFlushed, writeFd } from "./fd-write.js";
import { reflectAfterStop } from "./hook-reflect.js";

export interface HookIo {
  readStdin: () => Promise<string>;
  stdout: { write: (s: string) => unknown };
  stderr: { write: (s: string) => unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
}

/** Stdin beyond this is ignored (a prompt that large is kept by its head anyway). */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

export function processHookIo(): HookIo {
  return {
    readStdin: async () => readStdin(),
    stdout: { write: (s: string) => writeFd(1, s) },
    stderr: { write: (s: string) => writeFd(2, s) },
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
  };
}

// Whether the process may exit as soon as `runHook` resolves (its ledger and state writes are
// synchronous too): see fd-write.ts.
export { outputFlushed };

/**
 * Reads stdin synchronously (a stream costs more to set up than the rest of the hook), with
 * the cap applied while reading: at most MAX_STDIN_BYTES are kept, in chunks, and anything
 * past them is read and dropped (so a host still writing is not left blocked), then the
 * whole is refused: a JSON object cut at the cap cannot be parsed anyway. A terminal gives
 * "": nothing was piped. A regular file over the cap is refused from its size, unread. The
 * host closes stdin after writing; Claude Code's own hook time-out bounds a host that would not.
 */
export function readStdinCapped(fd = 0, cap = MAX_STDIN_BYTES): string | { overCap: number } {
  const st = fstatSync(fd);
  if (st.isCharacterDevice()) return "";
  if (st.isFile() && st.size > cap) return { overCap: st.size };
  // Full chunks kept so far, and the one being filled (a pipe gives at most 64 KiB a read).
  const chunks: Buffer[] = [];
  let buf = Buffer.allocUnsafe(64 * 1024);
  let used = 0;
  let total = 0;
  let again = 0;
  for (;;) {
    if (used === buf.length) {
      if (total <= cap) {
        chunks.push(buf);
        buf = Buffer.allocUnsafe(Math.min(1024 * 1024, cap + 1 - Math.min(cap, total)));
      }
      used = 0; // over the cap: the chunk is reused to read and drop the rest
    }
    let n: number;
    try {
      n = readSync(fd, buf, used, buf.length - used, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EOF") break;
      // A pipe the host left non-blocking: nothing yet. Wait a little, a bounded number of times.
      if (code === "EAGAIN" && again++ < 2000) {
        Atomics.wait(pauseCell, 0, 0, 1);
        continue;
      }
      if (code === "EAGAIN" || code === "EBADF") break;
      throw err;
    }
    if (n === 0) break;
    total += n;
    used += n;
    if (total > cap) chunks.length = 0; // nothing kept is usable any more: let it go now
  }
  if (total > cap) return { overCap: total };
  chunks.push(buf.subarray(0, used));
  return Buffer.concat(chunks, total).toString("utf8");
}

const pauseCell = new Int32Array(new SharedArrayBuffer(4));

function readStdin(): string {
  try {
    const r = readStdinCapped();
    return typeof r === "string" ? r : OVER_CAP;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EAGAIN" || code === "EOF" || code === "EBADF") return "";
    throw err;
  }
}

/** What `readStdin` gives for stdin over the cap: never valid hook JSON, so `parseInput` names it. */
const OVER_CAP = "\u0000over-cap";

/** A full disk: the store's DISK_FULL, or the system's ENOSPC / EDQUOT from a state or attachment write. */
function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "DISK_FULL" || code === "ENOSPC" || code === "EDQUOT";
}

const USAGE = "usage: errata hook user-prompt-submit|stop  (reads the Claude Code hook JSON on stdin; always exits 0; --help for more)";
const HELP = `usage: errata hook user-prompt-submit|stop

Claude Code's capture hooks. Each reads its hook JSON on stdin and always exits 0: a fault is
one line on stderr and leaves the ledger as it was.

  user-prompt-submit  classifies the typed prompt (no model, no network). A rating, an
                      explicit correction, a standing directive or praise appends one erratum
                      to the ledger and prints one line for the host, e.g.
                      "Errata captured this prompt as a correction (er-...); acceptance pending."
                      Any other prompt writes and prints nothing.
  stop                records the last assistant reply's hash, so that the next capture
                      fills response_hash (and response_preview from the transcript, where
                      it reads and redacts the reply; with no transcript the reply itself is
                      kept when it cannot hold a secret); when the prompt it answers was
                      captured, sorts it by cause for the ladder (ladder/sorted.jsonl,
                      docs/ladder.md; no model).

Install both in ~/.claude/settings.json (or a project's .claude/settings.json):
  "hooks": {
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "errata hook user-prompt-submit" }] }],
    "Stop": [{ "hooks": [{ "type": "command", "command": "errata hook stop" }] }]
  }

Environment: ERRATA_DIR, the ledger folder (default ~/.local/share/errata); ERRATA_HOST_DIR,
the folder of the host's outputs.jsonl (for context.output_ids).

Example:
  $ echo '{"session_id":"s1","prompt":"No, that is wrong."}' | ERRATA_DIR=/tmp/l errata hook user-prompt-submit
  Errata captured this prompt as a correction (er-...); acceptance pending.

More: docs/capture.md ("The hook").`;

type Fields = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Parses the hook JSON, or says in one line why it cannot be used. */
function parseInput(raw: string): { fields: Fields } | { problem: string } {
  if (raw.trim() === "") return { problem: "empty stdin (expected the hook's JSON); nothing captured" };
  if (raw === OVER_CAP) return { problem: `stdin over ${MAX_STDIN_BYTES} bytes (expected the hook's JSON under the cap); nothing captured` };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { problem: `stdin is not JSON (expected the hook's JSON object; found ${JSON.stringify(raw.slice(0, 40))}); nothing captured` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { problem: "stdin JSON is not an object; nothing captured" };
  return { fields: v as Fields };
}

export async function runHook(args: string[], io: HookIo = processHookIo()): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`errata hook: ${line}\n`);
  const event = args[0];
  if (event === "--help" || event === "-h" || event === "help") {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  // No event: a hook set up without one. Its stdout would reach the model's context: say it on stderr.
  if (event === undefined) {
    say(`no hook named; nothing captured. ${USAGE}`);
    return 0;
  }
  if (event !== "user-prompt-submit" && event !== "stop") {
    say(`unknown hook ${JSON.stringify(event)} (expected user-prompt-submit or stop); nothing captured`);
    return 0;
  }
  try {
    const parsed = parseInput(await io.readStdin());
    if ("problem" in parsed) {
      say(parsed.problem);
      return 0;
    }
    if (event === "stop") await onStop(parsed.fields, io, say);
    else await onPrompt(parsed.fields, io, say);
  } catch (err) {
    // A full disk is not the hook's fault, and the store cut back what it began: say it plainly.
    if (isDiskFull(err)) say("not captured: disk full");
    else say(`internal fault (${err instanceof Error ? err.message : String(err)}); nothing captured`);
  }
  return 0;
}

function onStop(f: Fields, io: HookIo, say: (l: string) => void): Promise<void> | void {
  const sessionId = str(f["session_id"]);
  if (sessionId === null) {
    say("no session_id in the Stop JSON; last reply not kept");
    return;
  }
  return import("./hook-reply.js")
    .then((m) => m.keepLastReply(io.env, io.cwd, io.now(), sessionId, str(f["last_assistant_message"]), str(f["transcript_path"]), say))
    // The quick reflection: sorts the prompt's capture by cause, if it was captured (never rejects).
    .then(() => reflectAfterStop({ env: io.env, cwd: io.cwd, nowMs: io.now(), sessionId, transcriptPath: str(f["transcript_path"]), verdictKind: (p, reply) => classify(p, { previousReply: reply }).kind, say }))
    .then(() => undefined);
}

async function onPrompt(f: Fields, io: HookIo, say: (l: string) => void): Promise<void> {
  const prompt = typeof f["prompt"] === "string" ? f["prompt"] : null;
  if (prompt === null) {
    say("no prompt in the UserPromptSubmit JSON; nothing captured");
    return;
  }
  const sessionId = str(f["session_id"]);
  const transcriptPath = str(f["transcript_path"]);
  // Most prompts never need the reply: classify first, and read the transcript and the
  // kept reply (and load the code that does) only when a rule asks for the reply or a row
  // will be written.
  let wantsReply = false;
  let verdict = classify(prompt, {
    previousReply: () => {
      wantsReply = true;
      return null;
    },
  });
  let reply: import("./hook-reply.js").ReplyContext | null = null;
  const loadReply = async () => (await import("./hook-reply.js")).replyContext(io.env, io.cwd, sessionId, transcriptPath, prompt, say);
  if (wantsReply) {
    reply = await loadReply();
    verdict = classify(prompt, { previousReply: reply.reply });
  }
  if (rowKind(verdict) === null) return; // an ordinary prompt: nothing written, nothing said
  reply ??= await loadReply();
  const { captureToLedger } = await import("./hook-capture.js");
  const line = captureToLedger({
    env: io.env,
    cwd: io.cwd,
    nowMs: io.now(),
    prompt,
    sessionId,
    hostCwd: str(f["cwd"]),
    transcriptPath,
    verdict,
    reply,
    stderr: (l) => void io.stderr.write(`${l}\n`),
  });
  if (line !== null) io.stdout.write(`${line}\n`);
}
