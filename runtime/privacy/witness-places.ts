/**
 * The pre-filter's conditions for the seventh pass's rules (own-places.ts, docs/privacy.md "A
 * fifth held-out set"), apart from prefilter.ts: each witness needs a rare string (an attribute
 * written `name="`, a log-in call, a secret word followed by a space, " -p ", a tool's name)
 * before its pattern is tried, since every witness costs on every captured text (docs/privacy.md
 * "Cost"). Each is a relaxation of its rule's pattern, on the lower-cased text; the key-in-prose
 * one runs only when the token runs hold a wide one (prefilter.ts).
 */
import type { Witness } from "./prefilter.js";

/** The seventh pass's words for password (own-places.ts PROSE_MORE_WORDS, the same list: a test compares them). */
export const MORE_PROSE_WORDS: readonly string[] = [
  "hasł", "hasl", "heslo", "hesla", "jelsz", "şifre", "sifre", "parola", "parolă", "mật khẩu", "mat khau", "kata sandi", "kata laluan",
  "adgangskode", "passord", "kodeord", "lozink", "geslo", "κωδικ", "συνθηματικ", "סיסמ", "كلمة المرور", "كلمة السر", "رمز عبور", "گذرواژه",
  "पासवर्ड", "পাসওয়ার্ড", "รหัสผ่าน", "гасло",
  "ລະຫັດຜ່ານ", "ពាក្យសម្ងាត់", "စကားဝှက်", // the eighth pass (own-places.ts UNSPACED_PASSWORD_WORDS)
  // the ninth pass (own-places.ts NINTH_PASSWORD_WORDS)
  "contrasenya", "nenosiri", "парол", "лозинк", "parool", "slaptažod", "lykilorð", "கடவுச்சொல்", "పాస్‌వర్డ్", "პაროლ", "գաղտնաբառ", "کلمه عبور",
];

/**
 * The own-places.ts key-in-prose rule's words (PROSE_KEY_WORDS there, the same list: a test compares them).
 */
export const KEY_WORDS: readonly string[] = [
  "api key", "api-key", "apikey", "access key", "access token", "key", "token", "secret",
  "clave", "llave", "chave", "clé", "jeton", "schlüssel", "schluessel", "chiave", "sleutel", "klucz", "klíč", "kulcs", "anahtar",
  "ключ", "токен", "секрет", "κλειδί", "מפתח", "مفتاح", "कुंजी", "टोकन", "คีย์", "โทเค็น", "khóa",
  "キー", "トークン", "シークレット", "鍵", "密钥", "密鑰", "秘钥", "令牌", "키", "토큰", "시크릿",
];
/**
 * The key-in-prose rule relaxed (on the lower-cased text): one of its words, 44 characters of the
 * clause, "is" in a language, a colon or a particle, then 16 token characters. Tried only when the
 * token runs hold a wide one (its token needs a letter and two digits), as the English prose witness.
 */
