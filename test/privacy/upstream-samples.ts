/**
 * The upstream scanners' samples (`upstream-secret-fixtures/fixtures.json` of the shared data
 * sets) and their splits, for upstream-fixtures.test.ts and betterleaks-import.test.ts.
 *
 * Splits: "dev" is what the redactor was tuned on (gitleaks' samples and betterleaks' samples of
 * rules whose id hashes even, or whose text gitleaks has too); "betterleaks odd" is betterleaks'
 * other rules' samples, held out until issue 34's tenth pass and dev since (reported at every
 * pass before, as the held-out door sets became dev after their first runs), kept apart so that
 * its figures still compare; "held-out secretlint" is all of secretlint's, read only to report.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { UPSTREAM_FIXTURES } from "../helpers/skips.js";

export interface Sample {
  source: string;
  rule: string;
  expect: "secret" | "clean";
  text: string;
  /** secretlint: the expected findings' ranges. */
  spans?: Array<[number, number]>;
}

export const haveSamples = existsSync(UPSTREAM_FIXTURES);
export const samples: Sample[] = haveSamples ? (JSON.parse(readFileSync(UPSTREAM_FIXTURES, "utf8")) as { samples: Sample[] }).samples : [];

export type Split = "dev" | "betterleaks odd" | "held-out secretlint";
const gitleaksTexts = new Set(samples.filter((s) => s.source === "gitleaks").map((s) => s.text));
export function splitOf(s: Sample): Split {
  if (s.source === "secretlint") return "held-out secretlint";
  const odd = (createHash("sha256").update(s.rule.replace(/\.\d+$/, "")).digest()[0]! & 1) === 1;
  return s.source === "betterleaks" && odd && !gitleaksTexts.has(s.text) ? "betterleaks odd" : "dev";
}
