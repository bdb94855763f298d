/**
 * The vocabulary of the context rule (context-secrets.ts): words that say "the value beside me is
 * a secret", in the syntaxes of code (as a name's part: `DB_PASSWORD`, `apiKey`, `--auth-token`)
 * and in the languages people write to each other. Written from general knowledge of the words,
 * not from any fixture: the English and code words, and the word for password (and for key,
 * secret and token where a language has its own) in some fifty languages, most of those the
 * capture sees. docs/privacy.md "Context, not families" says why one list and one value test
 * rather than a rule per place.
 *
 * Example: `namePartKind("password")` -> "strong"; `namePartKind("key")` -> "weak";
 * `namePartKind("monkey")` -> null.
 */
import { familyOn } from "./context-families.js";
import { STRONG_PARTS_12, WEAK_PARTS_12 } from "./context-words-12.js";

/**
 * Name parts (lower-cased, split at "_", "-", ".", case changes) that name a secret whatever else
 * the name says: a password, a passphrase, a secret, credentials, a pre-shared key, a PIN.
 */
const STRONG_PARTS = new Set([
  "password", "passwords", "passwd", "passwort", "passphrase", "passcode", "pwd", "pw", "pword", "secret", "secrets",
  "credential", "credentials", "creds", "cred", "psk", "pin", "mnemonic", "apikey", "apisecret", "authkey", "authtoken",
  "accesskey", "secretkey", "privatekey", "masterkey", "encryptionkey", "accesstoken", "refreshtoken",
  // Latin-script words for password, secret and key in other languages, written as a name's part.
  "kennwort", "geheim", "schluessel", "schlussel", "motdepasse", "mdp", "contrasena", "contraseña", "clave", "senha", "segredo",
  "chave", "chiave", "segreto", "wachtwoord", "sleutel", "losenord", "lösenord", "nyckel", "passord", "adgangskode", "kodeord",
  "salasana", "avain", "parool", "haslo", "hasło", "heslo", "geslo", "lozinka", "sifra", "šifra", "jelszo", "jelszó", "parola",
  "parolă", "parole", "sifre", "şifre", "şifrə", "parol", "slaptazodis", "slaptažodis", "wagwoord", "nenosiri", "contrasenya",
]);

/**
 * Name parts that name a secret only in a name (a compound, a flag, a key before ":" or "="), not
 * as a word of prose: "the key to the door", "pass the value", "a session of work".
 */
const WEAK_PARTS = new Set([
  "key", "keys", "pass", "token", "tokens", "auth", "authorization", "cookie", "cookies", "session", "sessionid", "seed",
  "otp", "totp", "hotp", "recovery", "license", "licence", "bearer", "keystore", "keyfile", "private", "pat", "pem", "cle", "clé",
  "clef", "jeton", "llave", "ключ", "токен", "секрет",
]);

/** A name's parts with their offsets in `name`: split at "_", "-", ".", a lower-case letter before a capital, letters and digits. */
export function nameParts(name: string): Array<{ at: number; part: string }> {
  const out: Array<{ at: number; part: string }> = [];
  let start = 0;
  const push = (end: number): void => {
    if (end > start) out.push({ at: start, part: name.slice(start, end).toLowerCase() });
  };
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 95 || c === 45 || c === 46) {
      push(i);
      start = i + 1;
      continue;
    }
    const p = i > start ? name.charCodeAt(i - 1) : -1;
    // camelCase: a capital after a lower-case letter; "APIKey": a capital followed by lower case after capitals.
    const upper = c >= 65 && c <= 90;
    const lowerBefore = p >= 97 && p <= 122;
    const capsRun = p >= 65 && p <= 90 && i + 1 < name.length && name.charCodeAt(i + 1) >= 97 && name.charCodeAt(i + 1) <= 122;
    if (upper && (lowerBefore || capsRun)) {
      push(i);
      start = i;
    }
  }
  push(name.length);
  return out;
}

/** Words ending in a secret's part that are none (`monkey`, `bypass`). */
const NOT_ENDINGS = new Set([
  "monkey", "turkey", "hockey", "jockey", "donkey", "whiskey", "lackey", "hotkey", "bypass", "compass", "surpass", "trespass",
  "overpass", "underpass", "encompass", "keypass", "spin", "pin", "opin",
]);

/** The endings a name's part is read by (`setcookie`, `dbpass`, `rootpw`, `vmtoken`). */
const ENDINGS = ["password", "passwd", "passphrase", "secret", "token", "key", "pass", "pwd", "pw", "cookie", "cred", "creds"];

/**
 * What a name's part says: "strong" (a secret whatever the rest of the name), "weak" (a secret in
 * a name, not in prose), or null. A part that ends in one of ENDINGS counts as that ending
 * (`setcookie`, `rootpw`), unless it is a word that merely ends so (`monkey`, `compass`).
 */
export function namePartKind(part: string): "strong" | "weak" | null {
  if (STRONG_PARTS.has(part)) return "strong";
  if (WEAK_PARTS.has(part)) return "weak";
  if (familyOn("words")) {
    if (STRONG_PARTS_12.has(part)) return "strong";
    if (WEAK_PARTS_12.has(part)) return "weak";
  }
  if (part.length > 20 || NOT_ENDINGS.has(part)) return null;
  // The part before the ending is letters (`setcookie`, `rootpw`), not a random run's (`s0pw` in base64).
  for (const e of ENDINGS) if (part.length > e.length + 1 && part.endsWith(e) && /^[a-z]+$/.test(part.slice(0, -e.length))) return namePartKind(e);
  return null;
}

