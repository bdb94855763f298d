/**
 * The upstream projects' own per-rule samples (gitleaks' and betterleaks' `tps`/`fps`, written
 * as literals in their rule generators, and secretlint's rule snapshots; MIT all three),
 * extracted by scripts/extract-upstream-fixtures.js into `upstream-secret-fixtures/fixtures.json`
 * of the shared data sets (what is fetched from a repository is not committed here).
 * docs/privacy.md ("Upstream samples") lists every exception and why, and the figures per split.
 * The samples and their splits (dev, held-out): upstream-samples.ts.
 */
import { describe, expect, it } from "vitest";
import { redactAll } from "../../runtime/privacy/engine.js";
import { gitleaksFindings, gitleaksRule, gitleaksRules } from "../../runtime/privacy/gitleaks.js";
import { DEV_CHANGED, sampleKey } from "./upstream-changed.js";
import { haveSamples as have, samples, splitOf, type Sample, type Split } from "./upstream-samples.js";

/**
 * True samples the redactor leaves as they are, by rule (docs/privacy.md lists each with its
 * reason): betterleaks rules gitleaks' data lacks, for identifiers, hosts and URLs that are no
 * secret, values the placeholder filter keeps, and provider formats no rule here knows.
 */
const MISSED_ON_PURPOSE = new Set([
  "aikido-client-id", "airtable-oauth-token", "artifactory-jfrog-url", "canva-client-id", "cfxre-server-key", "cloudinary-cloud-name", "cloudinary-api-key",
  "coveralls-personal-api-token", "ebay-client-id", "figma-personal-access-token", "ibm-cloud-user-api-key", "lark-app-id", "planetscale-id",
  "salesforce-instance-url.1", "salesforce-access-token.1", "slack-session-token", "snowflake-account-host.1", "supabase-management-token",
  "supabase-project-url", "tableau-personal-access-token-name.1", "tableau-server-host.1", "wakatime-api-key.1", "gcp-service-account",
]);
/**
 * Provider formats missed that are secrets: known gaps (docs/privacy.md). ClickHouse Cloud's key
 * ids have no format their provider documents; the others of the first list (Alibaba STS,
 * CircleCI, CockroachDB, Devin, Fly.io) are caught since (own-rules.ts), and Gumroad's tokens
 * since the tenth pass (own-oauth-tokens.ts: its OAuth server's documented token formats).
 */
const KNOWN_GAPS = new Set(["clickhouse-cloud-key-id"]);

/** A false sample of one rule that another gitleaks rule (its allowlists honoured) finds a secret in. */
function anotherRuleFinds(s: Sample): boolean {
  const own = s.rule.replace(/\.\d+$/, "");
  const lower = s.text.toLowerCase();
  return gitleaksRules().some((r) => r.id !== own && gitleaksFindings(r, s.text, { has: (k) => lower.includes(k) }).length > 0);
}

/**
 * secretlint's expected findings the redactor leaves whole, each on purpose (docs/privacy.md):
 * placeholders typed by hand (runs of one letter, the alphabet or digits in order, "Example"),
 * Azure ids that are no secret, secretlint's own example rule ("SECRET"), and a bare 64-digit
 * hex key no pattern can tell from a SHA-256 digest.
 */
const SECRETLINT_KEPT = new Set([
  "azure/ng.ad_tenant_id#0", "azure/ng.azure_client_id#0", "databricks/ng.secret#0", "databricks/ng.secret#1",
  "docker/ng.docker-pat#0", "example/ng.secret#0", "figma/ng.secret#0", "filter-comments/ng.secretlint-disable-line#0",
  "filter-comments/ng.secretlint-disable-next-line#0", "filter-comments/ng.secretlint-disable-secretlint-enable#0", "filter-comments/ng.secretlint-disable-target-id#0",
  "grafana/ng.service_account_token#0", "groq/ng.secret#0", "groq/ng.secret#1", "huggingface/ng.secret#0", "notion/ng.secret#2",
  "slack/ng.IncomingWebhook#0", "stripe/ng.secret#0", "stripe/ng.secret#1", "stripe/ng.secret#2", "stripe/ng.secret#3",
  "tailscale/ng.api-key#0", "tailscale/ng.auth-key#0", "tailscale/ng.boundary-non-letter#0", "tailscale/ng.boundary-non-letter#1", "tailscale/ng.client-key#0",
  "tailscale/ng.scim-key#0", "tailscale/ng.unknown-type#0", "tailscale/ng.webhook-key#0", "vercel/ng.secret#0", "vercel/ng.secret#1", "vercel/ng.secret#3", "vercel/ng.secret#4",
]);

/**
 * False samples changed, per split, as measured (docs/privacy.md): ceilings, so that a change
 * that redacts more of them fails here. "all": every false sample; "clean": those no other
 * gitleaks rule finds a secret in either. The goal is 5%; it is not met.
 */
const CEILINGS: Record<Split, { all: number; clean: number }> = {
  dev: { all: 58 / 703, clean: 26 / 654 },
  // Held out until the tenth pass (its last held-out figure, main at 17d1822: 51/136, 20/103); dev since.
  "betterleaks odd": { all: 46 / 136, clean: 15 / 103 },
  "held-out secretlint": { all: 11 / 39, clean: 10 / 38 },
};

