/**
 * The owner's signals, ranked strongest first (the seed's order): an explicit "that was
 * wrong" (`explicit`); the owner refusing a tool call in the permission dialog (`rejected`:
 * the transcript's own mark of the owner's no, transcript-turns.ts; a check's deny is not
 * one); a correction in the next message (`correction`: the capture
 * classifier's correction or standing directive); the owner undoing the agent's work
 * (`undo`: a request to revert, or the transcript's tool calls undoing the last ones: a git
 * revert/restore/reset, a deleted file the agent wrote, an edit that inverts the last edit);
 * praise (`praise`, not an incident); a scheduled job's outcome (`job`, from receipts).
 *
 * Only text the owner typed counts. Text from a tool result, a fetched web page, another
 * agent or the system never becomes a signal, whatever it says ("that was wrong, never use
 * npm" inside a fetched page is data, not the owner): `origin` must be "typed". The
 * transcript reader already drops such lines (runtime/transcripts typedPromptVerdict); this
 * is the second wall, for turns built from elsewhere.
 *
 * Example: signalOf({origin: "typed", text: "No, that's wrong. Use pnpm.", ...}) ->
 * {signal: "explicit", severity: 2, strength: 0}; with origin "web" -> {signal: null, why: "not typed by the owner (web)"}.
 */
import { classify } from "../classifier/index.js";
import { SIGNALS, type Signal } from "../../schemas/rule-ledger.js";

export type Origin = "typed" | "tool_result" | "web" | "agent" | "system";

export interface ToolUseLite {
  name: string;
  input: Record<string, unknown>;
}

/** One turn of the owner's, with what came before and after it. */
export interface OwnerTurn {
  exchange_id: string;
  session_id: string;
  ts: string;
  origin: Origin;
  text: string;
  /** The assistant's reply the turn answers. */
  reply_before: string | null;
  /** The tool calls of that reply. */
  tools_before: readonly ToolUseLite[];
  /** The tool calls that answered this turn (an undo shows here). */
  tools_after: readonly ToolUseLite[];
  /** The session's working folder (the transcript's `cwd`): which project's rules the turn can name. */
  cwd?: string | null;
  /** The calls the owner refused in the permission dialog (transcript-turns.ts): the turn is that refusal, `text` the owner's words. */
  rejected?: readonly ToolUseLite[];
}

export type SignalReading = { signal: Signal; strength: number; severity: 1 | 2 | 3; evidence: string[] } | { signal: null; why: string };

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const GIT_UNDO = /\bgit\s+(revert|restore|reset\s+--hard|checkout\s+--\s)/i;

/**
 * Whether the calls after undo the calls before: an Edit of the same file whose old and new
 * strings are the last edit's swapped, a git revert/restore/reset --hard/checkout --, or an
 * `rm` of a file the agent wrote. Returns what undid what.
 */
export function undoEvidence(before: readonly ToolUseLite[], after: readonly ToolUseLite[]): string[] {
  const out: string[] = [];
  const written = new Set(before.filter((t) => t.name === "Write").map((t) => str(t.input["file_path"])).filter((p): p is string => p !== null));
  const edits = before.filter((t) => t.name === "Edit");
  for (const t of after) {
    if (t.name === "Edit") {
      const f = str(t.input["file_path"]);
      const inverse = edits.find((e) => str(e.input["file_path"]) === f && str(e.input["new_string"]) === str(t.input["old_string"]) && str(e.input["old_string"]) === str(t.input["new_string"]));
      if (inverse) out.push(`edit of ${f} inverts the previous edit`);
    } else if (t.name === "Bash") {
      const cmd = str(t.input["command"]) ?? "";
      if (GIT_UNDO.test(cmd)) out.push(`git undo: ${cmd.slice(0, 80)}`);
      const rm = /\brm\s+(?:-\w+\s+)*(.+)$/.exec(cmd);
      if (rm) for (const p of rm[1]!.split(/\s+/)) if (written.has(p)) out.push(`deleted ${p}, which the agent wrote`);
    }
  }
  return out;
}

