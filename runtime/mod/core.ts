/**
 * The Errata mod's core: the handlers Claude Code's mods API calls inside the client
 * (mod/hooks/register.js registers them; scripts/bundle-mod.js bundles this file with the
 * classifier's data into mod/hooks/errata-core.js, which imports nothing but its own code).
 *
 * - `prompt.submit` classifies the prompt in process (the capture hook's own classifier and
 *   row-kind switch). An ordinary prompt costs that and nothing more. A prompt the hook would
 *   capture, or one whose verdict needs the reply, is handed whole to `errata hook
 *   user-prompt-submit` through `$.process.run`: the same code writes the same ledger line, so
 *   the ledger keeps one writer and its guarantees (one whole line per append); its host line
 *   reaches the model as the prompt's context, as the hook's stdout does.
 * - `turn.complete` records the reply as the Stop hook does (`<state>/hook/last-reply-*.json`,
 *   through `$.fs.write`); after a captured prompt it hands the turn's end to `errata hook stop`
 *   instead, whose reflection sorts the capture.
 * - `tool.check` and `tool.call` run the rung-3 checks in process (ladder-formats/checks.ts):
 *   a deny's reason is the model's error, an ask holds the call for the owner, a rewrite
 *   changes the input before the tool runs, a warning rides along the result. A call some
 *   check is eligible for is handed to `errata-tool-hook pre-tool-use` in the background, which
 *   writes the tool-event lines the shadow gate reads (its answer is not used).
 * - `prompt.context` sees which instruction files the request carries (the InstructionsLoaded
 *   equivalent) and hands each, once a session, to `errata-tool-hook instructions-loaded`.
 * - A line holdout (docs/causal.md): `prompt.context` and `prompt.attachment` leave the rule lines
 *   the session's draw holds out out of what the model is sent, and record it (line-holdout.ts).
 * - `/errata report|approvals|approve|reject|undo` runs the same `errata rules` commands, and
 *   `/errata pane` opens the owner's pane (runtime/mod/pane.ts), drawn at `ui.render`.
 *
 * A fault is logged (`$.ui.log` to the debug log) and the event passes on unchanged. Where the
 * settings hooks are installed too, the mod stands down for what they do (no line written twice).
 */
import { rowKind } from "../hooks/row-kind.js";
import { lastReplyFileName, withheldReplyRecord } from "../hooks/last-reply-key.js";
import { evaluateCompiled, type Decision } from "../ladder-formats/checks.js";
import { join } from "node:path";
import { modClassifier } from "./classifier.js";
import { checksReader } from "./checks-read.js";
import { resolvePaths } from "../paths.js";
import { createPane, PANE_ID } from "./pane.js";
import { LADDER_DIR, LINE_HOLDOUTS_FILE } from "../ladder-formats/files.js";
import { sessionLines, withheldPayload, withholdFromAttachment, withholdFromContext, type RecordWithheld } from "./line-holdout.js";
import type {
  CommandRunInput,
  ModApi,
  Next,
  PromptAttachmentInput,
  PromptAttachmentResult,
  PromptContextInput,
  PromptContextResult,
  PromptSubmitInput,
  PromptSubmitResult,
  ToolCallInput,
  ToolCallResult,
  ToolCheckInput,
  ToolCheckResult,
  TurnCompleteInput,
  TurnCompleteResult,
} from "./api.js";

/** Which settings hook does what the mod would do: the mod stands down for each one installed. */
export interface StandDown {
  capture: boolean;
  tools: boolean;
  instructions: boolean;
}

