/**
 * The team's most-broken rules: every developer's rule ledger joined by rule id, so a rule of
 * a shared project file broken by three developers counts three developers' incidents, while
 * each incident stays tied to its developer and its project. A developer's ledger is read
 * from the ladder folder inside the ledger the http hooks keep for them
 * (`<dir>/hooks/<tenant>/<label>/ledger/ladder/`) and, on the Postgres store, from the rule
 * lines their daily runs pushed (`rule_lines`, read as the tenant under row-level security);
 * a developer in both has the two read as one ledger, folded by the ladder's own fold
 * (incidents keyed by rule and exchange, so none is counted twice). Ids and counts only,
 * never a rule's text or a correction's words.
 *
 * Example: `await teamMostBroken(store, "./srv", "acme", 10)` -> `{ rules: [{ rule_id:
 * "claude-md.tooling.3fa9c1", incidents: 5, developers: 2, by: [{ developer: "ana", project:
 * "/src/app", incidents: 3 }, …] }], developers: 2, problems: 0 }`.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readJsonl } from "../files/index.js";
import { foldLedger, RULE_LEDGER_FILE, type FoldedLedger } from "../ladder/index.js";
import { ladderDir } from "../ladder-formats/index.js";
import type { ErrataStore } from "../stores/index.js";
import { RuleLedgerLineSchema, type RuleLedgerLine } from "../../schemas/rule-ledger.js";
import { developerDir } from "./hooks.js";

export interface TeamRule {
  rule_id: string;
  incidents: number;
  developers: number;
  /** Where the rule lives (an instruction file), as the first developer's ledger has it. */
  file: string | null;
  by: Array<{ developer: string; project: string | null; incidents: number }>;
}

export interface TeamView {
  rules: TeamRule[];
  developers: number;
  /** Lines that could not be read (a torn file line, a row that no longer parses). */
  problems: number;
}

/** The http hooks' developers of a tenant and the lines of each one's rule ledger file. */
function hookLedgers(dir: string, tenant: string): { byDeveloper: Map<string, RuleLedgerLine[]>; problems: number } {
  const root = join(dir, "hooks", tenant);
  const byDeveloper = new Map<string, RuleLedgerLine[]>();
  let problems = 0;
  for (const label of existsSync(root) ? readdirSync(root).sort() : []) {
    const ledgerDir = join(developerDir(dir, tenant, label), "ledger");
    const file = join(ladderDir({ ERRATA_DIR: ledgerDir }, ledgerDir), RULE_LEDGER_FILE);
    const read = readJsonl(file, RuleLedgerLineSchema, { what: "a rule-ledger line" });
    problems += read.problems.length;
    byDeveloper.set(label, read.rows);
  }
  return { byDeveloper, problems };
}

export async function teamMostBroken(store: ErrataStore | null, dir: string, tenant: string, top: number): Promise<TeamView> {
  const files = hookLedgers(dir, tenant);
  const rows = store?.ruleLines ? await store.ruleLines(tenant) : { byDeveloper: new Map<string, RuleLedgerLine[]>(), problems: 0 };
  const labels = [...new Set([...files.byDeveloper.keys(), ...rows.byDeveloper.keys()])].sort();
  const ledgers = new Map(labels.map((l) => [l, foldLedger([...(files.byDeveloper.get(l) ?? []), ...(rows.byDeveloper.get(l) ?? [])])]));
  return { rules: joinTeam(ledgers, top), developers: labels.length, problems: files.problems + rows.problems };
}

/** The join itself, over each developer's folded ledger (in the map's order). */
export function joinTeam(ledgers: ReadonlyMap<string, FoldedLedger>, top: number): TeamRule[] {
  const byRule = new Map<string, TeamRule>();
  for (const [label, ledger] of ledgers) {
    for (const rule of ledger.rules.values()) {
      if (rule.incidents.length === 0) continue;
      let t = byRule.get(rule.rule_id);
      if (!t) {
        t = { rule_id: rule.rule_id, incidents: 0, developers: 0, file: rule.location.kind === "text" ? rule.location.file : null, by: [] };
        byRule.set(rule.rule_id, t);
      }
      t.developers++;
      const perProject = new Map<string | null, number>();
      for (const inc of rule.incidents) {
        const project = inc.project ?? rule.project ?? null;
        perProject.set(project, (perProject.get(project) ?? 0) + 1);
      }
      for (const [project, n] of perProject) t.by.push({ developer: label, project, incidents: n });
      t.incidents += rule.incidents.length;
    }
  }
  return [...byRule.values()].sort((a, b) => b.incidents - a.incidents || b.developers - a.developers || a.rule_id.localeCompare(b.rule_id)).slice(0, top);
}
