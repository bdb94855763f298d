/**
 * Secrets that sit in a place (issue 34's seventh pass, the fifth held-out set's misses, by form;
 * own-rules.ts runs them among its LATE_RULES, before the random-token rule): an Authorization
 * header of any scheme, a secret named by an XML element's attribute (any framework's config), a
 * password passed to a log-in call, a command line's option that names a secret, a `-u user -p
 * password` pair, an Oracle tool's `user/password@db` logon, a key or token in a sentence of any
 * language. Each has its own pre-filter witness (prefilter.ts, the seventh pass's block).
 *
 * Example: `<add key="PaymentApiSecret" value="…" />` -> the value is `[REDACTED:xml-named-value]`;
 * `Authorization: GenieKey <uuid>` -> `Authorization: GenieKey [REDACTED:auth-header]`.
 */
import type { OwnRule } from "./own-rules.js";
import { caseless, keepAssignment, looksLikeIdentifier, looksLikeValueNotSecret, looksRandom, namedPassword, proseToken, SECRET_NAME, tokenBody } from "./own-shapes.js";

/** A UUID, 32 hex digits or more, or a random token (tokenBody, looksRandom): what a key generator makes. */
export function generatedToken(s: string): boolean {
  return /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-f]{32,}|[0-9A-F]{32,})$/.test(s) || tokenBody(s) || looksRandom(s);
}

/**
 * An app password as Google and Apple show one: four groups of four lower-case letters, parted
 * by spaces (Google) or hyphens (Apple). Words of four letters joined so ("this-that-some-more")
 * are rare, and it is read only where a password stands (a password flag, a log-in call).
 */
export function appPassword(s: string): boolean {
  return /^[a-z]{4}([- ])[a-z]{4}\1[a-z]{4}\1[a-z]{4}$/.test(s);
}

/** A value given on a command line where a secret stands: a password as people choose them, an app password, a generated token. */
function flagSecret(value: string): boolean {
  if (appPassword(value)) return true;
  if (looksLikeValueNotSecret(value) || looksLikeIdentifier(value) || /^(?:env|file|fd|stdin|prompt):|^\w+=|:\/\/|^\d+(?:[:.]\d+)*$/.test(value)) return false;
  return namedPassword(value) || appPassword(value) || generatedToken(value);
}

/** Letters of the scripts the prose rules read that part their words by spaces (Latin with its accents, Greek, Cyrillic, Armenian, Hebrew, Arabic, Devanagari, Bengali, Tamil, Telugu, Georgian, Vietnamese). */
export const SPACED_LETTERS = "A-Za-z0-9_\\u00C0-\\u024F\\u0370-\\u03FF\\u0400-\\u04FF\\u0530-\\u058F\\u0590-\\u05FF\\u0600-\\u06FF\\u0900-\\u09FF\\u0B80-\\u0C7F\\u10A0-\\u10FF\\u1E00-\\u1EFF";
/**
 * Those and the scripts that write a sentence's words together, without spaces (Thai, Lao,
 * Burmese, Khmer; since the eighth pass): a word of these starts wherever it stands, so the rules'
 * "not inside a longer word" reads SPACED_LETTERS only.
 */
export const LETTERS = `${SPACED_LETTERS}\\u0E00-\\u0EFF\\u1000-\\u109F\\u1780-\\u17FF`;
/**
 * "is" and topic markers in those unspaced scripts (the eighth pass; a Thai sentence runs its
 * clause into "คือ" with no space: "รหัสผ่านของเซิร์ฟเวอร์คือ …"): Thai "คือ", Lao "ແມ່ນ" and
 * "ຄື", Khmer "គឺ", Burmese "မှာ" and "သည်". Read without a space before them, as the CJK particles.
 */
export const UNSPACED_COPULAS = "คือ|ແມ່ນ|ຄື|គឺ|မှာ|သည်";

