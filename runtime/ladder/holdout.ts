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
import { isAbsolute, join, resolve } from "node:path";
import { holdoutInterval, holdoutPower, type HoldoutInterval } from "../../calibration/index.js";
import { badInput, describeFound } from "../../core/errors.js";
import { readJsonl, writeFileAtomic } from "../files/index.js";
import { CHECKS_FILE, INSTRUCTIONS_LOADED_FILE, LINE_HOLDOUTS_FILE, TOOL_EVENTS_FILE, heldOut, parseChecksFile, parseLineHoldouts, type Check, type Holdout, type LineHoldout } from "../ladder-formats/index.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import { InstructionsLoadedSchema, ToolEventSchema, type InstructionsLoadedRow, type ToolEvent } from "../../schemas/ladder-checks.js";
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

/**
 * Per rule a check carries: its eligible calls (chances), the weeks they span (at least one),
 * and its ledger incidents; the input of `worthTesting`.
 */
export function ruleChances(events: readonly ToolEvent[], incidents: readonly IncidentRow[]): { rule_id: string; chances: number; incidents: number; weeks: number }[] {
  const by = new Map<string, { chances: number; first: string; last: string }>();
  for (const e of events) {
    if (e.rule_id === null) continue;
    const r = by.get(e.rule_id) ?? { chances: 0, first: e.ts, last: e.ts };
    r.chances++;
    if (e.ts < r.first) r.first = e.ts;
    if (e.ts > r.last) r.last = e.ts;
    by.set(e.rule_id, r);
  }
  // Only the slips while the check watched (from the day of its first eligible call): incidents
  // from before it was installed are no slips of these chances ("10/4 slipped" otherwise).
  return [...by].map(([rule_id, r]) => ({ rule_id, chances: r.chances, incidents: incidents.filter((i) => i.rule_id === rule_id && i.date.slice(0, 10) >= r.first.slice(0, 10)).length, weeks: Math.max(1, (Date.parse(r.last) - Date.parse(r.first)) / (7 * 86_400_000)) }));
}

