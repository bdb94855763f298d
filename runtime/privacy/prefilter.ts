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
import { tokenRuns } from "./token-runs.js";
import { KEY_PROSE, KEY_WORDS, MORE_PROSE_WORDS, PLACE_WITNESSES } from "./witness-places.js";
import { importedKeywords } from "./imported-rules.js";
import { FAMILY_WITNESSES, proseKeyWitness, proseWitness } from "./witness-families.js";
import { SILENT_KINDS, tenthScans, TENTH_WITNESSES } from "./witness-families-10.js";
import { ABLY_SHAPE, PORT_BETWEEN_COLONS } from "./witness-gates.js";
import { mayHaveContextHit } from "./reader-gates.js"; import { loadReaders } from "./readers-load.js";

export { WITNESSED_GITLEAKS_RULES } from "./witnessed.js"; export { KEY_WORDS } from "./witness-places.js";

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
 * Literals (case as written) of which every match of the named rules holds one (rules are
 * named "own:<kind>" and "gitleaks:<id>"): own rules' private key block, Bearer header, JWT and
 * provider prefixes; AWS key ids (own rule and gitleaks' aws-access-token, whose pattern is
 * case-sensitive; with the pair's secret after one, as written or as a marker); Octopus Deploy's "API-" (gitleaks, case-sensitive); Cloudflare's origin CA
 * key prefix; Authress keys' ".acc_"/".acc-" part. Flat (literal, then its rules joined by
 * spaces): in a fresh process each array literal costs its own boilerplate when the module
 * loads (docs/privacy.md "Cost").
 */
const LITERALS: readonly string[] = [
  "-----BEGIN ", "own:private-key", "FlyV1", "own:flyio-access-token", "Bearer", "own:bearer-token", "eyJ", "own:jwt", "hf_", "own:huggingface-token",
  "xox", "own:slack-token", "gsk_", "own:groq-api-key", "xai-", "own:xai-api-key", "r8_", "own:replicate-token",
  "AKIA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token", "ASIA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token",
  "ABIA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token", "ACCA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token",
  "AGPA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token", "AIDA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token",
  "AIPA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token", "ANPA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token",
  "ANVA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token", "AROA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token",
  "APKA", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token", "A3T", "own:aws-access-key own:aws-secret-key gitleaks:aws-access-token",
  // A key id already redacted: the key pair's secret may follow it (own-formats.ts aws-secret-key).
  "[REDACTED:aws-access-key]", "own:aws-secret-key",
  "API-", "gitleaks:octopus-deploy-api-key", "v1.0-", "gitleaks:cloudflare-origin-ca-key",
  ".acc_", "gitleaks:authress-service-client-access-key", ".acc-", "gitleaks:authress-service-client-access-key",
  "STS.", "own:alibaba-sts-access-key-id", "CCIP", "own:circleci-token",
  "00D", "own:salesforce-session-id",
  // The seventh pass (docs/privacy.md "A fifth held-out set"): provider formats' literals.
  "APP_USR-", "own:mercadopago-access-token", "TEST-", "own:mercadopago-access-token", "ATATT3", "own:atlassian-api-token",
  ":AA", "own:telegram-bot-token", "Mid-server-", "own:midtrans-server-key", "Private-Lines", "own:putty-private-key",
  "eyJ", "own:encoded-json-token",
];

/** Lower-case literals: basic-auth needs "Authorization:"; password-flag a tool's name; gocardless its name. */
const LOWER_LITERALS: readonly string[] = [
  "authorization", "own:basic-auth own:auth-header", "sshpass", "own:password-flag", "mysql", "own:password-flag", "mariadb", "own:password-flag", "redis-cli", "own:password-flag",
  "psql", "own:password-flag", "smbclient", "own:password-flag", "htpasswd", "own:password-flag", "gocardless", "gitleaks:gocardless-api-token",
  "ldapsearch", "own:password-flag", "ldapadd", "own:password-flag", "ldapmodify", "own:password-flag", "ldapdelete", "own:password-flag",
  "ldapwhoami", "own:password-flag", "ldappasswd", "own:password-flag", "ldapcompare", "own:password-flag", "ldapmodrdn", "own:password-flag",
  "sqlcmd", "own:password-flag", "bcp ", "own:password-flag",
  "client-key-data", "own:kubeconfig-data", "client-certificate-data", "own:kubeconfig-data",
  "net use", "own:windows-credential", "net user", "own:windows-credential",
  "schtasks", "own:windows-credential", "psexec", "own:windows-credential", "paexec", "own:windows-credential",
];

