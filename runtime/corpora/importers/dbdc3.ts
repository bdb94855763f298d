import { strFromU8, unzipSync } from "fflate";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Label } from "../../../schemas/label.js";
import { badInput } from "../../../core/errors.js";
import { exchangeId } from "../../transcripts/index.js";
import { corpusExchange, label, type ImportResult } from "../rows/rows.js";

export const DBDC3_CORPUS = "dbdc3";
/** The English revised annotations inside DBDC3.zip. */
export const DBDC3_PREFIX = "DBDC3/dbdc3_revised/en/";
const BREAKDOWN: ReadonlySet<string> = new Set(["O", "T", "X"]);

interface Turn {
  speaker?: unknown;
  utterance?: unknown;
  "turn-index"?: unknown;
  annotations?: unknown;
}

export interface Dbdc3Options {
  /** Keep only the first N dialogues (by file name) of each part (e.g. dev/CIC_115): a bundled sample. */
  perPart?: number;
}

/**
 * DBDC3 (Dialogue Breakdown Detection Challenge 3, MIT): `dbdc3_revised/en` inside the zip,
 * read in memory with fflate (nothing is unpacked to disk). Each annotated system utterance is
 * one item; its exchange has the system utterance as `reply_end`, the user's next utterance
 * (their reaction) as `prompt` ("" when the dialogue ends on the system), and the user's
 * utterance before it as `previous_ask`. Labels: "breakdown" O / T / X, one per annotation,
 * labeller = the CrowdFlower annotator id ("dbdc3:<id>"). Session = dialogue id.
 *
 * Example: the whole zip → 615 dialogues, 6,150 exchanges, 184,500 labels, 30 raters per item.
 */
export function importDbdc3(zip: Uint8Array, opts: Dbdc3Options = {}): ImportResult {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => f.name.startsWith(DBDC3_PREFIX) && f.name.endsWith(".json") });
  } catch (err) {
    throw badInput("not a readable zip", "DBDC3.zip", (err as Error).message);
  }
  const names = Object.keys(files).sort();
  if (names.length === 0) throw badInput("no DBDC3 English revised dialogues in the zip", `files under ${DBDC3_PREFIX}`, "none");
  const byPart = new Map<string, string[]>();
  for (const n of names) {
    const part = n.slice(DBDC3_PREFIX.length).split("/").slice(0, 2).join("/");
    byPart.set(part, [...(byPart.get(part) ?? []), n]);
  }
  const chosen = [...byPart.values()].flatMap((list) => (opts.perPart === undefined ? list : list.slice(0, opts.perPart)));
  const exchanges: Exchange[] = [];
  const labels: Label[] = [];
  const notes: string[] = [];
  const raters = new Set<string>();
  let perItemMin = Infinity;
  let perItemMax = 0;
  let noReaction = 0;
  let badLabels = 0;
  for (const name of chosen) {
    const file = files[name]!;
    let dialog: { "dialogue-id"?: unknown; turns?: unknown };
    try {
      dialog = JSON.parse(strFromU8(file)) as typeof dialog;
    } catch {
      notes.push(`${name}: not JSON; skipped`);
      continue;
    }
    const turns = Array.isArray(dialog.turns) ? (dialog.turns as Turn[]) : [];
    const base = name.slice(name.lastIndexOf("/") + 1).replace(/\.log\.json$/, "");
    const session = typeof dialog["dialogue-id"] === "string" && dialog["dialogue-id"] !== "" ? dialog["dialogue-id"] : base;
    const rel = name.slice("DBDC3/".length);
    turns.forEach((t, i) => {
      const anns = Array.isArray(t.annotations) ? (t.annotations as Record<string, unknown>[]) : [];
      if (t.speaker !== "S" || anns.length === 0) return;
      const next = turns[i + 1];
      const prev = turns[i - 1];
      const reaction = next?.speaker === "U" && typeof next.utterance === "string" ? next.utterance : null;
      if (reaction === null) noReaction++;
      const index = typeof t["turn-index"] === "number" ? t["turn-index"] : i;
      const id = exchangeId(DBDC3_CORPUS, session, `turn-index:${index}`);
      exchanges.push(
        corpusExchange({
          id,
          corpus: DBDC3_CORPUS,
          session_id: session,
          turn: index,
          prompt: reaction ?? "",
          reply_end: typeof t.utterance === "string" ? t.utterance : null,
          previous_ask: prev?.speaker === "U" && typeof prev.utterance === "string" ? prev.utterance : null,
          source_ref: `${rel} turn-index ${index}`,
        }),
      );
      perItemMin = Math.min(perItemMin, anns.length);
      perItemMax = Math.max(perItemMax, anns.length);
      for (const a of anns) {
        const who = typeof a["annotator-id"] === "string" ? a["annotator-id"] : "";
        const value = typeof a["breakdown"] === "string" ? a["breakdown"] : "";
        if (who === "" || !BREAKDOWN.has(value)) {
          badLabels++;
          continue;
        }
        raters.add(who);
        labels.push(label(id, `dbdc3:${who}`, "breakdown", value, "import:dbdc3"));
      }
    });
  }
  if (badLabels > 0) notes.push(`${badLabels} annotations without an annotator id or an O/T/X label were skipped`);
  return {
    corpus: DBDC3_CORPUS,
    exchanges,
    labels,
    stats: {
      dialogues: chosen.length,
      dialoguesInZip: names.length,
      exchanges: exchanges.length,
      labels: labels.length,
      raters: raters.size,
      ratersPerItemMin: exchanges.length === 0 ? 0 : perItemMin,
      ratersPerItemMax: perItemMax,
      itemsWithoutReaction: noReaction,
      skippedAnnotations: badLabels,
    },
    notes,
  };
}