/**
 * The word for a key, a token or a secret in the languages of the capture and beyond (English,
 * Spanish, Portuguese, French, German, Italian, Dutch, Polish, Czech, Hungarian, Turkish, Russian
 * and Ukrainian, Greek, Hebrew, Arabic, Hindi, Thai, Vietnamese, Japanese, Chinese, Korean).
 * Lower-case: the pre-filter's witness reads them on the lower-cased text (KEY_WORDS there).
 */
export const PROSE_KEY_WORDS: readonly string[] = [
  "api key", "api-key", "apikey", "access key", "access token", "key", "token", "secret",
  "clave", "llave", "chave", "clé", "jeton", "schlüssel", "schluessel", "chiave", "sleutel", "klucz", "klíč", "kulcs", "anahtar",
  "ключ", "токен", "секрет", "κλειδί", "מפתח", "مفتاح", "कुंजी", "टोकन", "คีย์", "โทเค็น", "khóa",
  "キー", "トークン", "シークレット", "鍵", "密钥", "密鑰", "秘钥", "令牌", "키", "토큰", "시크릿",
];
const esc = (w: string): string => w.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

/** "is" in those languages, and the CJK particles and colons that part a name from its value. */
const COPULAS = "is|was|are|es|era|é|est|ist|lautet|è|jest|to|je|van|dır|dir|это|є|είναι|הוא|היא|هو|هي|है|คือ|là|adalah";

const L = LETTERS;

/**
 * The words of which every match of own-rules.ts's third password-in-prose rule (log-in verbs of
 * other languages with their "with", credentials as user / password) holds one, lower-cased: its
 * `need`. Its `gi` pattern matches an ASCII letter only as that letter in either case, so each
 * ASCII word is in the lower-cased text; its Cyrillic verbs all hold "й" (no other character
 * matches it under the flag but "Й"). The password words the other two rules need wake the rules
 * in any text naming a password ("1Password"), and this rule's 1 KB pattern cost 3.8 M
 * instructions to compile on such a reply (docs/privacy.md "Cost"; prefilter.test checks the need).
 */
export const LOGIN_VERB_WORDS: readonly string[] = [
  "anmelden", "angemeldet", "einloggen", "eingeloggt", "connect", "identifi", "sesi", "entra", "acced", "ingresa", "acessa",
  "inloggen", "aanmelden", "logga", "\u0439", "cred", "zugangsdaten", "login",
];
/**
 * The seventh pass's words for password (own-rules.ts, the multilingual password-in-prose rule):
 * Polish, Czech and Slovak, Hungarian, Turkish and Romanian, Vietnamese, Indonesian and Malay,
 * Danish and Norwegian, Croatian and Serbian, Slovenian, Greek, Hebrew, Arabic, Persian, Hindi,
 * Bengali, Thai, Ukrainian: whole words for its pattern, and the stems the pre-filter and the
 * rule's `need` search (PROSE_MORE_WORDS, in PROSE_PASSWORD_WORDS; prefilter.ts has the same).
 */
/**
 * The ninth pass's words for password (docs/privacy.md "A seventh held-out set"): Catalan
 * "contrasenya", Swahili "nenosiri", Bulgarian and Macedonian "парола" ("паролата"), Serbian's
 * Cyrillic "лозинка", Estonian "parool", Lithuanian "slaptažodis", Icelandic "lykilorð", Tamil
 * "கடவுச்சொல்", Telugu "పాస్‌వర్డ్", Georgian "პაროლი" (its "is" a suffix: "პაროლია"), Armenian
 * "գաղտնաբառ", Persian's other "کلمه عبور"; stems where the word takes endings. In PROSE_MORE_WORDS too.
 */
export const NINTH_PASSWORD_WORDS: readonly string[] = ["contrasenya", "nenosiri", "парол", "лозинк", "parool", "slaptažod", "lykilorð", "கடவுச்சொல்", "పాస్‌వర్డ్", "პაროლ", "գաղտնաբառ", "کلمه عبور"];
/**
 * "is" where the password-in-prose rule reads it between the word and the password (own-rules.ts):
 * the languages of the seventh pass, and since the ninth Catalan "és", Swahili "ni", Bulgarian "е",
 * Bengali "হলো"/"হল", Georgian "არის", Armenian "է".
 */
