/**
 * Which rule lines are worth holding out (docs/causal.md): the rules no check carries, each
 * with how often it was in view (sessions its file loaded, the instruction-load log, less those
 * its line was withheld in: the line holdout's held-out sessions), how often
 * the assistant acted where it applies (for a `paths:`-scoped file, the loads a matching file
 * triggered: the client loads it when the assistant reads or edits such a file; for an
 * always-loaded line no log says so, and the figure is "not measured"), and how often the owner
 * corrected it (sessions with an incident). A line holdout's chance is a session in play, so the
 * power is for sessions: the line in force at its observed slip rate per session, held out at
 * twice that (the line halving the slip rate), one session in `oneIn` held out for `weeks`
 * (normal approximation, calibration's `holdoutPower`). Suggested only at power ≥ 0.8, and
 * every line carries the statement.
 *
 * Example: a CLAUDE.md line in view in 281 sessions over 4 weeks, corrected in 21 of them ->
 * "not worth testing yet: claude.project.6c265d: in view in 70 sessions a week, acted where it
 * applies: not measured (always loaded), corrected in 21/281 sessions: ... power 31% ..."
 * (test/causal/line-worth.test.ts).
 */
import { isAbsolute, join, resolve } from "node:path";
import { holdoutPower } from "../../calibration/index.js";
import { readJsonl } from "../files/index.js";
import { INSTRUCTIONS_LOADED_FILE, TOOL_EVENTS_FILE } from "../ladder-formats/index.js";
import { InstructionsLoadedSchema, ToolEventSchema, type InstructionsLoadedRow } from "../../schemas/ladder-checks.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import { openRuleLedger, type LedgerRule } from "./ledger.js";

export interface LineWorth {
  rule_id: string;
  in_view_sessions: number;
  /** Loads a matching file triggered (a `paths:`-scoped file), or null where nothing measures it. */
  acted_where_applies: number | null;
  corrected_sessions: number;
  weeks: number;
  power: number;
  worth: boolean;
  line: string;
}

const WEEK = 7 * 86_400_000;
const same = (a: string, b: string): boolean => (isAbsolute(a) ? resolve(a) : a) === (isAbsolute(b) ? resolve(b) : b);

export function lineWorthTesting(rules: readonly LedgerRule[], loads: readonly InstructionsLoadedRow[], incidents: readonly IncidentRow[], o: { weeks?: number; oneIn?: number; carried?: ReadonlySet<string> } = {}): LineWorth[] {
  const weeks = o.weeks ?? 4;
  const oneIn = o.oneIn ?? 5;
  const out: LineWorth[] = [];
  for (const r of rules) {
    if (r.location.kind !== "text" || (r.rung !== 1 && r.rung !== 2) || o.carried?.has(r.rule_id)) continue;
    const file = r.file_abs ?? (isAbsolute(r.location.file) ? r.location.file : null);
    if (file === null) continue;
    // A session the line was withheld in (the line holdout) is not in view, whatever loaded: its slips are the holdout's.
    const withheld = new Set(loads.filter((l) => l.session_id !== null && l.withheld?.includes(r.rule_id) === true).map((l) => l.session_id as string));
    const mine = loads.filter((l) => l.session_id !== null && same(l.file_path, file) && !withheld.has(l.session_id));
    const inView = new Set(mine.map((l) => l.session_id as string));
    if (inView.size === 0) continue;
    const scoped = mine.some((l) => l.load_reason === "path_glob_match");
    const acted = scoped ? mine.filter((l) => l.load_reason === "path_glob_match" && l.withheld === undefined).length : null;
    const corrected = new Set(incidents.filter((i) => i.rule_id === r.rule_id && inView.has(i.session_id)).map((i) => i.session_id)).size;
    const ts = mine.map((l) => Date.parse(l.ts)).filter(Number.isFinite);
    const span = Math.max(1, (Math.max(...ts) - Math.min(...ts)) / WEEK);
    const perWeek = inView.size / span;
    const rate = corrected / inView.size;
    const power = rate === 0 ? 0 : holdoutPower({ chancesPerWeek: perWeek, weeks, oneIn, rateHeldOut: Math.min(1, 2 * rate), rateTreated: rate }).power;
    const worth = power >= 0.8;
    const actedSaid = acted === null ? "not measured (always loaded)" : `${acted} loads on a matching file`;
    const stmt =
      rate === 0
        ? `no session with a correction yet: a holdout has no slip rate to compare`
        : `holding out 1 in ${oneIn} sessions for ${weeks} weeks would see the line halve the slip rate (held out at twice it) with power ${Math.round(power * 100)}% (normal approximation, a session a chance)`;
    out.push({
      rule_id: r.rule_id,
      in_view_sessions: inView.size,
      acted_where_applies: acted,
      corrected_sessions: corrected,
      weeks: span,
      power,
      worth,
      line: `${worth ? "worth testing" : "not worth testing yet"}: ${r.rule_id}: in view in ${Math.round(perWeek)} sessions a week, acted where it applies: ${actedSaid}, corrected in ${corrected}/${inView.size} sessions: ${stmt}`,
    });
  }
  return out.sort((a, b) => b.power - a.power || b.in_view_sessions - a.in_view_sessions || (a.rule_id < b.rule_id ? -1 : 1));
}

/** The line candidates of a ladder folder (rules no check carries), best first, at most `top`. */
export function lineWorthFromDir(dir: string, top = 5): string[] {
  const loads = readJsonl(join(dir, INSTRUCTIONS_LOADED_FILE), InstructionsLoadedSchema).rows;
  if (loads.length === 0) return [];
  const { ledger } = openRuleLedger(dir).read();
  const carried = new Set(readJsonl(join(dir, TOOL_EVENTS_FILE), ToolEventSchema).rows.flatMap((e) => (e.rule_id === null ? [] : [e.rule_id])));
  const rules = [...ledger.rules.values()];
  return lineWorthTesting(rules, loads, rules.flatMap((r) => r.incidents), { carried })
    .slice(0, top)
    .map((w) => w.line);
}