export interface Witness {
  name: string;
  /** The rules it stands for. */
  rules: readonly string[];
  /** Lower-case literals of which the text must hold one before the pattern is tried. */
  need: readonly string[];
  /** Tried on the lower-cased text: a case-insensitive regex costs about three times as much to compile. */
  re: RegExp;
  /** A cheaper pattern every match of `re` meets, tried first (or a scan that says what one says: witness-gates.ts). */
  gate?: { test(text: string): boolean };
}

/**
 * Words of which every secret name of the own named-value rules holds one (their names end in
 * key(s), token, secret, password, passwd, pwd, pass, passphrase, credential(s) or auth).
 */
const NAME_WORDS = ["key", "token", "secret", "pass", "pwd", "cred", "auth", "psk", "_pat", "-pat", ".pat", "pat=", "pat:", "pat ", "pat\t", 'pat"', "pat'"];
/** The same for gitleaks' generic rule (access|auth|api|credential|creds|key|passw(or)d|secret|token). */
const GENERIC_WORDS = ["access", "auth", "api", "cred", "key", "passw", "secret", "token"];

/**
 * gitleaks' generic rule, relaxed (on the lower-cased text): a secret word, then up to 29
 * name, quote or space characters (the rule's 20 name characters and 3 quotes or spaces, and
 * the 6 letters by which "credential" outruns "cred"), an operator's first character ("=",
 * ">", ":", ",", or "||", "?="), up to 8 operator, quote, space or "=" characters (the rest of
 * ":::=" and the rule's 5), then 12 value characters ([\w.=-] or [a-z0-9+/]: the rule keeps
 * only values above 3.5 bits of entropy a character, so 12 distinct ones). The rule's own
 * pattern, with its two bounded classes side by side and its operator alternation, costs several
 * times as much to compile and run in a fresh process (docs/privacy.md "Cost"), and both match the same real texts (../shared/datasets).
 */
