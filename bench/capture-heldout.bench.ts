/**
 * `node dist/bench/run.js capture-heldout`: the capture on its held-out set (see
 * capture-heldout-data.ts): per language and split, how many items, positives (corrections
 * and directives), flagged, precision and recall of "writes a correction or directive row",
 * positives of the right kind, and repeats marked; then the typed prompts of the real and
 * the fixture-written Claude Code sessions, with every flagged or missed prompt listed.
 */
import { classify } from "../runtime/classifier/classify.js";
import { scoreHeldout, textKey, transcriptItems, writtenItems, type HeldoutScore } from "./capture-heldout-data.js";

const f = (x: number | null): string => (x === null ? "n/a" : x.toFixed(2));
const line = (key: string, s: HeldoutScore): string =>
  `${key.padEnd(28)} ${String(s.items).padStart(4)} items ${String(s.positives).padStart(3)} pos ${String(s.flagged).padStart(3)} flagged  P ${f(s.precision)}  R ${f(s.recall)}  kind ${s.kindRight}/${s.positives}  repeat ${s.repeatsMarked}/${s.repeats}`;

export async function run(): Promise<void> {
  const written = writtenItems();
  const fromTranscripts = (await transcriptItems()) ?? [];
  if (fromTranscripts.length === 0) process.stdout.write("claude-transcripts: not found under ../shared/datasets (set ERRATA_SHARED_DATASETS); written items only\n");
  const items = [...written, ...fromTranscripts];
  const verdicts = items.map((i) => classify(i.text, { previousReply: i.reply }));
  const scores = scoreHeldout(items, verdicts);
  for (const key of [...scores.keys()].sort()) process.stdout.write(`${line(key, scores.get(key)!)}\n`);
  items.forEach((item, i) => {
    const v = verdicts[i]!;
    const flagged = v.kind === "correction" || v.kind === "directive";
    if (!item.set.startsWith("transcripts:") || flagged === (item.kind !== "none")) return;
    process.stdout.write(`  ${flagged ? "FP" : "FN"} ${item.set} ${textKey(item.text)} ${v.kind} ${JSON.stringify(item.text.slice(0, 100))}\n`);
  });
}
