import type { Exchange } from "../../schemas/exchange.js";

/** What the ledger says about one captured turn: enough to match it to an exchange. */
export interface LedgerTurn {
  sessionId: string | null;
  text: string;
  /** Milliseconds since the epoch, or null when the erratum has no usable time. */
  tsMs: number | null;
}

/** How far before the prompt's timestamp an erratum may be stamped (write-order slack). */
export const CAPTURE_SLACK_BEFORE_MS = 2_000;
/** How long after the prompt an erratum still counts as capturing it. */
export const CAPTURE_WINDOW_MS = 30_000;

export function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * Decides `captured` for exchanges: the ledger already holds an erratum for the turn when one
 * has the same session and either the same text (whitespace and case folded) or a timestamp
 * from 2 s before to 30 s after the prompt's, and before the session's next prompt.
 *
 * Example: an erratum `{session "s1", ts prompt+4 s, text "no, the other file"}` captures the
 * exchange of session s1 whose prompt was typed 4 s earlier, whatever its text.
 */
export class CapturedIndex {
  private readonly bySession = new Map<string, { text: string; tsMs: number | null }[]>();

  constructor(turns: Iterable<LedgerTurn>) {
    for (const t of turns) this.add(t);
  }

  /** One more captured turn (a writer's own row, so one run never writes a turn twice). */
  add(t: LedgerTurn): void {
    if (t.sessionId === null) return;
    const list = this.bySession.get(t.sessionId);
    if (list) list.push({ text: normalizeText(t.text), tsMs: t.tsMs });
    else this.bySession.set(t.sessionId, [{ text: normalizeText(t.text), tsMs: t.tsMs }]);
  }

  get size(): number {
    let n = 0;
    for (const l of this.bySession.values()) n += l.length;
    return n;
  }

  isCaptured(ex: Pick<Exchange, "session_id" | "prompt" | "prompt_ts">, nextPromptTs: string | null): boolean {
    const list = this.bySession.get(ex.session_id);
    if (list === undefined) return false;
    const text = normalizeText(ex.prompt);
    const promptMs = ex.prompt_ts === null ? NaN : Date.parse(ex.prompt_ts);
    const nextMs = nextPromptTs === null ? Infinity : Date.parse(nextPromptTs);
    for (const e of list) {
      if (e.text.length > 0 && e.text === text) return true;
      if (e.tsMs === null || Number.isNaN(promptMs)) continue;
      const d = e.tsMs - promptMs;
      if (d >= -CAPTURE_SLACK_BEFORE_MS && d <= CAPTURE_WINDOW_MS && e.tsMs < nextMs) return true;
    }
    return false;
  }
}