describe.skipIf(!have)("upstream samples (gitleaks, betterleaks, secretlint)", () => {
  const out = new Map(samples.map((s) => [s, redactAll(s.text).text]));

  it("no marker inside a marker; no secret a gitleaks rule finds is left whole or in part", () => {
    const partial: string[] = [];
    for (const s of samples) {
      // Markers out before the runs are looked for: a marker's kind may hold one (configcat-sdk-1/…).
      const text = out.get(s)!.replace(/\[REDACTED:[^\]]*\]/g, " ");
      expect(out.get(s)!, s.rule).not.toMatch(/\[REDACTED:[^\]]*\[REDACTED:/);
      if (s.expect !== "secret" || s.spans !== undefined) continue;
      const r = gitleaksRule(s.rule.replace(/\.\d+$/, ""));
      if (r === null) continue;
      const lower = s.text.toLowerCase();
      for (const [a, b] of gitleaksFindings(r.rule, s.text, { has: (k) => lower.includes(k) })) {
        const secret = s.text.slice(a, b);
        for (let i = 0; i + 8 <= secret.length; i++) if (/^[A-Za-z0-9]{8}$/.test(secret.slice(i, i + 8)) && text.includes(secret.slice(i, i + 8))) partial.push(`${s.rule}: ${secret.slice(i, i + 8)}`);
      }
    }
    expect(partial).toEqual([]);
  });

  it("every true sample is redacted, but for the rules listed in docs/privacy.md", () => {
    const missed = [...new Set(samples.filter((s) => s.expect === "secret" && s.spans === undefined && out.get(s) === s.text).map((s) => s.rule))].sort();
    expect(missed.filter((r) => !MISSED_ON_PURPOSE.has(r) && !KNOWN_GAPS.has(r))).toEqual([]);
  });

  it("secretlint: every expected finding is redacted (whole, and its longest run of 8+ letters and digits gone), but those listed", () => {
    const kept: string[] = [];
    for (const s of samples) {
      if (s.spans === undefined) continue;
      const text = out.get(s)!;
      s.spans.forEach(([a, b], i) => {
        const runs = (s.text.slice(a, b).match(/[A-Za-z0-9]{8,}/g) ?? []).sort((x, y) => y.length - x.length);
        const whole = s.text.slice(a, b);
        if (text.includes(whole) || (runs[0] !== undefined && text.includes(runs[0]) && !/:\/\//.test(whole))) kept.push(`${s.rule}#${i}`);
      });
    }
    // Exactly those: one redacted since is taken off the list.
    expect(kept.sort()).toEqual([...SECRETLINT_KEPT].sort());
  });

  it("dev: exactly the false samples upstream-changed.ts lists change, each for the reason it gives", () => {
    const changed = samples.filter((s) => s.expect === "clean" && splitOf(s) === "dev" && out.get(s) !== s.text).map(sampleKey);
    expect(changed.sort()).toEqual(Object.keys(DEV_CHANGED).sort());
    // The reasons that say another rule reports the sample are that rule's verdict, not a guess.
    for (const s of samples.filter((x) => x.expect === "clean" && splitOf(x) === "dev")) {
      const why = DEV_CHANGED[sampleKey(s)];
      if (why === undefined) continue;
      const byRule = why === "random value under a secret's name" || why === "placeholder upstream also calls a secret" || why === "JWT" || why === "another provider's format";
      const trueElsewhere = samples.some((t) => t.expect === "secret" && t.text === s.text && t.rule !== s.rule);
      if (why === "another rule's true sample") expect(trueElsewhere || anotherRuleFinds(s), sampleKey(s)).toBe(true);
      else expect(anotherRuleFinds(s), sampleKey(s)).toBe(byRule);
    }
  });

  it("false samples changed, per split: no more than measured (docs/privacy.md; the goal is 5%)", () => {
    const rows: string[] = [];
    const checks: Array<() => void> = [];
    for (const split of Object.keys(CEILINGS) as Split[]) {
      const clean = samples.filter((s) => s.expect === "clean" && splitOf(s) === split);
      const other = new Set(clean.filter(anotherRuleFinds));
      const hurt = clean.filter((s) => out.get(s) !== s.text);
      const hurtClean = hurt.filter((s) => !other.has(s));
      const all = hurt.length / clean.length;
      const cleanRate = hurtClean.length / (clean.length - other.size);
      rows.push(`${split}: ${hurt.length}/${clean.length} (${(100 * all).toFixed(1)}%); no other gitleaks rule: ${hurtClean.length}/${clean.length - other.size} (${(100 * cleanRate).toFixed(1)}%)`);
      checks.push(() => {
        expect(all, split).toBeLessThanOrEqual(CEILINGS[split].all + 1e-9);
        expect(cleanRate, split).toBeLessThanOrEqual(CEILINGS[split].clean + 1e-9);
      });
    }
    // Printed before any check fails, so a run that breaks a ceiling still shows every split.
    process.stdout.write(`upstream false samples changed: ${rows.join("; ")}\n`);
    for (const check of checks) check();
  });
});
