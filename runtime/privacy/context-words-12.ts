/**
 * The context rule's words added by the twelfth pass (docs/privacy.md "Generalisation, twelfth
 * pass"), apart from context-words.ts so that the leave-one-set-out measure
 * (test/privacy/leave-one-out.test.ts) can run the rule with and without them. Source: general
 * knowledge of the words (the languages' own word for password as their localised software
 * writes it, the abbreviations code writes for password), not a fixture; which of these
 * languages the read sets use is said in docs/privacy.md, where it matters for the figures.
 *
 * Example: `STRONG_PARTS_12.has("pswd")` -> true.
 */

/** Name parts that name a secret whatever the rest of the name: more abbreviations of password, a pepper (a hash's secret salt), password in five more languages as a name's part. */
export const STRONG_PARTS_12: ReadonlySet<string> = new Set([
  "pswd", "psw", "pwrd", "passwrd", "passw", "pepper",
  // One-word terms of other languages, read as a name's part or a word of prose by their anchor (one search each, no
  // stem): Esperanto, Irish, Luxembourgish, Frisian, Maori, Zulu, Igbo, Malagasy, Haitian Creole, Occitan; German
  // "Zugangsdaten" and "Zugriffstoken", Dutch "inloggegevens" and "toegangstoken", "credentials" in Spanish,
  // Portuguese and Italian.
  "pasvorto", "pasfhocal", "passwuert", "wachtwurd", "kupuhipa", "iphasiwedi", "okwuntughe", "tenimiafina", "modpas", "senhal",
  "zugangsdaten", "zugriffstoken", "inloggegevens", "toegangstoken", "credenciales", "credenciais", "credenziali",
  // Pinyin names of Chinese code: mima (密码, password), miyao (密钥, secret key).
  "mima", "miyao",
]);

/**
 * Name parts that name a secret only in a name: a secret access key's "SK" beside its "AK"
 * (`…_SDK_SK`: read only as a part after "_", by the anchor "_sk"), a flag's "sec" (`--sec`, by
 * the anchor "-sec"), a configuration's "encrypt" key (its value must be generated).
 */
export const WEAK_PARTS_12: ReadonlySet<string> = new Set(["sk", "sec", "encrypt"]);

/** Words of prose (stems, lower-cased) for password, API key, access token, credentials and passphrase. */
export const PROSE_STEMS_12: readonly string[] = [
  // Latin script: Esperanto, Irish, Scottish Gaelic, Breton, Luxembourgish, Frisian, Faroese, Maori, Zulu, Hausa,
  // Kinyarwanda, Yoruba, Igbo, Malagasy, Haitian Creole, Javanese, Occitan, Kurdish, Upper Sorbian's "hesło".
  // (Their one-word terms are STRONG_PARTS_12, read by ANCHORS_12.)
  "facal-faire", "ger-tremen", "loyniorð", "kalmar sirri", "ijambo ry'ibanga", "ọ̀rọ̀ aṣínà", "ọrọ aṣina", "ọrọigbaniwọle",
  "tembung sandhi", "şîfre", "hesł",
  // "API key", "access token", "credentials", "passphrase" in European languages; SQL's "IDENTIFIED BY" (a user's password, in every dialect that has it).
  "clé api", "clé d'api", "clave api", "clave de api", "chave api", "chave de api", "chiave api", "api-schlüssel", "api-sleutel",
  "api-nyckel", "api-nøgle", "api-nøkkel", "klucz api", "api-avain", "api-kulcs", "cheie api", "klíč api", "kľúč api",
  "dane logowania", "phrase secrète", "frase secreta", "frase de contraseña", "parola segreta", "lösenfras", "identified by",
  // Other scripts: Sinhala, Marathi, Odia, Assamese, Pashto, Sindhi, Kyrgyz, Tatar, Tibetan; "credentials" in Russian;
  // "API key" with Japanese, Korean and Chinese words for key.
  "මුරපදය", "संकेतशब्द", "ପାସୱାର୍ଡ", "পাছৱৰ্ড", "پټنوم", "پاسورڊ", "сырсөз", "серсүз", "གསང་ཚིག", "учетные данные",
  "учётные данные", "apiキー", "api キー", "api 키", "api키", "api 密钥", "api密钥", "api 金鑰", "金鑰",
];

/** The anchors of the new parts: those no older anchor holds ("pass", "cred", "token" read the rest); "_sk" and "-sec" read the part after their separator. */
export const ANCHORS_12: readonly string[] = [
  "psw", "pepper", "pasvorto", "pasfhocal", "wachtwurd", "kupuhipa", "iphasiwedi", "okwuntughe", "tenimiafina", "modpas", "senhal",
  "zugangsdaten", "inloggegevens", "toegangstoken", "mima", "miyao", "_sk", "-sec", "encrypt",
];
