/**
 * The randomised holdout's evidence, per check the owner opted in (docs/causal.md): the
 * sessions in which the check was eligible, split by the hook's draw into treated (it acted)
 * and held out (it ran in shadow: `held_out: true` on its tool-event lines). A chance is an
 * eligible call; a slip is an incident of the check's rule in that session (the owner's
 * correction, from the rule ledger), at most one per chance. Incidents per chance in each arm
 * carry a session-cluster interval and the difference Newcombe's (calibration's
 * `holdoutInterval`). The held-out sessions are listed, for the morning report and the Pulse
 * page to disclose.
 *
 * Example: holdoutRows(checks, events, incidents) -> [{check: "ladder-pnpm", line: "check
 * ladder-pnpm: 1/240 vs 9/60 chances slipped, difference -0.146 [-0.257, -0.074]", held_out_sessions: [...]}].
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { holdoutInterval, holdoutPower, type HoldoutInterval } from "../../calibration/index.js";
import { badInput, describeFound } from "../../core/errors.js";
import { readJsonl, writeFileAtomic } from "../files/index.js";
import { CHECKS_FILE, TOOL_EVENTS_FILE, parseChecksFile, type Check, type Holdout } from "../ladder-formats/index.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import { ToolEventSchema, type ToolEvent } from "../../schemas/ladder-checks.js";
import { openRuleLedger } from "./ledger.js";

export interface HoldoutRow {
  check: string;
  rule_id: string | null;
  one_in: number;
  treated_sessions: number;
  held_out_sessions: string[];
  /** Incidents and chances in each arm (also before an interval exists). */
  counts: { acting: { incidents: number; chances: number }; held: { incidents: number; chances: number } };
  /** Null until both arms have a chance. */
  interval: HoldoutInterval | null;
  line: string;
}

const f3 = (x: number): string => (Math.round(x * 1000) / 1000).toString();

export function holdoutRows(checks: readonly Check[], events: readonly ToolEvent[], incidents: readonly IncidentRow[]): HoldoutRow[] {
  const rows: HoldoutRow[] = [];
  for (const c of checks) {
    if (c.holdout === undefined) continue;
    const arms = new Map<string, { held: boolean; chances: number }>();
    for (const e of events) {
      if (e.check !== c.id || e.session_id === null) continue;
      const a = arms.get(e.session_id) ?? { held: false, chances: 0 };
      a.chances++;
      if (e.held_out === true) a.held = true;
      arms.set(e.session_id, a);
    }
    const slips = new Map<string, number>();
    for (const i of incidents) if (c.rule_id && i.rule_id === c.rule_id) slips.set(i.session_id, (slips.get(i.session_id) ?? 0) + 1);
    const treated: { incidents: number; chances: number }[] = [];
    const held: { incidents: number; chances: number }[] = [];
    const heldIds: string[] = [];
    for (const [sid, a] of [...arms].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
      const cell = { incidents: Math.min(a.chances, slips.get(sid) ?? 0), chances: a.chances };
      if (a.held) {
        held.push(cell);
        heldIds.push(sid);
      } else treated.push(cell);
    }
    const sum = (xs: typeof held, k: "incidents" | "chances") => xs.reduce((s, x) => s + x[k], 0);
    const said = `${sum(treated, "incidents")}/${sum(treated, "chances")} vs ${sum(held, "incidents")}/${sum(held, "chances")} chances slipped (acting vs held out, ${treated.length} and ${held.length} sessions)`;
    const interval = treated.length > 0 && held.length > 0 ? holdoutInterval(treated, held) : null;
    const line = interval
      ? `check ${c.id}: ${said}, difference ${f3(interval.difference)} [${f3(interval.low)}, ${f3(interval.high)}]`
      : `check ${c.id}: ${said}; no interval until both kinds of session have a chance`;
    const counts = { acting: { incidents: sum(treated, "incidents"), chances: sum(treated, "chances") }, held: { incidents: sum(held, "incidents"), chances: sum(held, "chances") } };
    rows.push({ check: c.id, rule_id: c.rule_id ?? null, one_in: c.holdout.one_in, treated_sessions: treated.length, held_out_sessions: heldIds, counts, interval, line });
  }
  return rows;
}

export interface WorthTesting {
  rule_id: string;
  /** Calls where a check for it was eligible (the assistant acted where it applies), per week observed. */
  chances_per_week: number;
  incidents: number;
  /** Incidents per chance so far (the held-out rate assumed). */
  rate: number;
  power: number;
  worth: boolean;
  line: string;
}

/**
 * Which rules are worth holding out: per rule, its chances a week and incidents per chance so
 * far; the power to see a check halve that rate in `weeks` (default 4) with 1 in `oneIn`
 * (default 5) held out. Suggested only at power ≥ 0.8; every line carries the statement.
 */
