/**
 * `node dist/bench/run.js capture-quality`: the capture classifier as a detector of "the
 * person is unhappy with the previous reply" on AB-ReDial and, where present locally, USS
 * SGD and MWOZ (never committed). Two readings of the verdict:
 * - ledger: what the hook writes a row for (a correction, or a rating below 7);
 * - detector: `unhappyWithReply` (also dismay such as "that's too bad" and a "no" that turns
 *   down an offer the reply made), the regex baseline judges are scored against.
 * The LifeOS hook's figures on the same items (ANCHORS.md section 1) are printed beside.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { classify, unhappyWithReply } from "../runtime/classifier/classify.js";
import { loadAbRedial, loadUss, scoreFlags, type DetectorScore, type QualityItem } from "./capture-quality-data.js";

const LIFEOS: Record<string, string> = {
  "AB-ReDial": "597 items, 65 pos, 13 flagged: P .308 R .062 F1 .103 kappa .069",
  "USS SGD": "11,833 items, 647 pos, 1,380 flagged: P .236 R .502 F1 .321 kappa .266",
  "USS MWOZ": "10,553 items, 586 pos, 529 flagged: P .189 R .171 F1 .179 kappa .134",
};

const f = (x: number | null): string => (x === null ? "n/a" : x.toFixed(3).replace(/^0/, ""));
const row = (s: DetectorScore): string =>
  `${s.items} items, ${s.positives} pos, ${s.flagged} flagged: P ${f(s.precision)} R ${f(s.recall)} F1 ${f(s.f1)} kappa ${f(s.kappa)}`;

export async function run(): Promise<void> {
  const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const shared = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");
  const sets: Array<[string, string, () => QualityItem[]]> = [
    ["AB-ReDial", join(shared, "ab-redial", "annotated_turns.csv"), () => loadAbRedial(join(shared, "ab-redial", "annotated_turns.csv"))],
    ["USS SGD", join(shared, "uss", "SGD.txt"), () => loadUss(join(shared, "uss", "SGD.txt"), "sgd")],
    ["USS MWOZ", join(shared, "uss", "MWOZ.txt"), () => loadUss(join(shared, "uss", "MWOZ.txt"), "mwoz")],
  ];
  for (const [name, path, load] of sets) {
    if (!existsSync(path)) {
      process.stdout.write(`${name}: not found at ${path} (skipped)\n`);
      continue;
    }
    const items = load();
    const verdicts = items.map((i) => classify(i.prompt, { previousReply: i.reply }));
    const truth = items.map((i) => i.positive);
    const ledger = scoreFlags(truth, verdicts.map((v) => v.kind === "correction" || (v.kind === "rating" && (v.rating ?? 10) < 7)));
    const detector = scoreFlags(truth, verdicts.map(unhappyWithReply));
    process.stdout.write(`${name}\n  detector: ${row(detector)}\n  ledger:   ${row(ledger)}\n  LifeOS:   ${LIFEOS[name]}\n`);
  }
}