export const KEY_PROSE = /(?:api key|api-key|apikey|access key|access token|key|token|secret|clave|llave|chave|clé|jeton|schlüssel|schluessel|chiave|sleutel|klucz|klíč|kulcs|anahtar|ключ|токен|секрет|κλειδί|מפתח|مفتاح|कुंजी|टोकन|คีย์|โทเค็น|khóa|キー|トークン|シークレット|鍵|密钥|密鑰|秘钥|令牌|키|토큰|시크릿)[^.,;\n:：=。、，"`]{0,44}?(?:\s(?:is|was|are|es|era|é|est|ist|lautet|è|jest|to|je|van|dır|dir|это|є|είναι|הוא|היא|هو|هي|है|คือ|là|adalah)|\s?[:：]|は|是|为|為|은|는|이|가|คือ|ແມ່ນ|ຄື|គឺ|မှာ|သည်)\s*["'`]?[a-z0-9_\-+=.][a-z0-9_\-+/=.]{15}/;

/** What may stand before the keyword-value rule's ":" (own-contexts.ts): few literals, each a search of the whole text when absent. */
const KEYWORD_LEADS: readonly string[] = [..."{([, \t\n"];

export const PLACE_WITNESSES: readonly Witness[] = [
  // An XML element's name or key attribute naming a secret, then its value attribute or text.
  {
    name: "xml named value", rules: ["own:xml-named-value"], need: ["name=\"", "name='", "key=\"", "key='"],
    re: /(?:name|key)=["'][^"'<>]*(?:key|token|secret|pass|pwd|cred|auth|psk|pat)[^"'<>]*["'][^<>]*?(?:value\s*=\s*["'][^"'<>\s]{4}|>[^<\s]{4})/,
  },
  // A password passed to a log-in call with its user.
  { name: "log-in call", rules: ["own:password-call"], need: [".login(", ".authenticate(", ".auth(", ".signin(", ".sign_in("], re: /\.(?:login|authenticate|auth|signin|sign_in)\(\s*[^,()\n]{1,80}?\s*,\s*["'][^"'\n]{4}/ },
  // A command line's option naming a secret, a space, a value; "-u user … -p value"; an Oracle tool's user/password.
  {
    name: "secret option", rules: ["own:password-flag"], need: ["pass", "password", "passwd", "passphrase", "pwd", "secret", "token", "key"].flatMap((w) => [`${w} `, `${w}\t`]),
    re: /\s-{1,2}[a-z0-9_.-]{0,40}?(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[-_]?key|access[-_]?key|private[-_]?key)[ \t]+["']?[^\s"'$<{[-][^\s"']{3}/,
  },
  { name: "user and -p", rules: ["own:password-flag"], need: [" -p ", " -p\t", "\t-p ", "\t-p\t"], re: /\s-u[ \t]+[^\s-]\S*[ \t]+(?:\S+[ \t]+){0,8}?-p[ \t]+["']?[^\s"'$<{[-][^\s"']{3}/ },
  {
    name: "oracle logon", rules: ["own:password-flag"], need: ["sqlplus", "rman", "expdp", "impdp", "sqlldr", "dgmgrl"],
    re: /(?:\b(?:sqlplus|rman|expdp|impdp|sqlldr|dgmgrl)\b(?:[ \t]+(?:-[a-z]+|target|catalog|auxiliary|userid=))*|\brman\b[^\n]*[ \t](?:catalog|auxiliary))[ \t]+["']?[a-z][\w$#.]*\/[^\s@/"']{3}/,
  },
  // --- the eighth pass (docs/privacy.md "A sixth held-out set"; own-formats.ts, own-places.ts MORE_PLACE_RULES) ---
  // BIP32's extended private keys. (The scheme-less Authorization rule needs no witness: "authorization" is a literal of prefilter.ts.)
  { name: "bip32 private key", rules: ["own:bip32-private-key"], need: ["prv"], re: /[xtyzuv]prv[a-z0-9]{100}/ },
  // An SK (a compound name's last part: not "task:"), a pepper or an `encrypt` key named, then ":" or "=" and a value of 4.
  {
    name: "more named value", rules: ["own:more-named-value"],
    // The rule's "sk" is a compound name's last part ("…_SK", "….sk", "…-sk").
    need: ["pepper", "encrypt", "_sk", ".sk", "-sk"],
    re: /(?:[_.-]sk|pepper|encrypt)["']?[ \t]*[:=][ \t]*["']?[^\s"',;`$<{[=:][^\s"',;`]{3}/,
  },
  // Dockerfile's legacy `ENV <key> <value>`, the key a secret's name.
  {
    name: "dockerfile env", rules: ["own:dockerfile-env"], need: ["env ", "env\t"],
    re: /env[ \t]+(?:[a-z0-9_.-]*(?:key|token|secret|pass|pwd|cred|auth|psk|pat|pepper|encrypt)[a-z]*|(?:[a-z0-9_.-]*[_.-])?sk)[ \t]+["']?[^\s"'$<{[=]/,
  },
  // A password set by SQL (IDENTIFIED … BY|AS, CREATE|ALTER USER|ROLE|LOGIN … PASSWORD '…', SET PASSWORD … = '…').
  {
    name: "sql password", rules: ["own:sql-password"],
    need: ["identified", "password"],
    re: /identified\s+(?:with\s+[a-z_][\w$]*\s+)?(?:by|as)\s|\b(?:create|alter)\s+(?:user|role|login)\b[^;\n]{0,200}?\bpassword ?=? ?["']|\bset password\b[^;\n=]{0,80}=/,
  },
  // A literal of 20 or more token characters passed to an API client's constructor.
  {
    name: "client key", rules: ["own:client-key"], need: ["client(", "client.create(", "client::new(", "client.new(", "algoliasearch("],
    re: /(?:algoliasearch|client(?:\.create|::new|\.new)?)\([^()\n]{0,200}?["'][a-z0-9_-]{20}/,
  },
  // The word for password in Lao, Khmer and Burmese, then within 60 characters a run of 8 with a digit (as the other languages' witness).
  {
    name: "password in prose, unspaced scripts", rules: ["own:password-in-prose"], need: ["ລະຫັດຜ່ານ", "ពាក្យសម្ងាត់", "စကားဝှက်"],
    re: /(?:ລະຫັດຜ່ານ|ពាក្យសម្ងាត់|စကားဝှက်)[\s\S]{0,60}?(?=[^\s"'`。、，]{0,63}\d)[^\s"'`。、，]{8}/,
  },
  // A keyword naming a secret (EDN, Clojure, Emacs Lisp, Ruby's `:name =>`), then a string of 4:
  // its ":" follows a space, a tab, a new line, "{", "(", "[" or "," (literal needs, so ordinary text compiles no pattern here).
  {
    name: "keyword value", rules: ["own:keyword-value"], need: KEYWORD_LEADS.map((c) => `${c}:`),
    re: /:(?:[\w.*+!?-]+\/)?(?:[a-z0-9_.-]*(?:key|token|secret|pass|pwd|cred|auth|psk|pat|pepper|encrypt)[a-z]*|(?:[a-z0-9_.-]*[_.-])?sk)\s+(?:=>\s*)?["'][^"'\s]{4}/,
  },
  // --- the ninth pass (docs/privacy.md "A seventh held-out set"; own-configs.ts) ---
  // (ipsec.secrets, net-snmp createUser, unattend.xml and NATS seed blocks: the context rule, context-secrets.ts, since gen11)
  { name: "openvpn static key", rules: ["own:openvpn-static-key"], need: ["openvpn static key v"], re: /-----begin openvpn static key v\d-----\s*[0-9a-f]{16}|[0-9a-f]{16}\s*-----end openvpn static key v\d-----/ },
  // own-tools.ts: each a literal of its tool or format, then the rule relaxed.
  { name: "woocommerce secret", rules: ["own:woocommerce-secret"], need: ["cs_"], re: /cs_[0-9a-f]{40}/ },
  { name: "credentials to base64", rules: ["own:tool-password"], need: ["base64"], re: /(?:printf[ \t]+(?:'%s'|"%s")|echo(?:[ \t]+-n)?)[ \t]+["'][^"'\s:]{1,128}:[^"'\s]{4}[^"'\s]*["'][ \t]*\|[ \t]*base64/ },
  { name: "hdbuserstore set", rules: ["own:tool-password"], need: ["hdbuserstore"], re: /hdbuserstore(?:[ \t]+-[a-z]+)*[ \t]+set[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+["']?[^\s"']{4}/ },
  { name: "go dsn", rules: ["own:url-password"], need: ["@tcp", "@unix("], re: /[\w.-]:[^\s:@"'`/]{4,}@(?:tcp6?|unix)\(/ },
  { name: "securestring", rules: ["own:tool-password"], need: ["convertto-securestring"], re: /convertto-securestring[ \t]+(?:-string[ \t]+)?["'][^"'\n]{4}/ },
  { name: "openssl raw key", rules: ["own:tool-password"], need: ["openssl"], re: /openssl\b[^\n]*?[ \t]-k[ \t]+[0-9a-f]{16}/ },
  { name: "bundle config", rules: ["own:tool-password"], need: ["bundle config"], re: /bundle config[ \t][^\n]*?[a-z0-9-]\.[a-z0-9-][^\s]*[ \t]+[^\s:"']+:[^\s"']{4}/ },
  { name: "cdata secret", rules: ["own:xml-named-value"], need: ["<![cdata["], re: /(?:key|token|secret|pass|pwd|cred|auth|psk|pat)[^<>]*>\s*<!\[cdata\[[^\]]{4}/ },
  { name: "secret element with attributes", rules: ["own:xml-named-value"], need: ["</"], gate: /<[a-z0-9_.-]*(?:key|token|secret|pass|pwd|cred|auth|psk|pat)[a-z0-9_.-]*\s/, re: /<[a-z0-9_.-]*(?:key|keys|token|secret|password|passwd|pwd|pass|phrase|credentials?|auth|psk|pat)\s[^<>]*>[^<\s]{4}/ },
  { name: "solana keypair", rules: ["own:solana-keypair"], need: ["solana", "keypair"], re: /(?:solana|keypair)[^[\]]{0,200}?\[\s*(?:\d{1,3}\s*,\s*){16}/ },
  // own-formats.ts: X's bearer token, a run of 20 "A"s (a literal) then 16 of its alphabet.
  { name: "x bearer token", rules: ["own:x-bearer-token"], need: ["aaaaaaaaaaaaaaaaaaaa"], re: /a{20}[a-z0-9%]{16}/ },
  // own-tools.ts: a directive named for a secret, then 20 letters (a joined config's random-letter token).
  { name: "letter token directive", rules: ["own:config-directive"], need: ["key", "token", "secret", "pass", "pwd", "auth", "psk"], re: /[a-z][\w.-]{0,60}(?:key|token|secret|pass(?:word)?|pwd|auth|psk)[ \t]+[a-z]{20}/ },
  // --- the tenth pass (docs/privacy.md "Upstream samples"; own-oauth-tokens.ts): Gumroad's tokens after a "gumroad…" name ---
  { name: "gumroad token", rules: ["own:gumroad-access-token"], need: ["gumroad"], re: /gumroad[\w.-]{0,30}?["']?[ \t]*(?::|=|=>|:=)[ \t]*["']?[a-z0-9_-]{43}/ },
];