export function worthTesting(rules: readonly { rule_id: string; chances: number; incidents: number; weeks: number }[], o: { weeks?: number; oneIn?: number } = {}): WorthTesting[] {
  const weeks = o.weeks ?? 4;
  const oneIn = o.oneIn ?? 5;
  return rules
    .filter((r) => r.chances > 0 && r.weeks > 0)
    .map((r) => {
      const rate = Math.min(1, r.incidents / r.chances);
      const perWeek = r.chances / r.weeks;
      const p = holdoutPower({ chancesPerWeek: perWeek, weeks, oneIn, rateHeldOut: rate, rateTreated: rate / 2 });
      const worth = p.power >= 0.8;
      const stmt = `${Math.round(perWeek)} chances a week, ${r.incidents}/${r.chances} slipped: holding out 1 in ${oneIn} for ${weeks} weeks would see a halving with power ${Math.round(p.power * 100)}% (normal approximation, optimistic under clustering)`;
      return { rule_id: r.rule_id, chances_per_week: perWeek, incidents: r.incidents, rate, power: p.power, worth, line: `${worth ? "worth testing" : "not worth testing yet"}: ${r.rule_id}: ${stmt}` };
    })
    .sort((a, b) => b.power - a.power || (a.rule_id < b.rule_id ? -1 : 1));
}

/** The holdout rows of a ladder folder: its installed checks, tool-event lines and ledger incidents. */
export function holdoutFromDir(dir: string): HoldoutRow[] {
  const file = join(dir, CHECKS_FILE);
  const checks = existsSync(file) ? parseChecksFile(readFileSync(file, "utf8"), file) : [];
  if (!checks.some((c) => c.holdout !== undefined)) return [];
  const events = readJsonl(join(dir, TOOL_EVENTS_FILE), ToolEventSchema).rows;
  const { ledger } = openRuleLedger(dir).read();
  return holdoutRows(checks, events, [...ledger.rules.values()].flatMap((r) => r.incidents));
}

/** The morning report's disclosure: each opted-in check, its share held out, its evidence and the held-out sessions. */
export function holdoutLines(rows: readonly HoldoutRow[]): string[] {
  if (rows.length === 0) return [];
  const out = [`Randomised holdout (you opted these checks in; in a held-out session the check records and does not act):`];
  for (const r of rows) {
    out.push(`  ${r.line}`);
    const ids = r.held_out_sessions;
    out.push(`    held out 1 in ${r.one_in} sessions; ${ids.length === 0 ? "no session held out yet" : `held-out sessions: ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ` and ${ids.length - 10} more` : ""}`}`);
  }
  return out;
}

/**
 * The owner's opt-in (or opt-out, `holdout: null`) of one installed check, written back to
 * checks.json in one atomic write (with `dryRun`, nothing is written). Returns the check as it now stands; throws an input error
 * naming the ids that exist when `checkId` is not installed.
 */
export function setHoldout(dir: string, checkId: string, holdout: Holdout | null, opts: { dryRun?: boolean } = {}): Check {
  const file = join(dir, CHECKS_FILE);
  const checks = existsSync(file) ? parseChecksFile(readFileSync(file, "utf8"), file) : [];
  const i = checks.findIndex((c) => c.id === checkId);
  if (i < 0) throw badInput(`no installed check ${checkId}`, `one of the installed checks (${checks.map((c) => c.id).join(", ") || "none installed"})`, describeFound(checkId));
  const { holdout: _old, source: _source, ...rest } = checks[i]!;
  const next: Check = holdout === null ? rest : { ...rest, holdout };
  if (opts.dryRun === true) return next;
  const raw = JSON.parse(readFileSync(file, "utf8")) as { checks: unknown[] };
  raw.checks[i] = next;
  writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`);
  return next;
}

/** A row as the Pulse page carries it: ids and counts only. */
export function pulseHoldout(r: HoldoutRow): { check: string; one_in: number; acting: { incidents: number; chances: number; sessions: number }; held_out: { incidents: number; chances: number; sessions: number }; difference: { value: number; low: number; high: number } | null; held_out_sessions: string[] } {
  const arm = (a: { incidents: number; chances: number; sessions: number } | undefined, sessions: number) => ({ incidents: a?.incidents ?? 0, chances: a?.chances ?? 0, sessions: a?.sessions ?? sessions });
  const i = r.interval;
  return {
    check: r.check,
    one_in: r.one_in,
    acting: i ? arm(i.treated, r.treated_sessions) : { ...r.counts.acting, sessions: r.treated_sessions },
    held_out: i ? arm(i.heldOut, r.held_out_sessions.length) : { ...r.counts.held, sessions: r.held_out_sessions.length },
    difference: i ? { value: i.difference, low: i.low, high: i.high } : null,
    held_out_sessions: r.held_out_sessions,
  };
}
