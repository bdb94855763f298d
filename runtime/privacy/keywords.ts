/**
 * The gitleaks keywords the pre-filter (prefilter.ts) looks for, and the gates that spare most
 * of the searches in a fresh process: each gate is a piece of every keyword in its range, so a
 * text without the gate holds none of them (a search for a gate that is absent from the text
 * skips the whole range; gates nest). Why gates rather than a search per keyword: in a cold
 * hook process each of the ~200 searches costs a few thousand instructions, more than the
 * hook's whole budget for them; the gates were chosen on real replies (../shared/datasets) so
 * that a typical reply runs about half as many. test/privacy/prefilter.test.ts checks the
 * gates against their ranges and the list against gitleaks' data.
 *
 * Example: `firstKeyword("token ghp_x")` -> "ghp_"; `firstKeyword("run the tests")` -> undefined.
 */

/**
 * The keywords of every gitleaks rule the pre-filter does not witness (lower-case; a keyword
 * that contains another one is left out: the shorter one already answers), in the order of
 * their gates. gitleaks tries a rule only when one of its keywords occurs in the lower-cased
 * text (gitleaks.ts), so their absence proves those rules silent.
 */
export const GITLEAKS_KEYWORDS: readonly string[] = [
  "flwpubk_test", "flwseck_test", "rk_live", "rk_prod", "rk_test", "sk_live", "sk_prod", "sk_test",
  "bundle_enterprise__contribsys__com", "bundle_gems__contribsys__com", "clojars_", "ghs_", "ops_", "rubygems_",
  "shpss_", "sntrys_eyjpyxqio", "message_bird", "private_ai", "pscale_oauth_", "pscale_pw_", "pscale_tkn_", "rdme_",
  "doo_v1_", "dop_v1_", "dor_v1_", "fo1_", "ghp_", "shpat_", "shpca_", "shppa_", "npm_", "sm_aat", "sm_pat",
  "sm_sat", "api_org_", "co_api_key", "lin_api_", "ghu_", "pnu_", "sntryu_", "_gitlab_session=", "github_pat_",
  "gho_", "shippo_", "sgp_", "tfp_", "glc_", "glsa_", "_mmk", "duffel_", "fm2_", "ghr_", "hf_", "linked_in",
  "new_relic", "ntn_", "glagent-", "glcbt-", "gldt-", "glffct-", "glft-", "glimt-", "glpat-", "glptt-", "glrt-",
  "glsoat-", "sk-ant-admin01", "sk-ant-api03", "age-secret-key-1", "xoxa", "xoxb", "xoxe-", "xoxo", "xoxp-", "xoxr",
  "xoxs", "dropbox", "mapbox", "facebook", "incomingwebhook", "webhook.office.com", "webhookb2", "freshbooks",
  "hooks.slack.com", "heroku", "looker", "okta", "kraken", "meraki", "nrak", "akcp", "ezak", "pmak-", "gloas-",
  "nrjs-", "s-s4t2af-", "s-s4t2ud-", "tk-us-", "message-bird", "messagebird", "new-york-times", "newyorktimes",
  "nytimes", "eaaa", "eaac", "eaam", "hrku-aa", "absk", "enterprise.contribsys.com", "gems.contribsys.com",
  "hubspot", "private-ai", "privateai", "airtable", "aiza", "ltai", "mailchimp", "mailgun", "plaid", "dnkey",
  "linked-in", "linkedin", "bedrock-api-key-", "nrii-", "pypi-ageichlwas5vcmc", "bittrex", "gitter", "twitter",
  "eyjrijoi", "jfrog", "jira", "t3blbkfj", "flickr", "new-relic", "newrelic", "atlassian", "atlasv1", "fastly",
  "netlify", "-----begin", "sourcegraph", "telegr", "eztk", "zendesk", "zxlk", "dp.pt.", "pat.", "sat.", "adobe",
  "datadog", "confluence", "confluent", "coinbase", "kucoin", "sq0atp-", "squarespace", "sendbird", "sentry",
  "atatt3", "mattermost", "fio-u-", "ico-", "q~", "sha256~", "alibaba", "xkeysib-", "finicity", "finnhub",
  "gr1348941", "p8e-", "4b1d", "a3-", "adafruit", "algolia", "artifactory", "asana", "beamer", "bitbucket", "cmvmd",
  "codecov", "cohere", "contentful", "dapi", "discord", "droneci", "dt0c01.", "etsy", "fm1", "hvb.", "intercom",
  "intra", "launchdarkly", "linear", "pplx-", "pul-", "snyk", "sonar", "sumo", "travis", "twitch", "xapp", "xray",
  "yandex",
];

/**
 * The gates, three entries each: gate, from, to (every keyword in GITLEAKS_KEYWORDS[from, to)
 * holds the gate). Sorted by `from`, an enclosing range before the ranges inside it. Flat:
 * in a fresh process each array literal costs its own boilerplate, 50 of them more than the
 * searches they would spare.
 */
export const KEYWORD_GATES: readonly (string | number)[] = [
  "_", 0, 56, "k_", 0, 8, "s_", 8, 16, "e_", 16, 22, "1_", 22, 26, "hp", 26, 30, "m_", 30, 34, "i_", 34, 37,
  "u_", 37, 40, "b_", 40, 42, "o_", 42, 44, "p_", 44, 46, "gl", 46, 48, "t-", 56, 69, "gl", 56, 66, "sk-", 66, 68,
  "ox", 69, 78, "xo", 69, 76, "pb", 76, 78, "ok", 78, 87, "eb", 78, 82, "oks", 82, 84, "ak", 87, 93, "rak", 87, 90,
  "s-", 93, 98, "mes", 98, 103, "aa", 103, 107, "bs", 107, 111, "ai", 111, 119, "vat", 111, 113, "nke", 119, 122,
  "i-", 122, 125, "itt", 125, 128, "j", 128, 132, "lic", 132, 135, "tl", 135, 139, "eg", 139, 142, "z", 142, 145,
  "t.", 145, 148, "ado", 148, 150, "flu", 150, 152, "coi", 152, 154, "sq", 154, 156, "sen", 156, 158,
  "att", 158, 160, "o-", 160, 162, "~", 162, 164, "ib", 164, 166, "fin", 166, 168, "8", 168, 170,
];

/**
 * The first keyword (in the list's order) that the lower-cased text holds, or undefined: the
 * same answer as `GITLEAKS_KEYWORDS.find((k) => lower.includes(k))`, with a range skipped
 * whole when its gate is absent.
 */
export function firstKeyword(lower: string): string | undefined {
  const n = GITLEAKS_KEYWORDS.length;
  let g = 0;
  for (let i = 0; i < n; ) {
    if (g < KEYWORD_GATES.length && KEYWORD_GATES[g + 1] === i) {
      if (lower.includes(KEYWORD_GATES[g] as string)) g += 3;
      else {
        i = KEYWORD_GATES[g + 2] as number;
        while (g < KEYWORD_GATES.length && (KEYWORD_GATES[g + 1] as number) < i) g += 3;
      }
      continue;
    }
    const kw = GITLEAKS_KEYWORDS[i]!;
    if (lower.includes(kw)) return kw;
    i++;
  }
  return undefined;
}
