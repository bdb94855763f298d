/**
 * The rule ledger: append-only JSONL (`<ERRATA_DIR>/ladder/rules.jsonl`), read by folding.
 * Nothing is rewritten in place: a rule changes by a patch line, an incident is one line. At
 * read, rules take their patches in order; incidents are keyed by `incident_id` (a pure
 * function of rule and exchange), so an incident appended twice (a retried night, a replayed
 * capture) is counted once; mentions are kept apart and never counted.
 *
 * Example: append a rule line, two identical incident lines and a patch {rung: 2}: `foldLedger`
 * gives one rule at rung 2 with one incident.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { appendJsonl, readJsonl, type JsonlProblem } from "../files/index.js";
import { redactForWrite } from "../privacy/index.js";
import { RuleLedgerLineSchema, type IncidentRow, type MentionRow, type RuleLedgerLine, type RulePatch, type RuleRow } from "../../schemas/rule-ledger.js";

export const RULE_LEDGER_FILE = "rules.jsonl";

export interface LedgerRule extends RuleRow {
  incidents: IncidentRow[];
  mentions: MentionRow[];
  patches: RulePatch[];
}

export interface FoldedLedger {
  rules: Map<string, LedgerRule>;
  /** Incidents of rules the ledger does not hold (kept, reported, never dropped). */
  orphans: IncidentRow[];
  /** Lines seen again (the same incident twice): how many were folded away. */
  duplicates: number;
}

export function incidentId(ruleId: string, exchangeId: string): string {
  return `inc-${createHash("sha256").update(`${ruleId}\u0000${exchangeId}`).digest("hex").slice(0, 16)}`;
}

export function foldLedger(lines: readonly RuleLedgerLine[]): FoldedLedger {
  const rules = new Map<string, LedgerRule>();
  const pendingPatches: RulePatch[] = [];
  const incidents: IncidentRow[] = [];
  const mentions: MentionRow[] = [];
  for (const l of lines) {
    if (l.kind === "rule") {
      if (!rules.has(l.rule_id)) rules.set(l.rule_id, { ...l, incidents: [], mentions: [], patches: [] });
    } else if (l.kind === "patch") pendingPatches.push(l);
    else if (l.kind === "incident") incidents.push(l);
    else mentions.push(l);
  }
  for (const p of pendingPatches) {
    const r = rules.get(p.rule_id);
    if (r === undefined) continue;
    Object.assign(r, p.set);
    r.patches.push(p);
  }
  const seen = new Set<string>();
  const orphans: IncidentRow[] = [];
  let duplicates = 0;
  for (const inc of incidents) {
    if (seen.has(inc.incident_id)) {
      duplicates++;
      continue;
    }
    seen.add(inc.incident_id);
    const r = rules.get(inc.rule_id);
    if (r) r.incidents.push(inc);
    else orphans.push(inc);
  }
  const seenMentions = new Set<string>();
  for (const m of mentions) {
    const key = `${m.rule_id}\u0000${m.exchange_id}`;
    if (seenMentions.has(key)) continue;
    seenMentions.add(key);
    rules.get(m.rule_id)?.mentions.push(m);
  }
  return { rules, orphans, duplicates };
}

export interface RuleLedger {
  file: string;
  read(): { ledger: FoldedLedger; problems: JsonlProblem[] };
  append(lines: readonly RuleLedgerLine[]): void;
}

/** The ledger in a ladder folder; every appended line is checked by its schema first. */
export function openRuleLedger(dir: string): RuleLedger {
  const file = join(dir, RULE_LEDGER_FILE);
  return {
    file,
    read() {
      const { rows, problems } = readJsonl(file, RuleLedgerLineSchema, { what: "a rule-ledger line (rule, incident, mention or patch)" });
      return { ledger: foldLedger(rows), problems };
    },
    append(lines) {
      // Rule text and why come from the owner's files and words: redacted like every other write.
      const checked = lines.map((l) => RuleLedgerLineSchema.parse(redactForWrite(l).value));
      appendJsonl(file, checked);
    },
  };
}
