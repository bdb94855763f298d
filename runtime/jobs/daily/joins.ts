import type { Erratum } from "../../../schemas/erratum.js";
import type { HostOutput } from "../../../schemas/host.js";
import { inWindow, isRateComplaint } from "./complaints.js";
import type { HostData } from "./host.js";

/**
 * Joins complaints to the host's outputs and receipts through `context.output_ids`.
 *
 * Per-skill rate: complaints citing at least one output of the skill, over the outputs of
 * that skill delivered in the window. A complaint citing outputs of two skills counts once
 * for each. Detected rows never count.
 *
 * False pass: a complaint citing exactly one output whose newest receipt passed. A
 * complaint citing several outputs does not say which one it is about, so it names none
 * (counted as `ambiguous`). A single-output complaint whose output has no receipt is
 * `unchecked`; one whose receipt failed was `caught`.
 *
 * Example: outputs o1 (skill a, receipt passed), o2 (skill a, no receipt); complaints c1
 * citing [o1], c2 citing [o1, o2] -> skills: `[{skill: "a", outputs: 2, complaints: 2, rate: 1}]`,
 * false passes: `[{erratum_id: c1, output_id: o1, skill: "a"}]`, ambiguous: 1.
 */
export interface SkillRate {
  skill: string;
  outputs: number;
  complaints: number;
  /** complaints / outputs; null when no output was delivered in the window. */
  rate: number | null;
  complaint_ids: string[];
}

const NO_SKILL = "(none)";

function skillOf(o: HostOutput | undefined): string {
  return o?.skill ?? NO_SKILL;
}

export function skillRates(errata: readonly Erratum[], host: HostData, sinceMs: number, untilMs: number): SkillRate[] {
  const rows = new Map<string, SkillRate>();
  const row = (skill: string): SkillRate => {
    let r = rows.get(skill);
    if (!r) rows.set(skill, (r = { skill, outputs: 0, complaints: 0, rate: null, complaint_ids: [] }));
    return r;
  };
  for (const o of host.outputs.values()) if (inWindow(o.ts, sinceMs, untilMs)) row(skillOf(o)).outputs++;
  for (const e of errata) {
    if (!isRateComplaint(e) || !inWindow(e.ts, sinceMs, untilMs)) continue;
    const skills = new Set<string>();
    for (const id of e.context.output_ids) {
      const o = host.outputs.get(id);
      if (o) skills.add(skillOf(o));
    }
    for (const s of skills) {
      const r = row(s);
      r.complaints++;
      r.complaint_ids.push(e.id);
    }
  }
  for (const r of rows.values()) r.rate = r.outputs > 0 ? r.complaints / r.outputs : null;
  return [...rows.values()].sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1) || b.complaints - a.complaints || a.skill.localeCompare(b.skill));
}

export interface FalsePass {
  erratum_id: string;
  output_id: string;
  skill: string | null;
  receipt_id: string;
  ts: string;
}

export interface MissesResult {
  false_passes: FalsePass[];
  /** Single-output complaints whose receipt failed: the check caught it. */
  caught: number;
  /** Single-output complaints whose output has no receipt. */
  unchecked: number;
  /** Complaints citing several outputs (they name none). */
  ambiguous: number;
  /** Complaints citing outputs the host's file does not hold. */
  unresolved: number;
  considered: number;
}

/** The claim a false pass is filed under: one upgrade per output, however many complaints cite it. */
export function falsePassClaim(outputId: string): string {
  return `false-pass output=${outputId}`;
}

export function findMisses(errata: readonly Erratum[], host: HostData, sinceMs = -Infinity, untilMs = Infinity): MissesResult {
  const res: MissesResult = { false_passes: [], caught: 0, unchecked: 0, ambiguous: 0, unresolved: 0, considered: 0 };
  for (const e of errata) {
    if (!isRateComplaint(e) || e.context.output_ids.length === 0) continue;
    if (!inWindow(e.ts, sinceMs, untilMs)) continue;
    res.considered++;
    const ids = [...new Set(e.context.output_ids)];
    if (ids.length > 1) {
      res.ambiguous++;
      continue;
    }
    const id = ids[0]!;
    const out = host.outputs.get(id);
    const receipt = host.receipts.get(id);
    if (!out && !receipt) {
      res.unresolved++;
      continue;
    }
    if (!receipt) res.unchecked++;
    else if (!receipt.passed) res.caught++;
    else res.false_passes.push({ erratum_id: e.id, output_id: id, skill: out?.skill ?? receipt.skill ?? null, receipt_id: receipt.id, ts: e.ts });
  }
  return res;
}

export interface ModelRate {
  model: string;
  complaints: number;
  outputs: number;
  rate: number | null;
}

/** Complaints by the assistant model that produced the reply (`context.model`), beside the outputs the host delivered with it. */
export function modelRates(errata: readonly Erratum[], host: HostData, sinceMs: number, untilMs: number): ModelRate[] {
  const rows = new Map<string, ModelRate>();
  const row = (model: string): ModelRate => {
    let r = rows.get(model);
    if (!r) rows.set(model, (r = { model, complaints: 0, outputs: 0, rate: null }));
    return r;
  };
  for (const o of host.outputs.values()) if (inWindow(o.ts, sinceMs, untilMs) && o.model) row(o.model).outputs++;
  for (const e of errata) if (isRateComplaint(e) && inWindow(e.ts, sinceMs, untilMs)) row(e.context.model ?? "(unknown)").complaints++;
  for (const r of rows.values()) r.rate = r.outputs > 0 ? r.complaints / r.outputs : null;
  return [...rows.values()].sort((a, b) => b.complaints - a.complaints || a.model.localeCompare(b.model));
}