export const PASSWORD_COPULAS = "is|was|are|ist|lautet|war|est|était|es|era|é|è|är|var|on|oli|это|jest|to|je|van|este|er|είναι|הוא|היא|هي|هو|là|adalah|ialah|คือ|є|és|ni|е|হলো|হল|არის|է";
/** "is" that ends the clause, after the password, where the verb comes last: Persian "است", Urdu "ہے", Hindi "है", Bengali "হয়", Tamil "ஆகும்". */
const FINAL_COPULAS = "است|ہے|है|হয়|ஆகும்";
/** The word for password in Lao, Khmer and Burmese (the eighth pass), whole; in PROSE_MORE_WORDS and PROSE_MORE_PASSWORD_WORDS. */
export const UNSPACED_PASSWORD_WORDS: readonly string[] = ["ລະຫັດຜ່ານ", "ពាក្យសម្ងាត់", "စကားဝှက်"];
export const PROSE_MORE_PASSWORD_WORDS = `hasło|hasła|hasłem|haslo|hasla|heslo|hesla|heslem|jelszó|jelszava|jelszo|şifre|şifresi|sifre|sifresi|parola|parolă|parolası|mật khẩu|mat khau|kata sandi|kata laluan|adgangskode|passord|kodeord|lozinka|lozinku|geslo|κωδικός|κωδικό|συνθηματικό|סיסמה|סיסמא|הסיסמה|كلمة المرور|كلمة السر|رمز عبور|گذرواژه|पासवर्ड|পাসওয়ার্ড|รหัสผ่าน|гасло|${UNSPACED_PASSWORD_WORDS.join("|")}|${NINTH_PASSWORD_WORDS.join("|")}`;
export const PROSE_MORE_WORDS: readonly string[] = [
  "hasł", "hasl", "heslo", "hesla", "jelsz", "şifre", "sifre", "parola", "parolă", "mật khẩu", "mat khau", "kata sandi", "kata laluan",
  "adgangskode", "passord", "kodeord", "lozink", "geslo", "κωδικ", "συνθηματικ", "סיסמ", "كلمة المرور", "كلمة السر", "رمز عبور", "گذرواژه",
  "पासवर्ड", "পাসওয়ার্ড", "รหัสผ่าน", "гасло",
  ...UNSPACED_PASSWORD_WORDS, ...NINTH_PASSWORD_WORDS,
];
let keyProseRe: RegExp | undefined;
let finalRe: RegExp | undefined;

