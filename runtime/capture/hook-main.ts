/**
 * `errata hook user-prompt-submit` and `errata hook stop`: the capture door in Claude Code.
 * `bin/errata.js` imports only this module (and what it imports: no zod, no commander), so
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
 * stop reads the Stop JSON and keeps `last_assistant_message` (or the transcript's last
 * reply) in the state folder for the next capture.
 *
 * The hook never blocks or breaks the host: every outcome exits 0; a fault prints one line
 * on stderr and leaves the ledger as it was.
 *
 * Example: stdin `{"session_id":"s1","prompt":"no, that's wrong","transcript_path":"…"}` ->
 * stdout `Errata captured this prompt as a correction (er-20261130-3fa9c1); acceptance pending.`
 */
import { existsSync, rmSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "../paths.js";
import { loadOrCreateReporterKey, pseudonymize } from "../privacy/pseudonym.js";
import { redactSecrets } from "../privacy/redact.js";
import { writeAttachment } from "../store/attachments.js";
import { appendErratumRaw } from "../store/raw-append.js";
import { captureRow, rowKind } from "./capture-row.js";
import { classify } from "./classify.js";
import { loadLastReply, saveLastReply } from "./hook-state.js";
import { hostOutputsFile, readOutputIds } from "./outputs.js";
import { typedPart } from "./text.js";
import { emptyTail, readTranscriptTail, type TranscriptTail } from "./transcript-tail.js";

export interface HookIo {
  readStdin: () => Promise<string>;
  stdout: { write: (s: string) => unknown };
  stderr: { write: (s: string) => unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
}

/** Stdin beyond this is not read (a prompt that large is kept by its head anyway). */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;
/** A host that never closes stdin does not hold the prompt up longer than this. */
export const STDIN_TIMEOUT_MS = 3_000;

export function processHookIo(): HookIo {
  return {
    readStdin: () => readStdin(process.stdin),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
  };
}

function readStdin(stream: NodeJS.ReadStream): Promise<string> {
  if (stream.isTTY) return Promise.resolve("");
  return new Promise((resolvePromise) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.pause();
      resolvePromise(Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(finish, STDIN_TIMEOUT_MS);
    timer.unref();
    stream.on("data", (c: Buffer | string) => {
      const b = typeof c === "string" ? Buffer.from(c) : c;
      if (size < MAX_STDIN_BYTES) chunks.push(b.subarray(0, MAX_STDIN_BYTES - size));
      size += b.length;
    });
    stream.on("end", finish);
    stream.on("error", finish);
  });
}

const USAGE = "usage: errata hook user-prompt-submit|stop  (reads the Claude Code hook JSON on stdin; always exits 0)";

type Fields = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Parses the hook JSON, or says in one line why it cannot be used. */
function parseInput(raw: string): { fields: Fields } | { problem: string } {
  if (raw.trim() === "") return { problem: "empty stdin (expected the hook's JSON); nothing captured" };
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
  if (event === undefined || event === "--help" || event === "-h" || event === "help") {
    io.stdout.write(`${USAGE}\n`);
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
    if (event === "stop") onStop(parsed.fields, io, say);
    else onPrompt(parsed.fields, io, say);
  } catch (err) {
    say(`internal fault (${err instanceof Error ? err.message : String(err)}); nothing captured`);
  }
  return 0;
}

function tailOf(transcriptPath: string | null, prompt: string | null, say: (l: string) => void): TranscriptTail {
  if (transcriptPath === null || !existsSync(transcriptPath)) return emptyTail();
  try {
    return readTranscriptTail(transcriptPath, prompt);
  } catch (err) {
    say(`transcript unreadable (${err instanceof Error ? err.message : String(err)}); capturing without it`);
    return emptyTail();
  }
}

function onStop(f: Fields, io: HookIo, say: (l: string) => void): void {
  const sessionId = str(f["session_id"]);
  if (sessionId === null) {
    say("no session_id in the Stop JSON; last reply not kept");
    return;
  }
  const given = str(f["last_assistant_message"]);
  const tail = given === null ? tailOf(str(f["transcript_path"]), null, say) : emptyTail();
  const reply = given ?? tail.reply;
  if (reply === null) return;
  const paths = resolvePaths(io.env, io.cwd);
  saveLastReply(paths.stateDir, { session_id: sessionId, ts: new Date(io.now()).toISOString(), reply, model: tail.model }, io.now());
}

function onPrompt(f: Fields, io: HookIo, say: (l: string) => void): void {
  const prompt = typeof f["prompt"] === "string" ? f["prompt"] : null;
  if (prompt === null) {
    say("no prompt in the UserPromptSubmit JSON; nothing captured");
    return;
  }
  const sessionId = str(f["session_id"]);
  const paths = resolvePaths(io.env, io.cwd);
  const nowMs = io.now();
  const tail = tailOf(str(f["transcript_path"]), prompt, say);
  const saved = sessionId === null ? null : loadLastReply(paths.stateDir, sessionId);
  // The Stop hook's copy is the reply as the host delivered it; it is stale when it was
  // kept before the previous prompt (that turn was interrupted and never stopped).
  const savedFresh = saved !== null && (tail.previousPromptTs === null || Date.parse(saved.ts) >= Date.parse(tail.previousPromptTs));
  const reply = savedFresh ? saved.reply : (tail.reply ?? saved?.reply ?? null);

  const verdict = classify(prompt, { previousReply: reply });
  if (rowKind(verdict) === null) return; // an ordinary prompt: nothing written, nothing said
  const typed = typedPart(prompt).text;
  const since = tail.previousPromptTs === null ? null : Date.parse(tail.previousPromptTs);
  const outputIds = readOutputIds(hostOutputsFile(io.env, paths.ledgerDir), sessionId, since, nowMs);
  const reporter = { id: pseudonymize(io.env["USER"] ?? safeUserName(), loadOrCreateReporterKey(paths.stateDir)), role: "owner" };
  const built = captureRow(
    verdict,
    typed,
    {
      sessionId,
      cwd: str(f["cwd"]) ?? null,
      reply,
      requested: tail.previousPrompt,
      toolCalls: tail.toolCalls,
      outputIds,
      version: tail.version,
      model: tail.model ?? saved?.model ?? null,
    },
    { nowMs, reporter, channel: "hook" },
  );
  if (built === null) return;
  const { erratum } = built;
  let attachmentDir: string | null = null;
  if (built.deepContext && (reply !== null || tail.toolCalls.length > 0)) {
    const ctx = {
      schema: "hook-context/1",
      captured_ts: erratum.ts,
      verdict: { kind: verdict.kind, rating: verdict.rating, frustration: verdict.frustration, language: verdict.language, signals: verdict.signals },
      requested: tail.previousPrompt === null ? null : redactSecrets(tail.previousPrompt).text,
      reply: reply === null ? null : redactSecrets(reply).text,
      tool_calls: tail.toolCalls.map((t) => ({ name: t.name, summary: redactSecrets(t.summary).text })),
      transcript_path: str(f["transcript_path"]),
    };
    erratum.links = { attachments: [writeAttachment(paths.attachmentsDir, erratum.id, "context.json", `${JSON.stringify(ctx, null, 2)}\n`)] };
    attachmentDir = join(paths.attachmentsDir, erratum.id);
  }
  try {
    appendErratumRaw(paths, erratum, (line) => void io.stderr.write(`${line}\n`));
  } catch (err) {
    if (attachmentDir !== null) rmSync(attachmentDir, { recursive: true, force: true });
    throw err;
  }
  const what = erratum.kind === "correction" && verdict.kind === "directive" ? "a standing directive" : `a ${erratum.kind}`;
  io.stdout.write(`Errata captured this prompt as ${what} (${erratum.id}); acceptance pending.\n`);
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return "owner";
  }
}