/**
 * Words for password, secret and key in scripts and languages that write them as words of prose
 * (matched as a stem: inflections follow it), lower-cased. A hit is "strong".
 */
export const PROSE_STEMS: readonly string[] = [
  // European languages (Latin script), as prose writes them.
  "mot de passe", "palavra-passe", "palavra passe", "parola d'ordine", "contraseña", "contrasena", "contrasenya", "contrasinal",
  "passwort", "kennwort", "wachtwoord", "lösenord", "losenord", "passord", "adgangskode", "kodeord", "salasana", "salasõna",
  "parool", "hasło", "haslo", "hesl", "geslo", "lozink", "šifr", "jelszó", "jelszav", "jelszo", "parol", "slaptažod", "şifre",
  "şifrə", "sifre", "fjalëkalim", "lykilorð", "cyfrinair", "pasahitz", "wagwoord", "nenosiri", "senha", "mật khẩu", "mat khau",
  "kata sandi", "kata laluan",
  // Cyrillic, Greek, Armenian, Georgian.
  "пароль", "парол", "лозинк", "гасло", "құпиясөз", "нууц үг", "κωδικ", "συνθηματικ", "գաղտնաբառ", "პაროლ",
  // Hebrew, Arabic, Persian, Urdu.
  "סיסמ", "كلمة المرور", "كلمة السر", "كلمة مرور", "رمز عبور", "گذرواژه", "کلمه عبور", "پاس ورڈ",
  // Indic and South-East Asian scripts, CJK, Hangul, Ethiopic.
  "पासवर्ड", "कूटशब्द", "পাসওয়ার্ড", "ਪਾਸਵਰਡ", "પાસવર્ડ", "கடவுச்சொல்", "పాస్‌వర్డ్", "ಪಾಸ್‌ವರ್ಡ್", "പാസ്‌വേഡ്", "รหัสผ่าน",
  "ລະຫັດຜ່ານ", "ពាក្យសម្ងាត់", "စကားဝှက်", "密码", "密碼", "口令", "密钥", "密鑰", "秘钥", "令牌", "パスワード", "暗証番号",
  "秘密鍵", "トークン", "비밀번호", "패스워드", "암호", "토큰", "የይለፍ ቃል",
  // Key, secret and token as words of other languages.
  "schlüssel", "geheimnis", "clé secrète", "clave secreta", "chave secreta", "chiave segreta", "секретн", "ключ", "токен",
  "κλειδί", "מפתח", "مفتاح", "کلید", "कुंजी", "khóa bí mật", "kunci rahasia", "anahtar", "açar",
];

/**
 * The lower-case anchors searched first: every strong or weak part of ASCII or Latin letters
 * holds one (a hit is then read whole by the name it stands in).
 */
export const ANCHORS: readonly string[] = [
  "pass", "pw", "secret", "cred", "psk", "mnemonic", "key", "token", "auth", "cookie", "session", "seed", "otp", "recovery",
  "licen", "bearer", "kennwort", "geheim", "schl", "mdp", "contras", "clave", "senha", "segredo", "chave", "chiave", "segreto",
  "wachtwoord", "sleutel", "nyckel", "adgangskode", "kodeord", "salasana", "avain", "parol", "parool", "hasl", "has\u0142", "hesl",
  "geslo", "lozinka", "sifr", "\u0161ifr", "jelsz", "slapta", "wagwoord", "nenosiri", "cle", "cl\u00e9", "jeton", "llave",
  "l\u00f6senord", "losenord", "\u015fifr",
];

/**
 * Words that, beside a name or between it and the value, say the value is no secret: a hash, an
 * id, a public key, a length, a policy, a name. ("password hash", "token id", "key fingerprint".)
 */
export const NOT_SECRET_WORDS = new Set([
  "hash", "hashes", "hashed", "digest", "checksum", "fingerprint", "sha", "sha1", "sha256", "sha512", "md5", "id", "ids", "uuid",
  "identifier", "name", "names", "type", "types", "length", "len", "size", "count", "policy", "policies", "field", "fields",
  "column", "file", "path", "url", "uri", "public", "pub", "example", "sample", "format", "expires", "expiry", "expiration",
  "version", "commit", "etag", "integrity", "nonce", "salt", "kid", "alias", "label", "hint", "prompt", "reset", "strength",
  "rotation", "ttl", "timeout", "limit", "max", "min", "index", "prefix", "suffix", "header", "env", "var", "variable", "ref",
  "reference", "placeholder", "request", "trace", "span", "build", "job", "run", "accessor", "lookup", "cache", "sort",
  "primary", "foreign", "partition", "idempotency", "csrf", "xsrf", "authenticity", "site", "publishable", "anon",
  // A property of the secret, not the secret (`passwordProtected`, `token_required`), a ciphertext's label, a file's extension.
  "protected", "required", "enabled", "disabled", "changed", "needed", "valid", "validation", "manager", "forgotten", "secure",
  "encrypted", "ciphertext", "sealed", "list", "show", "get", "delete", "remove", "rm", "revoke", "rotate", "export",
  "import", "describe", "inspect", "find", "search", "ls", "fetch", "generate", "gen", "verify", "check", "edit", "update", "txt", "json", "yaml", "yml", "crt", "cer", "csv", "log", "md", "html", "xml",
]);
