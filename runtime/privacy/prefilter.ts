/**
 * The redactor's pre-filter: a cheap, generous test that proves a text holds nothing any rule
 * of the redactor (own-rules.ts, gitleaks' rules in gitleaks-rules.json) could replace, so
 * that most texts never load or compile the full rule set (the hook's capture part loads the
 * redactor as a separate bundle part only when this says "maybe"; docs/privacy.md "Cost").
 *
 * It is a superset of every rule: for each rule it checks a condition that every match of
 * that rule must meet (a literal the match contains, a keyword gitleaks gates the rule on, or
 * a relaxation of the rule's pattern), and answers true when any holds. So `false` is a proof
 * that the redactor would return the text unchanged; `true` only means "run the redactor".
 * test/privacy/prefilter.test.ts proves it over the secret corpus and with fast-check over
 * texts made from every rule's own pattern; when gitleaks' data or an own rule changes, that
 * test names the rule this file no longer covers.
 *
 * Example: `mayHoldSecret("add a retry to the fetch call")` -> false;
 * `mayHoldSecret("export DB_PASSWORD=hunter2x9")` -> true.
 */
import { KeywordGate } from "./keyword-gate.js";

/**
 * gitleaks rules covered by a witness below rather than by their keywords: rules whose
 * keywords are common in ordinary text ("key", "api", "s.", "ey", "sk", "test_"...).
 */
export const WITNESSED_GITLEAKS_RULES = [
  "generic-api-key",
  "vault-service-token",
  "jwt",
  "twilio-api-key",
  "cloudflare-api-key",
  "cloudflare-global-api-key",
  "cloudflare-origin-ca-key",
  "authress-service-client-access-key",
  "lob-api-key",
  "lob-pub-api-key",
  "gocardless-api-token",
  "octopus-deploy-api-key",
  "sendgrid-api-token",
  "aws-access-token",
  "curl-auth-header",
  "curl-auth-user",
] as const;

/**
 * The keywords of every other gitleaks rule (lower-case; a keyword that contains another one
 * is left out: the shorter one already answers). gitleaks tries a rule only when one of its
 * keywords occurs in the lower-cased text (gitleaks.ts), so their absence proves those rules
 * silent. The test checks this list against the data.
 */
