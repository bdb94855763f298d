import type { Upgrade } from "../../../schemas/daily.js";
import type { Erratum } from "../../../schemas/erratum.js";
import type { HostData } from "./host.js";
import { DAY_MS } from "./ids.js";
import { skillRates } from "./joins.js";

/**
 * Did a fix change its skill's complaint rate? The rate (complaints citing the skill's
 * outputs over outputs delivered) in the `days` before the pivot against the `days` after
 * it (cut at now while the after-window is still open).
 *
 * `raised` is true when the after-window has at least one complaint and its rate is above
 * the before-window's (a before-window with no outputs counts as rate 0). It is a flag for
 * a person to look at, not a significance test: with a handful of outputs a single
 * complaint moves the rate, and `after.outputs` says how much evidence there is.
 *
 * Example: before 2 complaints / 40 outputs (0.05), after 6 / 40 (0.15) -> `{change: 0.10, raised: true}`.
 */
export interface ImpactWindow {
  since: string;
  until: string;
  outputs: number;
  complaints: number;
  rate: number | null;
}

export interface Impact {
  skill: string;
  pivot: string;
  days: number;
  before: ImpactWindow;
  after: ImpactWindow;
  /** after.rate - before.rate; null when either has no outputs. */
  change: number | null;
  raised: boolean;
}

function windowOf(errata: readonly Erratum[], host: HostData, skill: string, sinceMs: number, untilMs: number): ImpactWindow {
  const row = skillRates(errata, host, sinceMs, untilMs).find((r) => r.skill === skill);
  return {
    since: new Date(sinceMs).toISOString(),
    until: new Date(untilMs).toISOString(),
    outputs: row?.outputs ?? 0,
    complaints: row?.complaints ?? 0,
    rate: row && row.outputs > 0 ? row.complaints / row.outputs : null,
  };
}

export function skillImpact(errata: readonly Erratum[], host: HostData, skill: string, pivotMs: number, days: number, nowMs: number): Impact {
  const before = windowOf(errata, host, skill, pivotMs - days * DAY_MS, pivotMs);
  const after = windowOf(errata, host, skill, pivotMs, Math.min(nowMs, pivotMs + days * DAY_MS));
  const change = before.rate !== null && after.rate !== null ? after.rate - before.rate : null;
  const raised = after.complaints > 0 && after.rate !== null && after.rate > (before.rate ?? 0);
  return { skill, pivot: new Date(pivotMs).toISOString(), days, before, after, change, raised };
}

export interface LandedImpact extends Impact {
  upgrade_id: string;
  status: string;
}

/** Every applied or verified upgrade that names a skill and when it landed. */
export function landedImpacts(errata: readonly Erratum[], host: HostData, upgrades: readonly Upgrade[], days: number, nowMs: number): LandedImpact[] {
  const out: LandedImpact[] = [];
  for (const u of upgrades) {
    if ((u.status !== "applied" && u.status !== "verified") || u.skill === null || u.applied_at === null) continue;
    const pivot = Date.parse(u.applied_at);
    if (!Number.isFinite(pivot) || pivot > nowMs) continue;
    out.push({ upgrade_id: u.id, status: u.status, ...skillImpact(errata, host, u.skill, pivot, days, nowMs) });
  }
  return out.sort((a, b) => a.pivot.localeCompare(b.pivot) || a.upgrade_id.localeCompare(b.upgrade_id));
}
