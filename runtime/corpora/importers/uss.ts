import { basename } from "node:path";
import type { Exchange } from "../../../schemas/exchange.js";
import { DETECT_UNHAPPY, type Label } from "../../../schemas/label.js";
import { badInput } from "../../../core/errors.js";
import { exchangeId } from "../../transcripts/index.js";
import { corpusExchange, label, UNHAPPY_MAX_RATING, type ImportResult } from "../rows/rows.js";

/** "uss-sgd" for SGD.txt, "uss-mwoz" for MWOZ.txt, "uss-<name>" otherwise. */
export function ussCorpusName(path: string): string {
  return `uss-${basename(path).replace(/\.[^.]*$/, "").toLowerCase()}`;
}

/**
 * USS (User Satisfaction Simulation, Sun et al. SIGIR 2021) text files: `role \t text \t action
 * \t r1,r2,...` a line, a blank line between dialogues, each dialogue ending with
 * `USER \t OVERALL \t \t ratings`. No licence is stated: read from a path the user gives, never
 * bundled, nothing derived from it committed.
 *
 * One exchange per USER turn (OVERALL rows excluded): prompt = the user text, reply_end = the
 * latest SYSTEM line before it (null for the first turn), previous_ask = the user turn before
 * that. Labels per rating column ("<corpus>:c1".., a column is not a fixed person):
 * "satisfaction" (1-5) and "detect.unhappy" (rating <= 2). Session = "<corpus>-<n>" (n from 1).
 *
 * Example: SGD.txt → 1,000 dialogues, 12,833 exchanges; 647 turns have 2 of their first 3
 * ratings <= 2.
 */
export function importUss(text: string, corpus: string, sourceName: string): ImportResult {
  const exchanges: Exchange[] = [];
  const labels: Label[] = [];
  const notes: string[] = [];
  let dialogue = 0;
  let inDialogue = false;
  let lastSystem: string | null = null;
  let lastUser: string | null = null;
  let askBeforeSystem: string | null = null;
  let userTurn = 0;
  let overall = 0;
  let badLines = 0;
  let maxRaters = 0;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === "") {
      inDialogue = false;
      return;
    }
    if (!inDialogue) {
      inDialogue = true;
      dialogue++;
      lastSystem = null;
      lastUser = null;
      askBeforeSystem = null;
      userTurn = 0;
    }
    const cols = line.split("\t");
    const role = (cols[0] ?? "").trim();
    const utterance = (cols[1] ?? "").trim();
    if (role === "SYSTEM") {
      lastSystem = utterance;
      askBeforeSystem = lastUser;
      return;
    }
    if (role !== "USER") {
      badLines++;
      return;
    }
    if (utterance === "OVERALL") {
      overall++;
      return;
    }
    const ratings = (cols[3] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "")
      .map(Number);
    if (ratings.length === 0 || ratings.some((r) => !Number.isInteger(r) || r < 1 || r > 5)) {
      badLines++;
      return;
    }
    const session = `${corpus}-${dialogue}`;
    const id = exchangeId(corpus, session, `turn:${userTurn}`);
    exchanges.push(
      corpusExchange({
        id,
        corpus,
        session_id: session,
        turn: userTurn,
        prompt: utterance,
        reply_end: lastSystem,
        previous_ask: lastSystem === null ? null : askBeforeSystem,
        source_ref: `${sourceName}:${i + 1}`,
      }),
    );
    maxRaters = Math.max(maxRaters, ratings.length);
    ratings.forEach((r, k) => {
      labels.push(label(id, `${corpus}:c${k + 1}`, "satisfaction", r, `import:uss`));
      labels.push(label(id, `${corpus}:c${k + 1}`, DETECT_UNHAPPY, r <= UNHAPPY_MAX_RATING, `import:uss`));
    });
    lastUser = utterance;
    userTurn++;
  });
  if (exchanges.length === 0) throw badInput(`${sourceName} holds no USS user turns`, "lines `USER \\t text \\t action \\t r1,r2,...`", "none");
  if (badLines > 0) notes.push(`${badLines} lines with an unknown role or unreadable ratings skipped`);
  const firstThreeUnhappy = countFirstThreeUnhappy(labels);
  return {
    corpus,
    exchanges,
    labels,
    stats: { dialogues: dialogue, exchanges: exchanges.length, labels: labels.length, overallRows: overall, maxRaters, twoOfFirstThreeUnhappy: firstThreeUnhappy, badLines },
    notes,
  };
}

/** Items where at least 2 of the first 3 raters said unhappy (the three-labeller convention). */
export function countFirstThreeUnhappy(labels: readonly Label[]): number {
  const votes = new Map<string, boolean[]>();
  for (const l of labels) {
    if (l.question !== DETECT_UNHAPPY) continue;
    const list = votes.get(l.exchange_id) ?? [];
    list.push(l.value === true);
    votes.set(l.exchange_id, list);
  }
  let n = 0;
  for (const v of votes.values()) if (v.slice(0, 3).filter(Boolean).length >= 2) n++;
  return n;
}