export const GITLEAKS_KEYWORDS: readonly string[] = [
  "-----begin", "4b1d", "_gitlab_session=", "_mmk", "a3-", "absk", "adafruit", "adobe", "age-secret-key-1", "airtable", "aiza", "akcp",
  "algolia", "alibaba", "api_org_", "artifactory", "asana", "atatt3", "atlassian", "atlasv1", "beamer", "bedrock-api-key-", "bitbucket",
  "bittrex", "bundle_enterprise__contribsys__com", "bundle_gems__contribsys__com", "clojars_", "cmvmd", "co_api_key", "codecov", "cohere",
  "coinbase", "confluence", "confluent", "contentful", "dapi", "datadog", "discord", "dnkey", "doo_v1_", "dop_v1_", "dor_v1_",
  "dp.pt.", "droneci", "dropbox", "dt0c01.", "duffel_", "eaaa", "eaac", "eaam", "enterprise.contribsys.com", "etsy", "eyjrijoi", "ezak",
  "eztk", "facebook", "fastly", "finicity", "finnhub", "fio-u-", "flickr", "flwpubk_test", "flwseck_test", "fm1", "fm2_", "fo1_",
  "freshbooks", "gems.contribsys.com", "gho_", "ghp_", "ghr_", "ghs_", "ghu_", "github_pat_", "gitter", "glagent-", "glc_", "glcbt-",
  "gldt-", "glffct-", "glft-", "glimt-", "gloas-", "glpat-", "glptt-", "glrt-", "glsa_", "glsoat-", "gr1348941", "heroku", "hf_",
  "hooks.slack.com", "hrku-aa", "hubspot", "hvb.", "ico-", "incomingwebhook", "intercom", "intra", "jfrog", "jira", "kraken", "kucoin",
  "launchdarkly", "lin_api_", "linear", "linked-in", "linked_in", "linkedin", "looker", "ltai", "mailchimp", "mailgun", "mapbox",
  "mattermost", "meraki", "message-bird", "message_bird", "messagebird", "netlify", "new-relic", "new-york-times", "new_relic", "newrelic",
  "newyorktimes", "npm_", "nrak", "nrii-", "nrjs-", "ntn_", "nytimes", "okta", "ops_", "p8e-", "pat.", "plaid", "pmak-", "pnu_", "pplx-",
  "private-ai", "private_ai", "privateai", "pscale_oauth_", "pscale_pw_", "pscale_tkn_", "pul-", "pypi-ageichlwas5vcmc", "q~", "rdme_",
  "rk_live", "rk_prod", "rk_test", "rubygems_", "s-s4t2af-", "s-s4t2ud-", "sat.", "sendbird", "sentry", "sgp_", "sha256~", "shippo_",
  "shpat_", "shpca_", "shppa_", "shpss_", "sk-ant-admin01", "sk-ant-api03", "sk_live", "sk_prod", "sk_test", "sm_aat", "sm_pat", "sm_sat",
  "sntrys_eyjpyxqio", "sntryu_", "snyk", "sonar", "sourcegraph", "sq0atp-", "squarespace", "sumo", "t3blbkfj", "telegr", "tfp_", "tk-us-",
  "travis", "twitch", "twitter", "webhook.office.com", "webhookb2", "xapp", "xkeysib-", "xoxa", "xoxb", "xoxe-", "xoxo", "xoxp-", "xoxr",
  "xoxs", "xray", "yandex", "zendesk", "zxlk",
];

/**
 * Literals (case as written) of which every match of some rule holds one: own rules' private
 * key block, Bearer header, JWT and provider prefixes; AWS key ids (own rule and gitleaks'
 * aws-access-token, whose pattern is case-sensitive); Octopus Deploy's "API-" (gitleaks,
 * case-sensitive); Cloudflare's origin CA key prefix; Authress keys' ".acc_"/".acc-" part.
 */
const LITERALS = [
  "-----BEGIN ", "Bearer", "eyJ", "hf_", "xox", "gsk_", "xai-", "r8_",
  "AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "A3T",
  "API-", "v1.0-", ".acc_", ".acc-",
];

/** Lower-case literals: basic-auth needs "Authorization:"; password-flag a tool's name; gocardless its name. */
const LOWER_LITERALS = ["authorization", "sshpass", "mysql", "mariadb", "redis-cli", "psql", "smbclient", "htpasswd", "gocardless"];

/**
 * Relaxations of rule patterns, each tried only when its literal is in the text. A witness
 * matches wherever its rule matches (its pattern with the rule's tail cut off, or its
 * character classes widened), so a text none of them matches holds no match of those rules.
 */