/** The worth-testing lines of a ladder folder (rules its checks carry), best first, at most `top`. */
export function worthTestingFromDir(dir: string, top = 5): string[] {
  const events = readJsonl(join(dir, TOOL_EVENTS_FILE), ToolEventSchema).rows;
  if (events.length === 0) return [];
  const { ledger } = openRuleLedger(dir).read();
  const w = worthTesting(ruleChances(events, [...ledger.rules.values()].flatMap((r) => r.incidents)));
  return w.slice(0, top).map((x) => x.line);
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

/**
 * One rung-1/2 rule line's holdout evidence (docs/causal.md, "Holding out a rule line"). A
 * chance is a session the rule was in play: its file loaded (the instruction-load log), or
 * its line withheld by the mod; a slip is a session with an incident of the rule. Held out:
 * the sessions with a withholding line for the rule. A session the draw holds out that has no
 * withholding line (the mod did not run there, or the line was not found in the file) is in
 * neither arm and is counted, so the comparison is between sessions the mod actually treated
 * as drawn.
 */
export interface LineHoldoutRow {
  rule_id: string;
  file: string | null;
  one_in: number;
  treated_sessions: number;
  held_out_sessions: string[];
  /** Drawn held out but the rule was sent (no withholding recorded). */
  drawn_not_withheld: string[];
  counts: { in_force: { incidents: number; chances: number }; held: { incidents: number; chances: number } };
  interval: HoldoutInterval | null;
  line: string;
}

const samePath = (a: string, b: string): boolean => (isAbsolute(a) ? resolve(a) : a) === (isAbsolute(b) ? resolve(b) : b);

export function lineHoldoutRows(holdouts: readonly LineHoldout[], loads: readonly InstructionsLoadedRow[], incidents: readonly IncidentRow[]): LineHoldoutRow[] {
  return holdouts.map((h) => {
    const inPlay = new Set<string>();
    const withheld = new Set<string>();
    for (const l of loads) {
      if (l.session_id === null) continue;
      if (l.withheld?.includes(h.rule_id)) {
        withheld.add(l.session_id);
        inPlay.add(l.session_id);
      } else if (h.file !== null && samePath(l.file_path, h.file)) inPlay.add(l.session_id);
    }
    const slipped = new Set(incidents.filter((i) => i.rule_id === h.rule_id).map((i) => i.session_id));
    const treated: { incidents: number; chances: number }[] = [];
    const held: { incidents: number; chances: number }[] = [];
    const heldIds: string[] = [];
    const drawnNot: string[] = [];
    for (const sid of [...inPlay].sort()) {
      const cell = { incidents: slipped.has(sid) ? 1 : 0, chances: 1 };
      if (withheld.has(sid)) {
        held.push(cell);
        heldIds.push(sid);
      } else if (heldOut({ id: h.rule_id, holdout: h }, sid)) drawnNot.push(sid);
      else treated.push(cell);
    }
    const sum = (xs: typeof held) => xs.reduce((s, x) => s + x.incidents, 0);
    const said = `${sum(treated)}/${treated.length} vs ${sum(held)}/${held.length} chances slipped (in force vs held out; a chance is a session the rule was in play)`;
    const interval = treated.length > 0 && held.length > 0 ? holdoutInterval(treated, held) : null;
    const line = interval
      ? `rule ${h.rule_id}: ${said}, difference ${f3(interval.difference)} [${f3(interval.low)}, ${f3(interval.high)}]`
      : `rule ${h.rule_id}: ${said}; no interval until both kinds of session have a chance`;
    return {
      rule_id: h.rule_id,
      file: h.file,
      one_in: h.one_in,
      treated_sessions: treated.length,
      held_out_sessions: heldIds,
      drawn_not_withheld: drawnNot,
      counts: { in_force: { incidents: sum(treated), chances: treated.length }, held: { incidents: sum(held), chances: held.length } },
      interval,
      line,
    };
  });
}

/** The line holdouts of a ladder folder (none when it has no line-holdouts.json). */
export function readLineHoldouts(dir: string): LineHoldout[] {
  const file = join(dir, LINE_HOLDOUTS_FILE);
  if (!existsSync(file)) return [];
  try {
    return parseLineHoldouts(readFileSync(file, "utf8"));
  } catch (err) {
    throw badInput(`${file} is not a line-holdouts file`, "{version: 1, rules: [{rule_id, text, file, one_in, seed}]}", err instanceof Error ? err.message : String(err));
  }
}

/** The line holdouts' evidence in a ladder folder: its line-holdouts.json, instruction-load log and ledger incidents. */
export function lineHoldoutFromDir(dir: string): LineHoldoutRow[] {
  const holdouts = readLineHoldouts(dir);
  if (holdouts.length === 0) return [];
  const loads = readJsonl(join(dir, INSTRUCTIONS_LOADED_FILE), InstructionsLoadedSchema).rows;
  const { ledger } = openRuleLedger(dir).read();
  return lineHoldoutRows(holdouts, loads, [...ledger.rules.values()].flatMap((r) => r.incidents));
}

/** The morning report's disclosure of the line holdouts: each rule, its share held out, its evidence, the held-out sessions. */
export function lineHoldoutLines(rows: readonly LineHoldoutRow[]): string[] {
  if (rows.length === 0) return [];
  const out = [`Randomised holdout of rule lines (you opted these rules in; in a held-out session the Errata mod leaves the line out of what the model is sent):`];
  const list = (ids: readonly string[]) => `${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ` and ${ids.length - 10} more` : ""}`;
  for (const r of rows) {
    out.push(`  ${r.line}`);
    out.push(`    held out 1 in ${r.one_in} sessions; ${r.held_out_sessions.length === 0 ? "no session held out yet" : `held-out sessions: ${list(r.held_out_sessions)}`}`);
    if (r.drawn_not_withheld.length > 0) out.push(`    ${r.drawn_not_withheld.length} session${r.drawn_not_withheld.length === 1 ? "" : "s"} drawn to be held out still carried the line (no withholding recorded: the mod did not run there, or the line was not found), left out of both arms: ${list(r.drawn_not_withheld)}`);
  }
  return out;
}

/**
 * The owner's opt-in (or opt-out) of a rung-1/2 rule line, written to line-holdouts.json in
 * one atomic write (with `dryRun`, nothing is written). The rule must be in the ledger, live as
 * a line in an instruction file, at rung 1 or 2. Throws an input error otherwise.
 */
export function setLineHoldout(dir: string, ruleId: string, holdout: Holdout | null, opts: { dryRun?: boolean } = {}): LineHoldout | null {
  const current = readLineHoldouts(dir);
  const rest = current.filter((h) => h.rule_id !== ruleId);
  let next: LineHoldout | null = null;
  if (holdout === null) {
    if (rest.length === current.length) throw badInput(`rule ${ruleId} is not held out`, `one of the held-out rules (${current.map((h) => h.rule_id).join(", ") || "none"})`, describeFound(ruleId));
  } else {
    const { ledger } = openRuleLedger(dir).read();
    const rule = ledger.rules.get(ruleId);
    if (rule === undefined) throw badInput(`no installed check and no rule ${ruleId}`, "an installed check's id, or a rule id of the ledger (errata rules build, then errata rules audit, puts the rules in it; errata rules search finds an id)", describeFound(ruleId));
    if (rule.location.kind !== "text" || (rule.rung !== 1 && rule.rung !== 2)) throw badInput(`rule ${ruleId} is not a rule line`, "a rule at rung 1 or 2 that lives as a line of an instruction file", `rung ${rule.rung}, ${rule.location.kind}`);
    const file = rule.file_abs ?? (isAbsolute(rule.location.file) ? rule.location.file : null);
    next = { rule_id: ruleId, text: rule.text, file, one_in: holdout.one_in, seed: holdout.seed };
  }
  if (opts.dryRun === true) return next;
  const rules = next === null ? rest : [...rest, next];
  writeFileAtomic(join(dir, LINE_HOLDOUTS_FILE), `${JSON.stringify({ version: 1, rules }, null, 2)}\n`);
  return next;
}

/** The ids of the installed checks (checks.json), to tell a check id from a rule id. */
export function installedCheckIds(dir: string): string[] {
  const file = join(dir, CHECKS_FILE);
  return existsSync(file) ? parseChecksFile(readFileSync(file, "utf8"), file).map((c) => c.id) : [];
}

/** A line holdout's row in the Pulse page's shape (ids and counts; a session is a chance): its name says it is a rule line. */
export function pulseLineHoldout(r: LineHoldoutRow): ReturnType<typeof pulseHoldout> {
  const i = r.interval;
  return {
    check: `rule ${r.rule_id} (line)`,
    one_in: r.one_in,
    acting: { ...r.counts.in_force, sessions: r.treated_sessions },
    held_out: { ...r.counts.held, sessions: r.held_out_sessions.length },
    difference: i ? { value: i.difference, low: i.low, high: i.high } : null,
    held_out_sessions: r.held_out_sessions,
  };
}
