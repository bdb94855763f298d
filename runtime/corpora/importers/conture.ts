import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";
import { badInput } from "../../../core/errors.js";
import { exchangeId } from "../../transcripts/index.js";
import { corpusExchange, label, type ImportResult } from "../rows/rows.js";

export const CONTURE_CORPUS = "conture";

function strip(text: unknown, prefix: string): string {
  const t = typeof text === "string" ? text : "";
  return (t.startsWith(prefix) ? t.slice(prefix.length) : t).trim();
}

/**
 * ConTurE (Amazon, CC BY 4.0; turns of DSTC9's interactive track): each chatbot turn was rated
 * 0 dislike / 1 kind of like / 2 like by three MTurk workers, released only as the majority
 * (expert tie-break). One exchange per chatbot turn: `reply_end` = the chatbot's response,
 * `prompt` = the user's next utterance (their reaction; "" after the last turn),
 * `previous_ask` = the user utterance it answered. Label: "impression" (0-2), labeller
 * "conture:majority" (no per-rater labels exist, so no agreement can be computed).
 *
 * Example: data/data.json → 119 dialogues, 1,066 exchanges, 1,066 labels (501 like, 237 kind of like, 328 dislike).
 */
export function importConture(jsonText: string, sourceName = "data/data.json"): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(jsonText);
  } catch {
    throw badInput(`${sourceName} is not JSON`, "ConTurE data/data.json", "unparseable text");
  }
  if (!Array.isArray(data)) throw badInput(`${sourceName} is not ConTurE data`, "a JSON array of dialogs", typeof data);
  const exchanges: Exchange[] = [];
  const labels: Label[] = [];
  let missing = 0;
  data.forEach((dialog: { dialog_id?: unknown; turns?: unknown }, d) => {
    const turns = Array.isArray(dialog.turns) ? (dialog.turns as Record<string, unknown>[]) : [];
    const session = `conture-${typeof dialog.dialog_id === "number" || typeof dialog.dialog_id === "string" ? dialog.dialog_id : d}`;
    turns.forEach((t, i) => {
      const id = exchangeId(CONTURE_CORPUS, session, `turn:${i}`);
      exchanges.push(
        corpusExchange({
          id,
          corpus: CONTURE_CORPUS,
          session_id: session,
          turn: i + 1,
          prompt: strip(turns[i + 1]?.["user"], "User:"),
          reply_end: strip(t["chatbot"], "Chatbot:"),
          previous_ask: strip(t["user"], "User:"),
          source_ref: `${sourceName} dialog ${d} turn ${i}`,
        }),
      );
      const v = t["overall impression"];
      if (typeof v === "number" && Number.isFinite(v)) labels.push(label(id, "conture:majority", "impression", v, "import:conture"));
      else missing++;
    });
  });
  return {
    corpus: CONTURE_CORPUS,
    exchanges,
    labels,
    stats: {
      dialogues: data.length,
      exchanges: exchanges.length,
      labels: labels.length,
      like: labels.filter((l) => l.value === 2).length,
      kindOfLike: labels.filter((l) => l.value === 1).length,
      dislike: labels.filter((l) => l.value === 0).length,
      missingLabels: missing,
    },
    notes: missing > 0 ? [`${missing} turns without an overall impression`] : [],
  };
}