/** What the settings' `hooks` block installs of Errata's (README's hooks block), from its commands. */
export function settingsHooksInstalled(settings: Record<string, unknown>): StandDown {
  const commands: string[] = [];
  const hooks = settings["hooks"];
  if (typeof hooks === "object" && hooks !== null) {
    for (const entries of Object.values(hooks as Record<string, unknown>)) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries as Array<{ hooks?: unknown }>) {
        if (!Array.isArray(entry?.hooks)) continue;
        for (const h of entry.hooks as Array<{ command?: unknown }>) if (typeof h?.command === "string") commands.push(h.command);
      }
    }
  }
  const has = (re: RegExp) => commands.some((c) => re.test(c));
  return {
    capture: has(/\berrata(\.cjs)?["']?\s+hook\s+user-prompt-submit\b/),
    tools: has(/\berrata(-tool-hook)?(\.cjs)?["']?\s+(hook\s+)?pre-tool-use\b/),
    instructions: has(/\berrata(-tool-hook)?(\.cjs)?["']?\s+(hook\s+)?instructions-loaded\b/),
  };
}

/** The environment names the paths depend on (runtime/paths.ts); register.js reads each with `$.env.get`. */
export const ENV_NAMES = ["ERRATA_DIR", "ERRATA_STATE_DIR", "HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"] as const;

interface Session {
  id: string;
  cwd: string;
  transcriptPath: string | null;
  env: Record<string, string | undefined>;
  standDown: StandDown;
  /** The mod's folder (CLAUDE_PLUGIN_ROOT): the classifier's files are in its lang/. */
  root: string | null;
  /** argv heads of `errata` and `errata-tool-hook`: the package's own bin beside the mod, else PATH's. */
  errata: string[];
  toolHook: string[];
}

/** The mod's state for one loaded module: what it learned of the session, per-turn marks. */
export interface ErrataMod {
  promptSubmit: ($: ModApi, e: PromptSubmitInput, next: Next<PromptSubmitInput, PromptSubmitResult>) => Promise<PromptSubmitResult>;
  turnComplete: ($: ModApi, e: TurnCompleteInput, next: Next<TurnCompleteInput, TurnCompleteResult>) => Promise<TurnCompleteResult>;
  toolCheck: ($: ModApi, e: ToolCheckInput, next: Next<ToolCheckInput, ToolCheckResult>) => Promise<ToolCheckResult>;
  toolCall: ($: ModApi, e: ToolCallInput, next: Next<ToolCallInput, ToolCallResult>) => Promise<ToolCallResult>;
  promptContext: ($: ModApi, e: PromptContextInput, next: Next<PromptContextInput, PromptContextResult>) => Promise<PromptContextResult>;
  promptAttachment: ($: ModApi, e: PromptAttachmentInput, next: Next<PromptAttachmentInput, PromptAttachmentResult>) => Promise<PromptAttachmentResult>;
  sessionStart: ($: ModApi, e: unknown, next: Next<unknown, unknown>) => Promise<unknown>;
  commandRun: ($: ModApi, e: CommandRunInput, next: Next<CommandRunInput, unknown>) => Promise<unknown>;
  /** `ui.render` for `{ component: "Pane", requestId: "errata" }`: the owner's pane. */
  uiRender: ($: ModApi, e: { requestId?: string; [k: string]: unknown }, next: Next<unknown, unknown>) => Promise<unknown>;
}

export interface ModOptions {
  /** For tests: the clock (ms). */
  now?: () => number;
}

const KIND_TO_MEMORY_TYPE: Record<string, string> = { managed: "Managed", user: "User", project: "Project", local: "Local" };
export const ERRATA_COMMANDS = ["pane", "report", "approvals", "approve", "reject", "undo"] as const;
export { errataCommand } from "./pane.js";

export function createErrataMod(opts: ModOptions = {}): ErrataMod {
  const now = opts.now ?? (() => Date.now());
  let session: Promise<Session> | null = null;
  /** Sessions whose current turn's prompt was captured (the turn's end goes to `errata hook stop`). */
  const capturedTurn = new Set<string>();
  /** Instruction files already recorded, per session. */
  const recorded = new Set<string>();
  /** The decision on a call, by its id: tool.check and tool.call see it once, on the input the model sent. */
  const decided = new Map<string, Decision | null>();
  const pane = createPane();

  const sessionOf = ($: ModApi): Promise<Session> =>
    (session ??= (async () => {
      const [info, id, cwd, env, settings, hookEnv] = await Promise.all([$.sessionInfo(), $.sessionId(), $.sessionCwd(), $.env(), $.settings(), $.hookEnv()]);
      const root = hookEnv["CLAUDE_PLUGIN_ROOT"];
      const bin = root ? join(root, "..", "bin") : null;
      const own = bin !== null && (await $.exists(`${bin}/errata.cjs`).catch(() => false));
      return {
        id,
        cwd,
        root: root ?? null,
        transcriptPath: typeof info.transcriptPath === "string" && info.transcriptPath !== "" ? info.transcriptPath : null,
        env,
        standDown: settingsHooksInstalled(settings),
        errata: own ? ["node", `${bin}/errata.cjs`] : ["errata"],
        toolHook: own ? ["node", `${bin}/errata-tool-hook.cjs`] : ["errata-tool-hook"],
      };
    })().catch((err: unknown) => {
      session = null;
      throw err;
    }));

  /** The classifier, its files read through `$` (classifier.ts) from session.start on. */
  const classifier = modClassifier();
  const warm = ($: ModApi): Promise<void> => {
    // The files are asked for as soon as the mod's folder is known, beside the session's look-up.
    const s = sessionOf($);
    s.catch(() => undefined); // the build below and every event wait for it and log its fault
    return $.hookEnv()
      .then((env) => classifier.warm($, env["CLAUDE_PLUGIN_ROOT"] ?? null, s.then((x) => !x.standDown.capture)))
      .catch((err: unknown) => $.log(`errata mod: session.start: ${message(err)}; read again when needed`));
  };
  /** The rung-3 checks in force, read again only when their files changed (checks-read.ts). */
  const checksFor = checksReader();

  /** Runs a child in the background: its outcome is logged, never awaited by the event. */
  const background = ($: ModApi, what: string, argv: string[], stdin: string, cwd: string): void => {
    void $.run(argv, { stdin, cwd }).then(
      (r) => {
        if (r.stderr.trim() !== "") $.log(`errata mod: ${what}: ${r.stderr.trim()}`);
      },
      (err: unknown) => $.log(`errata mod: ${what} did not run (${message(err)})`),
    );
  };

  /** The rule lines this session's draw holds out, read once a session; each withholding recorded (line-holdout.ts). */
  let heldLines: ReturnType<typeof sessionLines> | null = null;
  const linesHeldOut = ($: ModApi, s: Session) =>
    (heldLines ??= sessionLines((f) => $.exists(f).then((there) => (there ? $.read(f) : null)), $.log, `${resolvePaths(s.env, s.cwd).ledgerDir}/${LADDER_DIR}/${LINE_HOLDOUTS_FILE}`, s.id));
  const recordWithheld = ($: ModApi, s: Session): RecordWithheld => (file, reason, ids) => background($, "line holdout", [...s.toolHook, "instructions-loaded"], withheldPayload(s.id, s.cwd, file, reason, ids), s.cwd);

  async function decide($: ModApi, s: Session, tool: string, input: Record<string, unknown>, toolUseId: string | undefined): Promise<Decision | null> {
    if (toolUseId !== undefined && decided.has(toolUseId)) return decided.get(toolUseId)!;
    const compiled = await checksFor($, s.env, s.cwd);
    const d = compiled.length === 0 ? null : evaluateCompiled(compiled, { tool_name: tool, tool_input: input });
    if (toolUseId !== undefined) {
      decided.set(toolUseId, d);
      if (decided.size > 256) decided.delete(decided.keys().next().value!);
    }
    // The tool-event lines (the shadow gate's opportunities, the live fires): the hook's own code writes them.
    if (d !== null && d.outcomes.some((o) => o.eligible)) {
      const payload = { session_id: s.id, tool_name: tool, tool_input: input, tool_use_id: toolUseId ?? null, cwd: s.cwd, hook_event_name: "PreToolUse" };
      background($, "tool-event log", [...s.toolHook, "pre-tool-use"], JSON.stringify(payload), s.cwd);
    }
    return d;
  }

  return {
    promptSubmit: guard("prompt.submit", async ($, e, next) => {
      if (e.command !== undefined || e.isMeta === true || typeof e.text !== "string") return next(e);
      const s = await sessionOf($);
      if (s.standDown.capture) return next(e);
      // The hook's own order: classify first; the reply (and the process that reads it) only when asked.
      let wantsReply = false;
      const verdict = await classifier.run($, s.root, (classify) => {
        wantsReply = false;
        return classify(e.text, {
          previousReply: () => {
            wantsReply = true;
            return null;
          },
        });
      });
      capturedTurn.delete(s.id);
      if (!wantsReply && rowKind(verdict) === null) return next(e);
      const payload = { session_id: s.id, transcript_path: s.transcriptPath, cwd: s.cwd, prompt: e.text, hook_event_name: "UserPromptSubmit" };
      const r = await $.run([...s.errata, "hook", "user-prompt-submit"], { stdin: JSON.stringify(payload), cwd: s.cwd });
      if (r.stderr.trim() !== "") $.log(`errata mod: capture: ${r.stderr.trim()}`);
      const line = r.stdout.trim();
      if (line === "") return next(e);
      capturedTurn.add(s.id);
      return next({ ...e, context: [...(e.context ?? []), line] });
    }),

    turnComplete: guard("turn.complete", async ($, e, next) => {
      if (e.agentId !== undefined || e.reason !== "answer" || typeof e.answer !== "string" || e.answer === "") return next(e);
      const s = await sessionOf($);
      if (s.standDown.capture) return next(e);
      if (capturedTurn.has(s.id) || s.transcriptPath === null) {
        // The reflection sorts a captured prompt; a session without a transcript keeps a cleared text: the hook's code for both.
        capturedTurn.delete(s.id);
        const payload = { session_id: s.id, transcript_path: s.transcriptPath, cwd: s.cwd, last_assistant_message: e.answer, hook_event_name: "Stop" };
        background($, "stop", [...s.errata, "hook", "stop"], JSON.stringify(payload), s.cwd);
      } else {
        // The record is written beside the rest of the chain; the event settles once both are done.
        const dir = `${resolvePaths(s.env, s.cwd).stateDir}/hook`;
        const written = $.write(`${dir}/${lastReplyFileName(s.id)}`, withheldReplyRecord(s.id, new Date(now()).toISOString(), null, null));
        written.catch(() => undefined); // awaited below; a failure is the guard's to log
        const r = await next(e);
        await written;
        return r;
      }
      return next(e);
    }),

    toolCheck: guard("tool.check", async ($, e, next) => {
      if (e.agentId !== undefined || typeof e.input !== "object" || e.input === null || Array.isArray(e.input)) return next(e);
      const s = await sessionOf($);
      if (s.standDown.tools) return next(e);
      const d = await decide($, s, e.tool, e.input as Record<string, unknown>, e.tool_use_id);
      if (d === null || d.decision === null || d.decision === "allow") return next(e);
      // deny: the reason is the model's error; ask: the owner is asked (a rewrite that asks shows its reason).
      return { decision: d.decision, reason: d.reason ?? "" };
    }),

    toolCall: guard("tool.call", async ($, e, next) => {
      if (e.agentId !== undefined) return next(e);
      const s = await sessionOf($);
      if (s.standDown.tools) return next(e);
      const { tool, tool_use_id: id, agentId: _a, requestMeta: _m, ...input } = e;
      const d = await decide($, s, tool, input, id);
      if (d === null) return next(e);
      const r = await next(d.updatedInput !== null && d.decision !== "deny" ? { ...e, ...d.updatedInput } : e);
      if (d.additionalContext === null || "deny" in r || r.isError === true) return r;
      return { ...r, context: [...(r.context ?? []), d.additionalContext] };
    }),

    promptContext: guard("prompt.context", async ($, e, next) => {
      const files = e.instructionFiles ?? [];
      if (files.length === 0) return next(e);
      const s = await sessionOf($);
      const out = withholdFromContext(e, await linesHeldOut($, s), recordWithheld($, s));
      if (s.standDown.instructions) return next(out);
      for (const f of files) {
        const memoryType = KIND_TO_MEMORY_TYPE[f.kind];
        const key = `${s.id}\u0000${f.path}`;
        if (memoryType === undefined || recorded.has(key)) continue;
        recorded.add(key);
        const payload: Record<string, unknown> = { session_id: s.id, cwd: s.cwd, hook_event_name: "InstructionsLoaded", file_path: f.path, memory_type: memoryType, load_reason: f.parent ? "include" : "session_start" };
        if (f.parent) payload["parent_file_path"] = f.parent;
        background($, "instructions-loaded", [...s.toolHook, "instructions-loaded"], JSON.stringify(payload), s.cwd);
      }
      return next(out);
    }),

    promptAttachment: guard("prompt.attachment", async ($, e, next) => {
      if (e.type !== "nested_memory" || typeof e.text !== "string") return next(e);
      const s = await sessionOf($);
      const text = withholdFromAttachment(await linesHeldOut($, s), e.text, recordWithheld($, s));
      return next(text === null ? e : { ...e, text });
    }),

    sessionStart: guard("session.start", async ($, e, next) => {
      // The session's look-up and the classifier (its files read at once) before any prompt; the command listed beside.
      const warmed = warm($);
      const listed = $.registerCommand({ name: "errata", description: "Errata: the owner's pane, the morning report, the approval table, approve / reject / undo a proposal", argumentHint: "pane | report | approvals | approve ID | reject ID [why] | undo ID" });
      listed.catch(() => undefined); // awaited below; a failure is the guard's to log
      await warmed;
      const r = await next(e);
      await listed;
      return r;
    }),

    commandRun: guard("command.run", async ($, e, next) => {
      if (e.command !== "errata") return next(e);
      return pane.command($, await sessionOf($), e.args ?? "");
    }),

    uiRender: guard("ui.render", async ($, e, next) => {
      if (e.requestId !== PANE_ID) return next(e);
      return pane.render($, await sessionOf($), e);
    }),
  };
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * A handler that never breaks the event: a fault is logged and the event passes on, unchanged,
 * through `next` (or, when the fault came after `next` was called, with what `next` resolved to).
 */
export function guard<E, R>(event: string, hook: ($: ModApi, e: E, next: Next<E, R>) => Promise<R>): ($: ModApi, e: E, next: Next<E, R>) => Promise<R> {
  return async ($, e, next) => {
    let passed: Promise<R> | null = null;
    const once: Next<E, R> = (x) => (passed ??= next(x));
    try {
      return await hook($, e, once);
    } catch (err) {
      try {
        $.log(`errata mod: ${event} fault (${message(err)}); the event passes on unchanged`);
      } catch {
        /* a log that fails changes nothing */
      }
      return passed ?? next(e);
    }
  };
}