const WITNESSES: ReadonlyArray<{ need: string; lower: boolean; re: RegExp }> = [
  // gitleaks' generic rule: a secret word, up to 20 name characters, an operator, then a value
  // of its characters ([\w.=-] or [a-z0-9+/], both under the `i` flag); at least 12 of them,
  // since the rule keeps only values above 3.5 bits of entropy a character (12 distinct ones).
  {
    need: "",
    lower: false,
    re: /(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token)[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[`'"\s=]{0,5}[\w.=+/-]{12}/i,
  },
  // The own named-value rules: NAME=value / NAME: value (quoted or not; a value of 4 or more
  // characters, not starting with "$", "<", "{", "[" or "/", which the rule leaves: references,
  // placeholders, markers, paths), and <NAME>value</NAME>: every secret name ends with one of
  // these words.
  { need: "", lower: false, re: /(?:keys?|token|secret|passw(?:or)?d|pwd|pass(?:phrase)?|credentials?|auth)["']?\s*[:=]\s*["']?[^\s"',;`$<{[/][^\s"',;`]{3}/i },
  { need: ">", lower: false, re: /(?:keys?|token|secret|passw(?:or)?d|pwd|pass(?:phrase)?|credentials?|auth)>[^<\s]{4}/i },
  // The own aws-secret-key rule (its value may start with "/").
  { need: "secret", lower: true, re: /secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}/i },
  // The own name/value-pair rule (Kubernetes and Compose env lists).
  { need: "value", lower: true, re: /name:[\s\S]*?value:/i },
  // gitleaks' vault-service-token ("s." and 24 letters or digits, or "hvs." and 90 of [\w-]),
  // jwt, twilio-api-key, the lob keys.
  { need: "s.", lower: false, re: /s\.[\w-]{24}/ },
  { need: "ey", lower: false, re: /ey[a-zA-Z0-9]{17,}\.ey/ },
  { need: "SK", lower: false, re: /SK[0-9a-fA-F]{32}/ },
  { need: "_", lower: false, re: /(?:live|test)_(?:pub_)?[a-f0-9]{31}/i },
  // The own openai-api-key and anthropic-api-key rules: "sk-" at a token's start.
  { need: "sk-", lower: false, re: /(?<![A-Za-z0-9_-])sk-/ },
  // gitleaks' curl-auth-header (an Authorization, key or token header) and curl-auth-user (-u).
  { need: "curl", lower: true, re: /(?:-H|--header)(?:=|[ \t]{0,5})["'](?:authorization:|[\w-]*(?:key|token):)/i },
  { need: "curl", lower: true, re: /[ \t\n\r](?:-u|--user)/ },
  // gitleaks' sendgrid-api-token.
  { need: "SG.", lower: false, re: /SG\.[\w=.-]{66}/ },
  // gitleaks' cloudflare-api-key and cloudflare-global-api-key: the generic shape after
  // "cloudflare", with a value of 37 ([a-f0-9]) or 40 ([a-z0-9_-]) characters.
  { need: "cloudflare", lower: true, re: /cloudflare[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[`'"\s=]{0,5}[\w-]{37}/i },
  // The own url-password rule: scheme://user:password@host.
  { need: "@", lower: false, re: /:\/\/[^\s:/@?#]{0,256}:[^\s@/?#]{1,256}@/ },
  // The own e-mail rule: a local part, "@", a domain label and a dot.
  { need: "@", lower: false, re: /[A-Za-z0-9._%+-]@[A-Za-z0-9-]+\./ },
];

/** The own named-in-prose rule without its check of the token (letters, digits, entropy). */
const PROSE = /(?:key|token|secret|passw(?:or)?d|pwd|passphrase|credential)s?\s+(?:(?:is|was|are)\s+)?(?:[=:]\s*)?[A-Za-z0-9_\-+/=.]{16}/i;

/**
 * The longest runs of token characters in a text, by what they hold. `narrow` runs are of
 * [A-Za-z0-9_-] (the bodies of prefixed tokens and URL path tokens); `wide` runs add
 * [.~+/=] (the tokens of the named-in-prose rule).
 */
interface Runs {
  /** A narrow run of at least 23 characters with an upper-case letter, a lower-case one and a digit. */
  mixedNarrow23: boolean;
  /** A wide run of at least 16 characters with a letter and at least two digits. */
  wide16Digits: boolean;
}

const UPPER = 1;
const LOWER = 2;
const DIGIT = 4;

/** Why hand-written: one pass over the char codes, no regex compiled, no string made. */
function scanRuns(text: string): Runs {
  const runs: Runs = { mixedNarrow23: false, wide16Digits: false };
  let nLen = 0;
  let nMask = 0;
  let wLen = 0;
  let wLetter = false;
  let wDigits = 0;
  const endNarrow = (): void => {
    if (nLen >= 23 && nMask === (UPPER | LOWER | DIGIT)) runs.mixedNarrow23 = true;
    nLen = 0;
    nMask = 0;
  };
  const endWide = (): void => {
    if (wLen >= 16 && wLetter && wDigits >= 2) runs.wide16Digits = true;
    wLen = 0;
    wLetter = false;
    wDigits = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let cls = 0;
    if (c >= 97 && c <= 122) cls = LOWER;
    else if (c >= 65 && c <= 90) cls = UPPER;
    else if (c >= 48 && c <= 57) cls = DIGIT;
    if (cls !== 0 || c === 95 /* _ */ || c === 45 /* - */) {
      nLen++;
      nMask |= cls;
      wLen++;
      if (cls === DIGIT) wDigits++;
      else if (cls !== 0) wLetter = true;
      continue;
    }
    endNarrow();
    if (c === 46 /* . */ || c === 126 /* ~ */ || c === 43 /* + */ || c === 47 /* / */ || c === 61 /* = */) wLen++;
    else endWide();
  }
  endNarrow();
  endWide();
  return runs;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** [A-Za-z0-9_+/=-], and with `dotColon` also "." and ":" (the clipped-token rule's runs). */
const isClipRunChar = (c: number, dotColon: boolean): boolean =>
  isDigit(c) || isLetter(c) || c === 95 || c === 45 || c === 43 || c === 47 || c === 61 || (dotColon && (c === 46 || c === 58));

/**
 * Whether a run right before or after a "…" could be what the own clipped-token rule takes:
 * 12 or more of its characters, with a letter and two digits (its looksRandom test, on the
 * run or a part of it). Why hand-written: a regex cannot count the digits of a run.
 */
function clippedRun(text: string): boolean {
  for (let at = text.indexOf("…"); at >= 0; at = text.indexOf("…", at + 1)) {
    for (const dir of [-1, 1]) {
      let len = 0;
      let digits = 0;
      let letter = false;
      for (let i = dir < 0 ? at - 1 : at + 1; i >= 0 && i < text.length; i += dir) {
        const c = text.charCodeAt(i);
        if (!isClipRunChar(c, dir < 0)) break;
        len++;
        if (isDigit(c)) digits++;
        else if (isLetter(c)) letter = true;
      }
      if (len >= 12 && digits >= 2 && letter) return true;
    }
  }
  return false;
}

/** False only when no rule of the redactor can match `text` (see the file's comment). */
export function mayHoldSecret(text: string): boolean {
  return prefilterReason(text) !== null;
}

/**
 * Which condition keeps `text` from being cleared ("literal sk-", "witness 2", "keyword jira"),
 * or null when none holds (for the bench's report of what real texts trip).
 */
export function prefilterReason(text: string): string | null {
  for (const l of LITERALS) if (text.includes(l)) return `literal ${l}`;
  const lower = text.toLowerCase();
  for (const l of LOWER_LITERALS) if (lower.includes(l)) return `literal ${l}`;
  const runs = scanRuns(text);
  // Own prefixed-token and url-token rules: a token body with both cases and a digit.
  if (runs.mixedNarrow23) return "mixed run";
  // Own clipped-token rule: a run against a clip mark with a letter and two digits.
  if (text.includes("…") && clippedRun(text)) return "clipped run";
  // Own named-in-prose rule: a secret word, then a token with a letter and two digits.
  if (runs.wide16Digits && PROSE.test(text)) return "prose word and token";
  for (let i = 0; i < WITNESSES.length; i++) {
    const w = WITNESSES[i]!;
    if (w.need !== "" && !(w.lower ? lower : text).includes(w.need)) continue;
    if (w.re.test(text)) return `witness ${i}`;
  }
  const gate = new KeywordGate(lower);
  const k = GITLEAKS_KEYWORDS.find((kw) => gate.has(kw));
  return k === undefined ? null : `keyword ${k}`;
}
