/**
 * The candidate rule sets as redactors over the corpus, for the comparison in
 * docs/privacy.md: secretlint's recommended preset (its findings' ranges masked), gitleaks'
 * rules alone (as the redactor runs them), the redactor's own rules alone, and the kept
 * combination (`redactSecrets`). A secret is missed when any piece of it survives
 * (corpus.ts `leakIn`); a look-alike is hurt when its text changes.
 */
import { lintSource } from "@secretlint/core";
import { creator as preset } from "@secretlint/secretlint-rule-preset-recommend";
import { redactSecrets, redactWithRuleSet } from "../../runtime/privacy/redact.js";
import { leakIn, type LookAlike, type SecretCase } from "./corpus.js";

export type Redactor = (text: string) => Promise<string> | string;

export async function secretlintRedact(text: string): Promise<string> {
  const result = await lintSource({
    source: { content: text, filePath: "corpus.txt", contentType: "text" },
    options: { config: { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: preset }] }, noPhysicFilePath: true },
  });
  let out = text;
  // Mask from the end so earlier ranges stay valid.
  for (const m of [...result.messages].sort((a, b) => b.range[0] - a.range[0])) out = `${out.slice(0, m.range[0])}[REDACTED:${m.ruleId}]${out.slice(m.range[1])}`;
  return out;
}

export const REDACTORS: Record<string, Redactor> = {
  "secretlint preset": secretlintRedact,
  "gitleaks rules": (t) => redactWithRuleSet(t, "gitleaks").text,
  "own rules": (t) => redactWithRuleSet(t, "own").text,
  "kept (gitleaks + own)": (t) => redactSecrets(t).text,
};

export interface Score {
  missed: string[];
  hurt: string[];
}

export async function score(redact: Redactor, secrets: SecretCase[], lookAlikes: LookAlike[]): Promise<Score> {
  const missed: string[] = [];
  const hurt: string[] = [];
  for (const s of secrets) if (leakIn(await redact(s.text), s.secret) !== null) missed.push(s.id);
  for (const l of lookAlikes) if ((await redact(l.text)) !== l.text) hurt.push(l.id);
  return { missed, hurt };
}

