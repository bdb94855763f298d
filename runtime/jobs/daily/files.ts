import { join, resolve } from "node:path";
import type { ErrataPaths } from "../../paths.js";

/**
 * Where the daily loop reads and writes, from the resolved Errata paths. Example for
 * `ERRATA_DIR=/tmp/l`: runs `/tmp/l/.state/runs.jsonl`, events `/tmp/l/.state/events.jsonl`,
 * state `/tmp/l/.state/state.json`, upgrades `/tmp/l/upgrades.jsonl`, audit labels
 * `/tmp/l/audit/labels-v3.jsonl`, reports `/tmp/l/reports/`.
 */
export interface DailyFiles {
  runs: string;
  events: string;
  state: string;
  upgrades: string;
  auditLabels: string;
  auditProposals: string;
  /** Which lane filled each enrichment field. */
  enrichmentSources: string;
  reportsDir: string;
  /** F's promoted configuration. */
  promoted: string;
}

export function dailyFiles(paths: ErrataPaths, env: Record<string, string | undefined> = {}, cwd = "."): DailyFiles {
  const events = env["ERRATA_EVENTS_FILE"];
  return {
    runs: join(paths.stateDir, "runs.jsonl"),
    events: events ? resolve(cwd, events) : join(paths.stateDir, "events.jsonl"),
    state: join(paths.stateDir, "state.json"),
    upgrades: join(paths.ledgerDir, "upgrades.jsonl"),
    auditLabels: join(paths.ledgerDir, "audit", "labels-v3.jsonl"),
    auditProposals: join(paths.ledgerDir, "audit", "proposals-v3.jsonl"),
    enrichmentSources: join(paths.ledgerDir, "audit", "enrichment-sources.jsonl"),
    reportsDir: join(paths.ledgerDir, "reports"),
    promoted: join(paths.ledgerDir, "promoted.json"),
  };
}