const strength = (s: Signal): number => SIGNALS.indexOf(s);

/** The strongest signal in one turn, or why there is none. */
export function signalOf(turn: OwnerTurn): SignalReading {
  if (turn.origin !== "typed") return { signal: null, why: `not typed by the owner (${turn.origin}): text from a tool result, a web page or another agent never counts` };
  const verdict = classify(turn.text, { previousReply: turn.reply_before });
  const undo = undoEvidence(turn.tools_before, turn.tools_after);
  if (turn.rejected !== undefined && turn.rejected.length > 0) {
    const refused = turn.rejected.map((t) => `refused in the permission dialog: ${t.name} ${JSON.stringify(String(t.input["command"] ?? t.input["file_path"] ?? "")).slice(0, 80)}`);
    // With words that say it was wrong it is explicit; otherwise the refusal itself.
    if (verdict.kind === "correction" && verdict.signals.some((s) => /wrong|no_strong/.test(s))) return { signal: "explicit", strength: strength("explicit"), severity: 3, evidence: [...verdict.signals, ...refused] };
    const said = turn.text.trim() === "" ? [] : verdict.signals;
    return { signal: "rejected", strength: strength("rejected"), severity: (verdict.frustration ?? 0) >= 2 ? 3 : 2, evidence: [...said, ...refused] };
  }
  const asksUndo = verdict.signals.some((s) => s.endsWith(".undo"));
  const frustrated = (verdict.frustration ?? 0) >= 2;
  if (verdict.kind === "correction" && verdict.signals.some((s) => /wrong|no_strong/.test(s))) {
    return { signal: "explicit", strength: strength("explicit"), severity: frustrated || undo.length > 0 ? 3 : 2, evidence: [...verdict.signals, ...undo] };
  }
  if (verdict.kind === "correction" && !asksUndo) return { signal: "correction", strength: strength("correction"), severity: frustrated ? 2 : 1, evidence: verdict.signals };
  if (verdict.kind === "directive") return { signal: "correction", strength: strength("correction"), severity: 1, evidence: verdict.signals };
  if (undo.length > 0 || asksUndo) return { signal: "undo", strength: strength("undo"), severity: 3, evidence: [...verdict.signals, ...undo] };
  if (verdict.kind === "praise" || (verdict.kind === "rating" && (verdict.rating ?? 0) >= 7)) return { signal: "praise", strength: strength("praise"), severity: 1, evidence: verdict.signals };
  return { signal: null, why: "no correction, undo or praise in the turn" };
}

/**
 * "Again", "I told you", "you didn't", "still" in the capture's languages (and Dutch, Italian, Swedish, Chinese and
 * Japanese): the owner says the reply broke something said before. A restatement marker
 * alone ("as I said", "remember") is not one: it is as often said of a reply that kept the
 * rule, so only a witness can make it an incident.
 */
const REPEAT: RegExp =
  /\b(again|i told you|told you (already|before)|i already (told|said|asked)|how many times|you didn'?t|you did not|you forgot|you still|still (not|doesn'?t|isn'?t|wrong)|once more|wieder|schon wieder|nochmal|noch einmal|ich habe (dir )?(doch )?gesagt|du hast nicht|encore|je t'ai (déjà )?dit|tu n'as pas|otra vez|de nuevo|ya te dije|te dije|no has|outra vez|de novo|eu já disse|já te disse|você não|taas|uudestaan|jälleen|sanoin jo|et (taaskaan )?(tehnyt|ajanut)|снова|опять|я же говорил|ты не|weer|alweer|opnieuw|ik zei (het )?(toch|al)|je hebt (het )?niet|di nuovo|ancora una volta|te l'ho (già )?detto|non hai|igen|jag sa ju|du har inte)\b|又|再次|我说过|我已经说|告诉过你|你没有|没有跑|また|言ったでしょ|言ったのに|또 |또다시|다시|말했잖아|말했는데|했잖아|안 했|않았/iu;

export function repeatMarker(text: string): string | null {
  const m = REPEAT.exec(text);
  return m === null ? null : m[0];
}
