/**
 * The team's most-broken rules: every developer's rule ledger (the ladder folder inside the
 * ledger the http hooks keep for them, `<dir>/hooks/<tenant>/<label>/ledger/ladder/`) read and
 * joined by rule id, so a rule of a shared project file broken by three developers counts
 * three developers' incidents, while each incident stays tied to its developer and its
 * project. Incidents are already keyed by rule and exchange in each ledger (counted once);
 * ids and counts only, never a rule's text or a correction's words.
 *
 * Example: `teamMostBroken("./srv", "acme", 10)` -> `[{ rule_id: "claude-md.tooling.3fa9c1",
 * incidents: 5, developers: 2, by: [{ developer: "ana", project: "/src/app", incidents: 3 }, …] }]`.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { openRuleLedger } from "../ladder/index.js";
import { ladderDir } from "../ladder-formats/index.js";
import { developerDir } from "./hooks.js";

export interface TeamRule {
  rule_id: string;
  incidents: number;
  developers: number;
  /** Where the rule lives (an instruction file), as the first developer's ledger has it. */
  file: string | null;
  by: Array<{ developer: string; project: string | null; incidents: number }>;
}

export function teamMostBroken(dir: string, tenant: string, top: number): { rules: TeamRule[]; developers: number; problems: number } {
  const root = join(dir, "hooks", tenant);
  const labels = existsSync(root) ? readdirSync(root).sort() : [];
  const byRule = new Map<string, TeamRule>();
  let problems = 0;
  for (const label of labels) {
    const ledgerDir = join(developerDir(dir, tenant, label), "ledger");
    const { ledger, problems: p } = openRuleLedger(ladderDir({ ERRATA_DIR: ledgerDir }, ledgerDir)).read();
    problems += p.length;
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
  const rules = [...byRule.values()].sort((a, b) => b.incidents - a.incidents || b.developers - a.developers || a.rule_id.localeCompare(b.rule_id)).slice(0, top);
  return { rules, developers: labels.length, problems };
}
