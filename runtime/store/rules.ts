/**
 * The validator's rules beyond the shape: what a well-formed line may still get wrong.
 *
 * - `machine-source-rating`: a machine source (hook, agent, job, backfill, detected) carries
 *   a rating. A rating is a number a person typed; a fabricated rating poisons every
 *   analysis built on it.
 * - `enrichment-without-model`: an enrichment that names no model.
 * - `rating-off-scale`: a rating outside 1-10.
 * - `unknown-system`: a system that is neither built in nor in `errata-systems.json`.
 * - `illegal-transition`: a status change the lifecycle does not allow (checked in fold.ts).
 * - `schema`: any other shape problem, with zod's path and message.
 *
 * Example: `checkErratumRules({...e, source: "hook", rating: 3}, systems)` ->
 * `[{ code: "machine-source-rating", message: "source \"hook\" is a machine source and
 * cannot carry a rating (expected rating null; found 3)" }]`
 */
import type { z } from "zod";
import type { Erratum, PatchSet } from "../../schemas/erratum.js";
import { RATING_MAX, RATING_MIN, isMachineSource } from "../../schemas/erratum-constants.js";

export interface RuleProblem {
  code: string;
  message: string;
}

export function checkErratumRules(e: Erratum, systems: ReadonlySet<string>): RuleProblem[] {
  const out: RuleProblem[] = [];
  if (isMachineSource(e.source) && e.rating !== null) {
    out.push({
      code: "machine-source-rating",
      message: `source "${e.source}" is a machine source and cannot carry a rating (expected rating null; found ${e.rating})`,
    });
  }
  if (!systems.has(e.system)) out.push(unknownSystem(e.system, systems));
  return out;
}

export function checkPatchRules(set: PatchSet, systems: ReadonlySet<string>): RuleProblem[] {
  return set.system !== undefined && !systems.has(set.system) ? [unknownSystem(set.system, systems)] : [];
}

function unknownSystem(name: string, systems: ReadonlySet<string>): RuleProblem {
  return {
    code: "unknown-system",
    message: `unknown system (expected one of ${[...systems].join(", ")}, or a name added to errata-systems.json; found "${name}")`,
  };
}

/** Turns zod issues into problems, naming the rules the issue text cannot. */
export function issuesToProblems(issues: readonly z.core.$ZodIssue[], value: unknown): RuleProblem[] {
  return issues.map((issue) => {
    const path = issue.path.map(String);
    const at = path.join(".");
    const found = describeAt(value, issue.path);
    const rel = path.at(-1);
    if (rel === "rating" && path.length <= 2) {
      return { code: "rating-off-scale", message: `rating off the scale (expected a number from ${RATING_MIN} to ${RATING_MAX} or null; found ${found})` };
    }
    if (path.includes("enrichment") && rel === "model") {
      return { code: "enrichment-without-model", message: `enrichment names no model (expected enrichment.model, a non-empty string; found ${found})` };
    }
    if (rel === "schema" && path.length === 1) {
      return { code: "unknown-schema", message: `unknown line schema (expected "erratum/1" or "erratum-patch/1"; found ${found})` };
    }
    return { code: "schema", message: `${at || "line"}: ${issue.message} (found ${found})` };
  });
}

function describeAt(value: unknown, path: readonly PropertyKey[]): string {
  let cur: unknown = value;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return "nothing";
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  if (cur === undefined) return "nothing";
  const text = JSON.stringify(cur) ?? String(cur);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