export const PLACE_RULES: readonly OwnRule[] = [
  {
    kind: "auth-header",
    // An Authorization header of any scheme (RFC 9110: a scheme word, then the credentials):
    // Splunk's, Opsgenie's "GenieKey", Elastic's "ApiKey", Okta's "SSWS", "Token"; Bearer and
    // Basic are the early rules'. Quoted or not, as a header, a JSON or dictionary entry.
    need: (_t, lower) => lower().includes("authorization"),
    re: /(\b[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]["']?[ \t]*[:=][ \t]*["']?(?![Bb]earer\b|[Bb]asic\b)[A-Za-z][A-Za-z0-9_.-]{1,30}[ \t]+)((?!\[REDACTED)[A-Za-z0-9._~+/=-]{16,})/g,
    replace: (m, pre, value) => (generatedToken((value ?? "").replace(/=+$/, "")) ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "xml-named-value",
    // A secret named by an XML element's attribute, in any framework's config: the value in a
    // `value` attribute (.NET's `<add key="…Secret" value="…"/>`, Spring's and Ant's `<property
    // name="…password" value="…"/>`, `<param name=… value=…>`) or as the element's text
    // (Hibernate's `<property name="hibernate.connection.password">…</property>`, Java's XML
    // properties `<entry key="db.password">…</entry>`). The attribute written `name="…"`, as
    // these frameworks' docs write it (the pre-filter's witness reads that string).
    need: (t, lower) => t.includes("<") && (lower().includes("name=") || lower().includes("key=")),
    get re() {
      return (xmlRe ??= new RegExp(
        `(<[A-Za-z][\\w:.-]*\\s[^<>]*?\\b(?:${caseless("name|key")})=["'](${caseless(SECRET_NAME)})["'][^<>]*?\\b${caseless("value")}\\s*=\\s*["'])((?!\\[REDACTED)[^"'<>\\s]{4,})(?=["'])` +
          `|(<([A-Za-z][\\w:.-]*)\\s[^<>]*?\\b(?:${caseless("name|key")})=["'](${caseless(SECRET_NAME)})["'][^<>]*>)((?!\\[REDACTED)[^<\\s]{4,})(?=</)`,
        "g",
      ));
    },
    replace: (m, aPre, aName, aValue, ePre, _tag, eName, eValue) =>
      aPre ? (keepAssignment(aName ?? "", aValue ?? "") ? `${aPre}${aValue}` : `${aPre}${m}`) : keepAssignment(eName ?? "", eValue ?? "") ? `${ePre}${eValue}` : `${ePre}${m}`,
  },
  {
    kind: "password-call",
    // A password passed to a log-in call with its user: Python's smtplib, imaplib and ftplib
    // (`server.login("ana@…", "…")`), any client's `.login(user, password)` or
    // `.authenticate(user, password)`. The literal may hold spaces (Google's app passwords).
    need: (t) => t.includes(".login(") || t.includes(".authenticate(") || t.includes(".auth(") || t.includes(".signin(") || t.includes(".sign_in("),
    re: /(\.(?:login|authenticate|auth|signin|sign_in)\(\s*[^,()\n]{1,80}?\s*,\s*)(["'])((?!\[REDACTED)[^"'\n]{4,64})\2(?=\s*[,)])/g,
    replace: (m, pre, q, value) => (looksLikeValueNotSecret(value ?? "") || /^\s|\s$|^[$%{<]/.test(value ?? "") ? `${pre}${q}${value}${q}` : `${pre}${q}${m}${q}`),
  },
  {
    kind: "password-flag",
    // A command line's option that names a secret, its value after a space: Java's keytool and
    // jarsigner (`-storepass`, `-srcstorepass`, `-keypass`), `--db-password …`, `--api-token …`,
    // `--client-secret …` (`--name=value` is the assignment rule's). Not `--no-password`, not a
    // file or an environment variable given for it (`--token-file`, `-pass env:VAR`).
    need: (t) => t.includes("-"),
    // One bounded class before the secret word, not nested repeats (which backtrack on a long flag).
    re: /(\s-{1,2}(?!no-)[A-Za-z0-9_.-]{0,40}?(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[-_]?key|access[-_]?key|private[-_]?key)[ \t]+)(["']?)((?![-$<{[]|\[REDACTED)[^\s"']{4,})\2/g,
    replace: (m, pre, q, value) => (flagSecret(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "password-flag",
    // A user and a password given as `-u <user> … -p <password>` (Apple's altool, mongo, influx,
    // many database clients), the password a password, an app password or a generated token:
    // `docker run -u 1000 -p 8080:80` publishes a port.
    // mosquitto_pub's and mosquitto_sub's password is `-P` (their `-p` is the port).
    need: (t) => t.includes("-p") || t.includes("-P"),
    re: /(\s-u[ \t]+[^\s-][^\s]*[ \t]+(?:[^\s]+[ \t]+){0,8}?-[pP][ \t]+)(["']?)((?![-$<{[]|\[REDACTED)[^\s"']{4,})\2/g,
    replace: (m, pre, q, value) => (flagSecret(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "password-flag",
    // Oracle's tools log on as `user/password@connect_identifier` (SQL*Plus, RMAN, Data Pump,
    // SQL*Loader, Data Guard's broker): the password. `sqlplus / as sysdba` names no user.
    need: (t) => ["sqlplus", "rman", "expdp", "impdp", "sqlldr", "dgmgrl"].some((w) => t.includes(w)),
    // RMAN's second logon ("catalog rco/…@rcat") on the same line too.
    re: /((?:\b(?:sqlplus|rman|expdp|impdp|sqlldr|dgmgrl)\b(?:[ \t]+(?:-[A-Za-z]+|target|catalog|auxiliary|userid=))*|(?<=\brman\b[^\n]*)[ \t](?:catalog|auxiliary))[ \t]+["']?[A-Za-z][\w$#.]*\/)((?![$@/"']|\[REDACTED)[^\s@/"']{3,128})(?=[@\s"']|$)/g,
    replace: (m, pre, value) => (looksLikeValueNotSecret(value ?? "") ? `${pre}${value}` : `${pre}${m}`),
  },
  {
    kind: "password-in-prose",
    // The ninth pass: where the verb comes last, the password ends the clause before its "is"
    // (Persian "رمز عبور سرور آزمایشی … است", Tamil "… கடவுச்சொல் … ஆகும்"): the word for password,
    // a few words of the clause, the password, then that "is". The password as the other prose rules check it (namedPassword).
    need: (_t, lower) => PROSE_MORE_WORDS.some((w) => lower().includes(w)),
    get re() {
      return (finalRe ??= new RegExp(
        `((?<![${SPACED_LETTERS}])(?:${PROSE_MORE_PASSWORD_WORDS})[${L}]{0,4}(?:[^.,;\\n:：=。、，"]{0,40}?\\s)?)((?!\\[REDACTED)[^\\s"'\`。、，]{8,64})(?=\\s+(?:${FINAL_COPULAS})(?![${L}]))`,
        "gi",
      ));
    },
    replace: (m, pre, value) => (namedPassword(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "named-in-prose",
    // A key, a token or a secret in a sentence of any language: the word, a few words of its
    // clause ("de producción de Mercado Pago", "（長期）"), then "is" in that language, a colon or a
    // CJK particle, then a random token (proseToken: letters, two digits, more than 3 bits a
    // character, not an identifier) of 16 or more, not a path or a URL's rest ("https:" is no
    // colon of a sentence), the clause not across a double quote. ("my key is …", the word right before the
    // token, is the English named-in-prose rule's.) Not the word inside a marker's kind
    // ("[REDACTED:groq-api-key] is …"): a marker's kind is no word of the text.
    need: (_t, lower) => PROSE_KEY_WORDS.some((w) => lower().includes(w)),
    get re() {
      return (keyProseRe ??= new RegExp(
        `((?<![${SPACED_LETTERS}]|\\[REDACTED:[a-z0-9-]{0,40})(?:${PROSE_KEY_WORDS.map(esc).join("|")})[${L}]{0,4}[^.,;\\n:：=。、，"\`]{0,40}?(?:\\s(?:${COPULAS})(?![${L}])|\\s?[:：]|は|是|为|為|은|는|이|가|${UNSPACED_COPULAS})\\s*)(["'\`]?)((?!\\[REDACTED|[/\\\\])[A-Za-z0-9_\\-+/=.]{16,})\\2`,
        "gi",
      ));
    },
    // A key's fingerprint ("key fingerprint is SHA256:…") or a labelled hash is public.
    replace: (m, pre, q, token) => (proseToken((token ?? "").replace(/[.]+$/, "")) && !/fingerprint|(?:sha\d*|md5)\s*[:：]\s*$/i.test(pre ?? "") ? `${pre}${q}${m}${token?.match(/[.]+$/)?.[0] ?? ""}${q}` : `${pre}${q}${token}${q}`),
  },
];
let xmlRe: RegExp | undefined;
