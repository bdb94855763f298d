import { readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";
import { badInput } from "../../../core/errors.js";
import { exchangeId } from "../../transcripts/index.js";
import { corpusExchange, label, type ImportResult } from "../rows/rows.js";

export const UKP_CORPUS = "ukp";
const ERROR_TYPE = /^E(?:[1-9]|10)$/;
const RESPONSE_TYPE = /^UR[1-5]$/;

interface UkpDialog {
  unique_id?: unknown;
  id?: unknown;
  turns?: unknown;
  annotations?: unknown;
  correction?: unknown;
  corrections?: unknown;
}

type UkpTurn = { utterance?: unknown; response?: unknown };

const norm = (t: unknown): string => (typeof t === "string" ? t.trim().toLowerCase() : "");

/**
 * The turn of a dialog whose annotations carry no turn (the Self-Feeding dialogs): the
 * filter's own `correction.turn` when given, else the utterance equal to the matched phrase,
 * else the last user utterance (Self-Feeding dialogs end with the feedback).
 */
function flatTurn(d: UkpDialog, turns: UkpTurn[]): number {
  const raw = d.correction ?? d.corrections;
  const c = (Array.isArray(raw) ? raw[0] : raw) as { turn?: unknown; phrase?: unknown } | undefined;
  if (c !== undefined && typeof c.turn === "number") return c.turn;
  const phrase = c !== undefined && Array.isArray(c.phrase) ? norm(c.phrase[c.phrase.length - 1]) : "";
  if (phrase !== "") {
    const i = turns.findIndex((t) => norm(t.utterance) === phrase);
    if (i >= 0) return i;
  }
  return turns.length - 1;
}

function listJson(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".json")) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The UKP free-text feedback data (Petrak et al., EMNLP 2023, Apache-2.0): dialogs from six
 * corpora in which turns with free-text user feedback were annotated with the error type of
 * the system turn (E1-E10: ignore question, ignore request, ignore expectation, attribute
 * error, factually incorrect, topic transition, conversationality, unclear intention, lack of
 * sociality, lack of common sense) and the type of the user's response (UR1-UR5: ignore and
 * continue, repeat or rephrase, make aware without correction, make aware with correction,
 * ask for clarification).
 *
 * Reads `filtered_dialogs/<source>/{checked,unchecked}/*.json` under the given folder (the
 * `data/analysis` folder or the repository root). An annotation `{turn: t, annotation: [..]}`
 * names the user utterance t (the feedback); the erroneous system turn is the response of
 * turn t-1. One exchange per annotated turn: prompt = utterance t, reply_end = response t-1,
 * previous_ask = utterance t-1. Each of the (up to three) annotation slots is one labeller
 * ("ukp:a1".."ukp:a3", slots as released; the data names no annotators; Self-Feeding dialogs
 * carry the slots without a turn, placed by the filter's matched phrase); labels
 * "ukp.error_type" and "ukp.user_response_type", written only for valid codes (other codes,
 * e.g. "B5" or "I1", are counted and skipped). `random_dialogs` use six other per-source
 * layouts and are not read.
 *
 * Example: the shared copy → 552 dialogs, 805 annotated turns, error type labels E1..E10.
 */
export function importUkp(root: string): ImportResult {
  const candidates = [join(root, "filtered_dialogs"), join(root, "analysis", "filtered_dialogs"), join(root, "data", "analysis", "filtered_dialogs")];
  let base: string | null = null;
  for (const c of candidates) {
    try {
      readdirSync(c);
      base = c;
      break;
    } catch {
      // try the next layout
    }
  }
  if (base === null) throw badInput("no UKP filtered_dialogs folder", "data/analysis/filtered_dialogs under the given path", root);
  const exchanges: Exchange[] = [];
  const labels: Label[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  let dialogs = 0;
  let skippedCodes = 0;
  let badTurns = 0;
  for (const file of listJson(base)) {
    const rel = relative(base, file).split(sep).join("/");
    const [source, checked] = rel.split("/");
    let d: UkpDialog;
    try {
      d = JSON.parse(readFileSync(file, "utf8")) as UkpDialog;
    } catch {
      notes.push(`${rel}: not JSON; skipped`);
      continue;
    }
    dialogs++;
    const turns = Array.isArray(d.turns) ? (d.turns as UkpTurn[]) : [];
    const session = `${source}/${checked}/${typeof d.unique_id === "string" ? d.unique_id : rel}`;
    const raw = Array.isArray(d.annotations) ? (d.annotations as Record<string, unknown>[]) : [];
    // Two layouts: [{turn, annotation: [slot, slot, slot]}, ...] or, for Self-Feeding, the
    // slots themselves with no turn.
    const flat = raw.length > 0 && raw.every((a) => a["annotation"] === undefined && a["turn"] === undefined);
    const groups = flat ? [{ turn: flatTurn(d, turns), annotation: raw }] : raw;
    for (const a of groups) {
      const t = typeof a["turn"] === "number" ? a["turn"] : Number(a["turn"]);
      const slots = Array.isArray(a["annotation"]) ? (a["annotation"] as Record<string, unknown>[]) : [a];
      if (!Number.isInteger(t) || t < 1 || t >= turns.length) {
        badTurns++;
        continue;
      }
      const id = exchangeId(UKP_CORPUS, session, `turn:${t}`);
      if (!seen.has(id)) {
        seen.add(id);
        const prev = turns[t - 1];
        exchanges.push(
          corpusExchange({
            id,
            corpus: UKP_CORPUS,
            session_id: session,
            turn: t,
            prompt: typeof turns[t]?.utterance === "string" ? (turns[t]?.utterance as string) : "",
            reply_end: typeof prev?.response === "string" ? prev.response : null,
            previous_ask: typeof prev?.utterance === "string" ? prev.utterance : null,
            source_ref: `filtered_dialogs/${rel} turn ${t}`,
          }),
        );
      }
      slots.forEach((s, k) => {
        const rater = `ukp:a${k + 1}`;
        const et = typeof s["error_type"] === "string" ? s["error_type"].trim() : "";
        const ur = typeof s["user_reaction"] === "string" ? s["user_reaction"].trim() : "";
        if (ERROR_TYPE.test(et)) labels.push(label(id, rater, "ukp.error_type", et, "import:ukp"));
        else if (et !== "" && et !== "-") skippedCodes++;
        if (RESPONSE_TYPE.test(ur)) labels.push(label(id, rater, "ukp.user_response_type", ur, "import:ukp"));
        else if (ur !== "" && ur !== "-") skippedCodes++;
      });
    }
  }
  if (skippedCodes > 0) notes.push(`${skippedCodes} codes outside E1-E10 / UR1-UR5 skipped`);
  if (badTurns > 0) notes.push(`${badTurns} annotations name turn 0 (no system turn before it) or a turn past the end; skipped`);
  return {
    corpus: UKP_CORPUS,
    exchanges,
    labels,
    stats: {
      dialogs,
      exchanges: exchanges.length,
      labels: labels.length,
      errorTypeLabels: labels.filter((l) => l.question === "ukp.error_type").length,
      responseTypeLabels: labels.filter((l) => l.question === "ukp.user_response_type").length,
      skippedCodes,
      badTurns,
    },
    notes,
  };
}