export const GENERIC_WITNESS = /(?:access|auth|api|cred|key|passw|secret|token)[\w\s.'"-]{0,29}(?:[=>:,]|\|\||\?=)[`'"\s=:|>]{0,8}[\w.=+/-]{12}/;

/**
 * The own password-in-prose rule's words (own-rules.ts PROSE_PASSWORD_WORDS, the same list: a test
 * compares them; not imported, so that the capture part does not bundle the rules).
 */
export const PROSE_WORDS: readonly string[] = [
  ...["log", "logged", "sign", "signed"].flatMap((v) => ["", " ", "-"].flatMap((sep) => (v.startsWith("log") ? ["in", "on"] : ["in"]).map((p) => `${v}${sep}${p}`))),
  "authenticat", "passw", "passphrase",
  "passwort", "kennwort", "mot de passe", "contraseña", "contrasena", "senha", "wachtwoord", "salasan", "lösenord", "losenord",
  "пароль", "пароля", "паролем", "パスワード", "暗証番号", "密码", "密碼", "비밀번호", "패스워드", "암호",
  "anmeld", "angemeld", "einlogg", "eingeloggt", "identifie", "sesión", "sesion", "accede", "accedi", "ingresa", "entra", "acess",
  "inlogg", "aanmeld", "kirjaudu", "logga in", "войд", "войти", "зайд", "зайти", "cred", "zugangsdaten", "identifiants", "connect", "clave", "mdp",
  ...MORE_PROSE_WORDS, // the seventh pass (witness-places.ts)
];

/**
 * Relaxations of rule patterns, each tried on the lower-cased text (so written in lower case, without
 * the `i` flag their rules have) and only when it holds one of its literals: in a fresh process each
 * regex costs its compiling. A witness matches wherever its rule matches (its pattern with the rule's
 * tail cut off, or its character classes widened), so a text none of them matches holds none.
 */
const WITNESSES: readonly Witness[] = [
  { name: "generic-api-key", rules: ["gitleaks:generic-api-key"], need: GENERIC_WORDS, re: GENERIC_WITNESS },
  // The own named-value rules: NAME=value / NAME: value (quoted or not; a value of 4 or more
  // characters, not starting with "$", "<", "{", "[" or "/", which the rule leaves: references,
  // placeholders, markers, paths), and <NAME>value</NAME>. Its words are common, so a cheaper
  // pattern that every match meets (the word, any letters, an optional quote, spaces, then
  // ":", "=" or ">") goes first: compiling and running it costs a quarter to a third as much.
  {
    name: "named value", rules: ["own:env-assignment"],
    need: NAME_WORDS,
    gate: /(?:key|token|secret|pass|pwd|credential|auth|psk|pat|phrase)[a-z]*["']?\s*[:=>]/,
    // A value that starts with "/" only as a base64 key's might (own-shapes.ts slashKey: a digit in its run; a path of words has none).
    re: /(?:keys?|token|secret|passw(?:or)?d|pwd|pass(?:[_-]?phrase)?|credentials?|auth|psk|pat)(?:["']?\s*[:=]\s*["']?(?:[^\s"',;`$<{[/][^\s"',;`]{3}|\/(?=[a-z0-9+/]{19})[a-z+/]*\d)|>[^<\s]{4})/,
  },
  // The own config-directive rule: a secret name at a line's start, spaces, one value to the line's end.
  {
    name: "config directive", rules: ["own:config-directive"],
    need: NAME_WORDS,
    re: /(?:^|\n)[ \t]*[a-z0-9_.-]*(?:keys?|token|secret|passw(?:or)?d|pwd|pass(?:[_-]?phrase)?|credentials?|auth|psk|pat)[ \t]+[^\s"'=:]{4,}[ \t]*(?:\n|$)/,
  },
  // The own password-flag rule's registry logins, cli-login-token, secret-file-write and the
  // basic-auth rule's (user, password) pair.
  { name: "registry login", rules: ["own:password-flag"], need: ["login"], re: /\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras)\b[^\n]*?\blogin\b[^\n]*?\s(?:-p|--password)/ },
  { name: "cli login token", rules: ["own:cli-login-token"], need: ["login", "auth"], re: /\b(?:login|auth(?:enticate)?)\s+[a-z0-9_-]{20}/ },
  { name: "secret file write", rules: ["own:secret-file-write"], need: ["echo"], re: /\becho\s+['"]?[^\s'"]{16,}['"]?\s*>>?\s*[^\s;|&]*(?:key|token|secret|passw|credential)/ },
  { name: "auth pair", rules: ["own:basic-auth"], need: ["auth"], re: /\b(?:[a-z]+_)?auth\s*=\s*\(/ },
  // The own password-file rule (a .pgpass line: host, port or "*", two fields, a password of 4 or
  // more); its gate is the port between two colons.
  { name: "password file line", rules: ["own:password-file"], need: [":"], gate: PORT_BETWEEN_COLONS, re: /[a-z0-9*_.-]+:(?:\d{1,5}|\*):[^\s:"'`]+:[^\s:"'`]+:(?:[^\s:\\"'`]|\\[:\\]){4}/ },
  // The own password-in-prose rule without its check of the password (which needs a digit: the
  // run after the words holds one).
  {
    name: "password in prose", rules: ["own:password-in-prose"],
    need: PROSE_WORDS,
    re: /(?:(?:log(?:ged)?[ -]?(?:in|on)|sign(?:ed)?[ -]?in|authenticat(?:e|es|ed|ing))\b[^.,;\n]{0,60}?\b(?:with|using)|(?:password|passphrase|passwd)s?(?:\s+(?:is|was|of|=|:))?)\s+(?:(?:the\s+)?(?:password|passphrase|pass|pw|pwd)\s+)?["'`]?(?=[^\s"'`]{0,63}\d)[^\s"'`]{8}/,
  },
  // The own password-in-prose rules of every language, and credentials as user / password: a run
  // of 8 with a digit after one of their words (their check of the password needs a digit).
  // (the word for password, then within 60 characters a run of 8 with a digit; a log-in verb,
  // its "with" and such a run; a credentials word, "/" and such a run).
  {
    name: "password in prose, every language", rules: ["own:password-in-prose"], need: PROSE_WORDS,
    re: /(?:(?:password|passphrase|passwd|passwort|kennwort|mot de passe|mdp|contraseña|contrasena|clave|senha|wachtwoord|salasana|lösenord|пароль|пароля|паролем|паролю|パスワード|暗証番号|密码|密碼|비밀번호|패스워드|암호|hasł|hasl|heslo|hesla|jelsz|şifre|sifre|parola|parolă|mật khẩu|mat khau|kata sandi|kata laluan|adgangskode|passord|kodeord|lozink|geslo|κωδικ|συνθηματικ|סיסמ|كلمة المرور|كلمة السر|رمز عبور|گذرواژه|पासवर्ड|পাসওয়ার্ড|รหัสผ่าน|гасло|contrasenya|nenosiri|парол|лозинк|parool|slaptažod|lykilorð|கடவுச்சொல்|పాస్‌వర్డ్|პაროლ|գաղտնաբառ|کلمه عبور)[\s\S]{0,60}?|(?:anmelden|angemeldet|einloggen|eingeloggt|connect|identifi|sesi|entra|acced|ingresa|acessa|inloggen|aanmelden|logga in|войд|войти|зайд|зайти)[^.,;\n]{0,80}?(?:mit|avec|con|com|met|med|с|со)\s[\s\S]{0,40}?|(?:creds|credentials|credenciales|credenziali|zugangsdaten|identifiants|login)[\s\S]{0,60}?\/\s*[\s\S]{0,4}?)(?=[^\s"'`。、，]{0,63}\d)[^\s"'`。、，]{8}/,
  },
  // The own query-key rule: a key's name as a query parameter and 16 value characters.
  {
    name: "query key", rules: ["own:query-key"], need: ["?", "&"],
    re: /[?&](?:app_?id|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|api[_-]?token|private[_-]?token|client[_-]?secret|secret|token|key|sig|signature)=[a-z0-9_\-.~%]{16}/,
  },
  // The own launchdarkly-key rule ("sdk-", "api-" or "mob-" and a UUID) and windows-credential's
  // "/pass:" and "/password:" flags ("/pass" alone is common in paths).
  { name: "launchdarkly key", rules: ["own:launchdarkly-key"], need: ["sdk-", "api-", "mob-"], re: /(?:sdk|api|mob)-[0-9a-f]{8}-[0-9a-f]{4}-/ },
  { name: "windows password flag", rules: ["own:windows-credential"], need: ["/pass"], re: /\s\/(?:pass|password):/ },
  // The own ably-key rule: "<id>.<id>:" and 30 of [a-z0-9_-].
  { name: "ably key", rules: ["own:ably-key"], need: [":"], gate: ABLY_SHAPE, re: /[a-z0-9_-]{4,12}\.[a-z0-9_-]{4,12}:[a-z0-9_-]{30}/ },
  // The own aws-secret-key rule (its value may start with "/"); its name is "secret", an
  // optional "_", an optional "access" and "_", then "key", which holds one of the needs.
  { name: "aws-secret-key", rules: ["own:aws-secret-key"], need: ["secretkey", "secret_key", "secretaccess", "secret_access"], re: /secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[a-z0-9/+=]{40}/ },
  // gitleaks' jwt (two parts, each starting "ey": case-sensitive, so on the lower-cased text
  // the widened [a-z0-9]) and lob keys.
  { name: "jwt", rules: ["gitleaks:jwt"], need: [".ey"], re: /ey[a-z0-9]{17,}\.ey/ },
  { name: "lob keys", rules: ["gitleaks:lob-api-key", "gitleaks:lob-pub-api-key"], need: ["live_", "test_"], re: /(?:live|test)_(?:pub_)?[a-f0-9]{31}/ },
  // gitleaks' curl-auth-header (an Authorization, key or token header) and curl-auth-user (-u;
  // "-U" lower-cased too: a relaxation).
  { name: "curl header", rules: ["gitleaks:curl-auth-header"], need: ["curl"], re: /(?:-h|--header)(?:=|[ \t]{0,5})["'](?:authorization:|[\w-]*(?:key|token):)/ },
  { name: "curl user", rules: ["gitleaks:curl-auth-user"], need: ["curl"], re: /[ \t\n\r](?:-u|--user)/ },
  // gitleaks' cloudflare-api-key and cloudflare-global-api-key: the generic shape after
  // "cloudflare", with a value of 37 ([a-f0-9]) or 40 ([a-z0-9_-]) characters.
  { name: "cloudflare", rules: ["gitleaks:cloudflare-api-key", "gitleaks:cloudflare-global-api-key"], need: ["cloudflare"], re: /cloudflare[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[`'"\s=]{0,5}[\w-]{37}/ },
  // The seventh pass's witnesses, apart (witness-places.ts).
  ...PLACE_WITNESSES,
  // The eighth-set pass's witnesses (witness-families.ts).
  ...FAMILY_WITNESSES, ...TENTH_WITNESSES, // the tenth-set pass's in witness-families-10.ts
];

/** The own url-password rule, on the text as it is (no letters in it): scheme://user:password@host. */
const URL_PASSWORD = /:\/\/[^\s:/@?#]{0,256}:[^\s@/?#]{1,256}@/;
/** The own named-in-prose rule without its check of the token (on the lower-cased text). */
const PROSE = /(?:key|token|secret|passw(?:or)?d|pwd|passphrase|credential)s?\s+(?:(?:is|was|are)\s+)?(?:[=:]\s*)?[a-z0-9_\-+/=.]{16}/;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isWord = (c: number): boolean => isDigit(c) || isLetter(c) || c === 95;
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** [A-Za-z0-9_-]: the own prefixed-token and url-token rules' token bodies. */
const isNarrow = (c: number): boolean => isWord(c) || c === 45;
/** [A-Za-z0-9_+/=-], and with `dotColon` also ".", ":" and "@" (the clipped-token rule's runs). */
const isClipRunChar = (c: number, dotColon: boolean): boolean => isNarrow(c) || c === 43 || c === 47 || c === 61 || (dotColon && (c === 46 || c === 58 || c === 64));

/**
 * Whether `literal` occurs followed by at least `n` characters that `ok` takes (and, with
 * `tokenStart`, not right after a token character). For gitleaks' fixed-prefix rules whose
 * prefix is common in ordinary text ("s." in "tests.", "SK", "SG."). Why hand-written, here
 * and below: in a fresh hook process each regex is compiled on first use, which costs more
 * than these few character reads.
 */
function literalThenRun(text: string, literal: string, n: number, ok: (c: number) => boolean, tokenStart = false): boolean {
  for (let at = text.indexOf(literal); at >= 0; at = text.indexOf(literal, at + 1)) {
    if (tokenStart && at > 0 && isNarrow(text.charCodeAt(at - 1))) continue;
    let k = 0;
    const from = at + literal.length;
    while (k < n && from + k < text.length && ok(text.charCodeAt(from + k))) k++;
    if (k >= n) return true;
  }
  return false;
}

/**
 * Whether a run right before or after a "…" could be what the own clipped-token rule takes:
 * 12 or more of its characters, with a letter and two digits (its looksRandom test, on the
 * run or a part of it).
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

/** The own e-mail rule: a local-part character, "@", a domain label and a dot. */
function emailShape(text: string): boolean {
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    if (at === 0) continue;
    const b = text.charCodeAt(at - 1);
    if (!(isWord(b) || b === 46 || b === 37 || b === 43 || b === 45)) continue;
    let k = at + 1;
    while (k < text.length && (isLetter(text.charCodeAt(k)) || isDigit(text.charCodeAt(k)) || text.charCodeAt(k) === 45)) k++;
    if (k > at + 1 && text.charCodeAt(k) === 46) return true;
  }
  return false;
}

/** Calls so far in this process, and after how many the keyword check takes the pair bitmap. */
let calls = 0;
const GATE_AFTER_CALLS = 32;

export interface Candidates {
  /** The own rules ("own:<kind>") and witnessed gitleaks rules ("gitleaks:<id>") that may match. */
  rules: Set<string>;
  /** The first listed gitleaks keyword in the text (its rules are gated by their keywords), or null. */
  keyword: string | null;
  /** The first condition that held, for reports ("literal Bearer", "witness jwt", "keyword jira"). */
  first: string | null;
}

/**
 * Every condition of the pre-filter on `text`: which rules may match. The full redactor runs
 * only those of its own and witnessed rules (and gitleaks' others by their keywords, as
 * always), so a text that trips one condition does not pay for compiling the others' rules.
 *
 * `within`: the candidates of a text that holds this one (a join of texts of which `text` is
 * one, redact.ts allCleared). Every condition that holds in a part holds in such a join, so a
 * condition none of whose rules is among `within`'s cannot hold here and is not tried, and
 * the keywords are searched only if the join held one: the answer is the same, for the few
 * conditions that held in the join (test/privacy/redact.test.ts checks both ways give the same).
 */
export function candidates(text: string, within?: Candidates): Candidates {
  const rules = new Set<string>();
  let first: string | null = null;
  // `names`: rule names joined by spaces (split only for a condition that holds).
  const hold = (why: string, names: string): void => {
    first ??= why;
    for (const n of names.split(" ")) rules.add(n);
  };
  // Whether a condition for these rules (names joined by spaces) can hold: always, unless `within` rules it out.
  const may = within === undefined ? null : (names: string): boolean => names.split(" ").some((n) => within.rules.has(n));
  for (let i = 0; i < LITERALS.length; i += 2) if ((may === null || may(LITERALS[i + 1]!)) && text.includes(LITERALS[i]!)) hold(`literal ${LITERALS[i]}`, LITERALS[i + 1]!);
  const lower = text.toLowerCase();
  for (let i = 0; i < LOWER_LITERALS.length; i += 2) if ((may === null || may(LOWER_LITERALS[i + 1]!)) && lower.includes(LOWER_LITERALS[i]!)) hold(`literal ${LOWER_LITERALS[i]}`, LOWER_LITERALS[i + 1]!);
  // Own prefixed-token and url-token rules: a token body of 20 or more (23 with its prefix),
  // with both cases and a digit.
  const runs = may === null || may(RUN_RULES) ? tokenRuns(text) : NO_RUNS;
  if (runs.narrow) hold("mixed run", "own:prefixed-token own:url-token own:random-token");
  // Own prefixed-token rule, a one-case body (oneCaseToken): a run of 35 with four digits and four letters beyond hex.
  if (runs.oneCase) hold("one-case run", "own:prefixed-token");
  // Own clipped-token rule: a run against a clip mark with a letter and two digits.
  if ((may === null || may("own:clipped-token")) && text.includes("…") && clippedRun(text)) hold("clipped run", "own:clipped-token");
  // Own openai-api-key and anthropic-api-key rules: "sk-" at a token's start.
  if ((may === null || may("own:anthropic-api-key own:openai-api-key")) && literalThenRun(text, "sk-", 0, isNarrow, true)) hold("literal sk-", "own:anthropic-api-key own:openai-api-key");
  if ((may === null || may("own:email")) && emailShape(text)) hold("e-mail shape", "own:email");
  // gitleaks' vault-service-token ("s." and 24 of [a-zA-Z0-9], or "hvs." and 90 of [\w-]),
  // twilio-api-key ("SK" and 32 hex), sendgrid-api-token ("SG." and 66 of [\w=.-]).
  // Each is a run of 26, 34 or 69 token characters, so the longest run tells most texts apart
  // without reading every "s." of the prose.
  if (runs.longest >= 26 && literalThenRun(text, "s.", 24, isNarrow)) hold("vault token shape", "gitleaks:vault-service-token");
  if (runs.longest >= 34 && literalThenRun(text, "SK", 32, isHex)) hold("twilio key shape", "gitleaks:twilio-api-key");
  if (runs.longest >= 69 && literalThenRun(text, "SG.", 66, (c) => isNarrow(c) || c === 61 || c === 46)) hold("sendgrid key shape", "gitleaks:sendgrid-api-token");
  if ((may === null || may("own:url-password")) && text.includes("://") && URL_PASSWORD.test(text)) hold("witness url-password", "own:url-password");
  // The own name/value-pair rule (Kubernetes and Compose env lists): its pattern
  // /name:[\s\S]*?value:/ is "name:" and a later "value:", which two searches tell without
  // compiling it.
  const nameAt = rules.has("own:env-assignment") || (may !== null && !may("own:env-assignment")) ? -1 : lower.indexOf("name:");
  if (nameAt >= 0 && lower.includes("value:", nameAt + 5)) hold("witness name/value pair", "own:env-assignment");
  for (const w of WITNESSES) {
    if (w.rules.every((r) => rules.has(r))) continue; // already a candidate: spare the regex
    if (within !== undefined && !w.rules.some((r) => within.rules.has(r))) continue;
    if (w.need.some((n) => lower.includes(n)) && (w.gate === undefined || w.gate.test(lower)) && w.re.test(lower)) hold(`witness ${w.name}`, w.rules.join(" "));
  }
  // Own named-in-prose rule: a token of 16 with a letter and two digits, after a secret word.
  if (runs.wide && PROSE.test(lower)) hold("witness named in prose", "own:named-in-prose");
  // The seventh pass: a key or token in a sentence of any language (own-places.ts), gated as the line above.
  if (runs.wide && !rules.has("own:named-in-prose") && (within === undefined || within.rules.has("own:named-in-prose")) && KEY_WORDS.some((w) => lower.includes(w)) && KEY_PROSE.test(lower)) hold("witness key in prose", "own:named-in-prose");
  // The eighth-set pass: a password in prose by its shape (witness-families.ts: a scan, no pattern).
  if ((may === null || may("own:prose-password")) && proseWitness(text)) hold("prose password shape", "own:prose-password");
  if ((may === null || may("own:prose-key")) && proseKeyWitness(text)) hold("prose key shape", "own:prose-key"); // the ninth-set pass
  if (may === null || may(`own:command-argument own:random-passphrase ${SILENT_KINDS}`)) for (const r of tenthScans(text)) hold(`${r} shape`, r); // the tenth-set pass
  if ((may === null || may("own:context-secret")) && mayHaveContextHit(text, lower) && loadReaders().contextSecretWitness(text, lower)) hold("secret by its context", "own:context-secret"); // context-secrets.ts, its scan's code loaded only past its gate (reader-gates.ts)
  // The first texts of a process (all a hook run has) by plain `includes`, a native search;
  // later ones through keyword-gate.ts's pair bitmap, which costs more to start (a loop over
  // the text, in V8's interpreter at first) and less per keyword once warm (daily, exchanges).
  let keyword: string | undefined;
  if (within !== undefined && within.keyword === null) keyword = undefined;
  else if (++calls <= GATE_AFTER_CALLS) keyword = GITLEAKS_KEYWORDS.find((kw) => lower.includes(kw));
  else {
    const gate = new KeywordGate(lower);
    keyword = GITLEAKS_KEYWORDS.find((kw) => gate.has(kw));
  }
  // The owner's imported betterleaks rules' keywords, when any (imported-rules.ts; null when none).
  if (keyword === undefined && (within === undefined || within.keyword !== null)) keyword = importedKeywords()?.find((kw) => lower.includes(kw));
  if (keyword !== undefined) first ??= `keyword ${keyword}`;
  return { rules, keyword: keyword ?? null, first };
}

/** The rules the token runs stand for (tokenRuns is skipped when `within` names none of them). */
const RUN_RULES = "own:prefixed-token own:url-token own:random-token own:named-in-prose gitleaks:vault-service-token gitleaks:twilio-api-key gitleaks:sendgrid-api-token";
const NO_RUNS = { narrow: false, wide: false, oneCase: false, longest: 0 };

/** False only when no rule of the redactor can match `text` (see the file's comment). */
export function mayHoldSecret(text: string): boolean {
  return candidates(text).first !== null;
}

/**
 * Which condition first keeps `text` from being cleared ("literal Bearer", "witness jwt",
 * "keyword jira"), or null when none holds (for the bench's report of what real texts trip).
 */
export function prefilterReason(text: string): string | null {
  return candidates(text).first;
}
