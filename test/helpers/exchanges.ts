// The typed prompts of the bundled corpora (`datasets/<set>/exchanges.jsonl`), each with the
// end of the reply it answered: what the classifier's equivalence tests run on.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface BundledExchange {
  prompt: string;
  reply_end: string | null;
}

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** Every exchange of every bundled set, in file order. */
export function bundledExchanges(): BundledExchange[] {
  const dir = join(repoRoot, "datasets");
  const out: BundledExchange[] = [];
  for (const set of readdirSync(dir)) {
    const file = join(dir, set, "exchanges.jsonl");
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) if (line.trim()) out.push(JSON.parse(line) as BundledExchange);
  }
  return out;
}
