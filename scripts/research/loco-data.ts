// The labelled corpora the leave-one-corpus-out runs read (loco-main.ts), each as
// `detect.unhappy` items: a user turn with the reply before it, the raters' votes and the
// majority. Read straight from the bundled datasets and from ../shared/datasets; USS stays
// local (read, never written anywhere but the aggregate figures).
//
// | corpus | what a yes vote means | raters | trainable |
// |---|---|---|---|
// | ab-redial | the person's satisfaction with the reply <= 2 (first 3 raters) | 3 | yes (MIT) |
// | dbdc3 | the reply is a breakdown (X), the next user turn reacting to it | 30 | yes (MIT), full zip |
// | conture | the reply is disliked (0), the next user turn reacting to it | 1 (aggregated) | yes (CC BY 4.0) |
// | uss-sgd, uss-mwoz | satisfaction <= 2 (first 3 raters) | 3 | never: no licence, evaluation only |
//
// Example: `(await loadCorpora(shared)).map((c) => [c.name, c.items.length])`
// -> [["ab-redial", 600], ["dbdc3", 5535], ["conture", 1009], ["uss-sgd", 11833], ...].
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { importDbdc3, importUss } from "../../runtime/corpora/index.js";
import { buildItems, type Item } from "../../runtime/engine/embedded/items.js";
import { replyBankLabels } from "../../runtime/engine/embedded/reply-map.js";
import { readLabelledSet } from "../../runtime/engine/embedded/files.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { Label } from "../../schemas/label.js";

export interface LocoCorpus {
  name: string;
  items: Item[];
  /** May be trained on (a licence that allows it); USS never. */
  trainable: boolean;
  /** The raters' own agreement on the binary label (Fleiss), where there are several raters. */
  crowdKappa: number | null;
  /** Where the crowd figure comes from. */
  crowdNote: string;
}

/** The first `k` labellers of each exchange, in file order (the "first 3 ratings" setting). */
function firstRaters(labels: readonly Label[], question: string, k: number): Label[] {
  const seen = new Map<string, number>();
  return labels.filter((l) => {
    if (l.question !== question) return false;
    const n = seen.get(l.exchange_id) ?? 0;
    seen.set(l.exchange_id, n + 1);
    return n < k;
  });
}

const unhappy = (exchanges: readonly Exchange[], labels: readonly Label[]): Item[] => buildItems(exchanges, labels).byQuestion.get("detect.unhappy") ?? [];

/** Binary Fleiss kappa over items with the same number of raters each (the form the README's references use). */
export function fleissBinary(items: readonly Item[]): number | null {
  const n = items.length;
  if (n === 0) return null;
  let po = 0;
  let yes = 0;
  let votes = 0;
  for (const it of items) {
    const m = it.total;
    if (m < 2) return null;
    po += (it.yes * (it.yes - 1) + (m - it.yes) * (m - it.yes - 1)) / (m * (m - 1));
    yes += it.yes;
    votes += m;
  }
  po /= n;
  const p = yes / votes;
  const pe = p * p + (1 - p) * (1 - p);
  return pe < 1 ? (po - pe) / (1 - pe) : null;
}

export function loadCorpora(repoRoot: string, shared: string): LocoCorpus[] {
  const out: LocoCorpus[] = [];
  const ab = readLabelledSet(join(repoRoot, "datasets", "ab-redial", "labels.jsonl"));
  const abItems = unhappy(ab.exchanges, firstRaters(ab.labels, "detect.unhappy", 3)).filter((it) => it.total === 3);
  out.push({ name: "ab-redial", items: abItems, trainable: true, crowdKappa: fleissBinary(abItems), crowdNote: "first 3 raters" });

  const zip = join(shared, "dbdc3", "DBDC3.zip");
  const dbdc3 = existsSync(zip) ? importDbdc3(new Uint8Array(readFileSync(zip))) : readLabelledSet(join(repoRoot, "datasets", "dbdc3", "labels.jsonl"));
  const dbItems = unhappy(dbdc3.exchanges, replyBankLabels(dbdc3.exchanges, dbdc3.labels));
  out.push({ name: "dbdc3", items: dbItems, trainable: true, crowdKappa: fleissBinary(dbItems), crowdNote: existsSync(zip) ? "30 raters, X vs O/T" : "bundled sample" });

  const conture = readLabelledSet(join(repoRoot, "datasets", "conture", "labels.jsonl"));
  out.push({ name: "conture", items: unhappy(conture.exchanges, replyBankLabels(conture.exchanges, conture.labels)), trainable: true, crowdKappa: null, crowdNote: "one aggregated label: no crowd figure" });

  for (const [file, name] of [["SGD.txt", "uss-sgd"], ["MWOZ.txt", "uss-mwoz"]] as const) {
    const path = join(shared, "uss", file);
    if (!existsSync(path)) continue;
    const r = importUss(readFileSync(path, "utf8"), name, file);
    // First turns (no reply yet) are not items in the label definition.
    const items = unhappy(r.exchanges.filter((e) => e.reply_end !== null), firstRaters(r.labels, "detect.unhappy", 3)).filter((it) => it.total === 3);
    out.push({ name, items, trainable: false, crowdKappa: fleissBinary(items), crowdNote: "first 3 raters" });
  }
  return out;
}
