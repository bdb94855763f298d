/**
 * AB-ReDial as plain files for the CLI tests: exchange/1 rows (one per rated turn: the
 * system utterance as reply_end, the user's next utterance as prompt) and label/1 rows per
 * positional rater (r1..r4 in file order within an excerpt) for "satisfaction" (1-5) and
 * "detect.unhappy" (rating <= 2). Built from the raw CSV by the tests' own reader, so the
 * CLI can be driven end to end before (and independently of) the bundled conversion.
 */
import { fnv1a32 } from "../../eval/prng.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { Label } from "../../schemas/label.js";
import { abRedialExcerpts, hasAbRedial } from "./datasets.js";

const hex = (n: number): string => n.toString(16).padStart(8, "0");
export const exchangeId = (session: string, turn: number): string => `ex-${hex(fnv1a32(`ab:${session}:${turn}`))}${hex(fnv1a32(`ab2:${session}:${turn}`))}`;
const strip = (s: string | undefined): string => (s ?? "").replace(/^(SYSTEM|USER)[\t\u2003 ]*/, "");

export interface AbFiles {
  exchanges: Exchange[];
  labels: Label[];
  /** Per exchange id, the ratings by positional rater (r1..r4), null where missing. */
  ratings: Map<string, (number | null)[]>;
}

export function abRedialFiles(): AbFiles {
  // Suites using these files are skipped without the shared data, but vitest still collects
  // their bodies: give them nothing to read rather than a crash.
  if (!hasAbRedial) return { exchanges: [], labels: [], ratings: new Map() };
  const groups = abRedialExcerpts();
  const seen = new Map<string, number>();
  const exchanges: Exchange[] = [];
  const labels: Label[] = [];
  const ratings = new Map<string, (number | null)[]>();
  for (const rows of groups.values()) {
    const first = rows[0] as Record<string, string>;
    const conv = first["ConvId"] ?? "";
    const n = (seen.get(conv) ?? 0) + 1;
    seen.set(conv, n);
    const session = n === 1 ? conv : `${conv}#${n}`;
    for (let k = 1; k <= 3; k++) {
      const id = exchangeId(session, k);
      exchanges.push({
        schema: "exchange/1", id, corpus: "ab-redial", session_id: session, turn: k - 1,
        prompt: strip(first[`utterance${4 * (k - 1) + 3}`]), prompt_ts: null,
        reply_end: strip(first[`utterance${4 * (k - 1) + 2}`]), reply_ts: null,
        previous_ask: strip(first[`utterance${4 * (k - 1) + 1}`]) || null, tool_calls: [],
        cwd: null, version: null, model: null, captured: false, synthetic: false, source_ref: `annotated_turns.csv ConvId ${conv}`,
      });
      const rs = rows.map((r) => {
        const t = (r[`overall${k}`] ?? "").trim();
        return t === "" ? null : Number(t);
      });
      ratings.set(id, rs);
      rs.forEach((v, r) => {
        if (v === null) return;
        const labeler = `r${r + 1}`;
        labels.push({ schema: "label/1", exchange_id: id, labeler, question: "satisfaction", value: v, origin: "import:test-ab-redial" });
        labels.push({ schema: "label/1", exchange_id: id, labeler, question: "detect.unhappy", value: v <= 2, origin: "import:test-ab-redial" });
      });
    }
  }
  return { exchanges, labels, ratings };
}
