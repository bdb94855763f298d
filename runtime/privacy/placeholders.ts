/**
 * Values a rule matched that are not secrets (issue 34: over-redaction down): placeholders
 * (`xxxx…`, `<token>`, `your_api_key`, `…EXAMPLE`, runs of one character, `abcdefgh…`,
 * `12345678…`), masked values (`####`), identifiers made of words (`hf_requiredCharacteristic…`,
 * camelCase with acronyms: `rhf_SponsoredProductsRemoteRHFSearch…`), key blocks with no key in
 * them, and values that are only references to variables (`${APIKEY:-${DEFAULT_APIKEY}}`). The full redactor drops such a finding (engine.ts).
 *
 * Why these bounds: a random token of 24 characters or more of the 62 letters and digits has
 * 75% of its characters in word-like runs (a capital then four or more lower-case letters)
 * about once in 2,000 (letters only, 34 characters: once in 2,000; measured by sampling 300,000
 * random tokens); a run of six equal characters about once in 10^9 per position (and runs are read only when
 * together they are 30% of the value or more); a named
 * placeholder word ("example", "placeholder") about once in 10^7.
 *
 * Example: `notASecret("AKIAIOSFODNN7EXAMPLE")` -> true; `notASecret("Xk3mQ9vT2bLpR7sW")` -> false.
 */

import { testCaseless } from "./own-shapes.js";

const REPEATED = /([A-Za-z0-9])\1{5,}/g;
const MASKED = /[#*•]{4,}/;
// WORDS and SEQUENCES are caseless, tried on the lower-cased value (testCaseless: a third of the cost to compile).
export const WORDS = /example|placeholder|your[_-]|dummy|changeme|change[_-]me|replace[_-]?me|randomstring|fake|redacted|insert[_-]|xxxx|short|invalid|not[_-]an?[_-]|<[a-z_ -]{2,40}>|\{\{|\$\{/;
export const SEQUENCES = /abcdefgh|bcdefghi|cdefghij|12345678|23456789|34567890|qwertyui/;
// A word (a capital or none, then lower-case letters), or an acronym of two to four capitals
// just before a capitalised word ("RHFSearch", "EXPSubs": camelCase names hold them).
const WORD_RUN = /[A-Z]{2,4}(?=[A-Z][a-z]{3,})|[A-Z]?[a-z]{3,}/g;

/**
 * The share of `s` in word-like runs (a capital or none, then four or more lower-case letters).
 * A run of more than 15 letters is no word ("ywgmtpgduudyzateucjqwbe", a lower-case random key
 * with one digit, was taken for an identifier of words and kept in clear under a secret's name;
 * found by the property test that puts generated values under every provider name): English words
 * and the parts of camelCase names are shorter ("Characteristic" is 14).
 */
function wordShare(s: string): number {
  let n = 0;
  for (const m of s.matchAll(WORD_RUN)) if ((m[0].length >= 5 && m[0].length <= 15) || /^[A-Z]+$/.test(m[0])) n += m[0].length;
  return n / s.length;
}

/**
 * The longest run of letters or digits that each follow the one before in the alphabet
 * ("klmnopqr", "23456789"): typed by hand into examples ("sk-ant-api03-abc123xyz-…-klmnopqrstuvwx").
 * A run of eight in a random token of 62 symbols: about once in 10^12 per position.
 */
function ascendingRun(s: string): number {
  let best = 1;
  let run = 1;
  for (let i = 1; i < s.length; i++) {
    const a = s.charCodeAt(i - 1);
    const b = s.charCodeAt(i);
    const alnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    run = b === a + 1 && alnum(a) && alnum(b) ? run + 1 : 1;
    if (run > best) best = run;
  }
  return best;
}

const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+]([^${}]*))?\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]/g;

/**
 * Only references to variables, with shell defaults that are references too:
 * "${USER:-${DEFAULT_USER}}:${APIKEY:-${DEFAULT_APIKEY}}", "$TOKEN", "%API_KEY%", Python's
 * configparser and printf interpolation "%(smtp_secret)s". What runs
 * there is filled in at run time: no value is written. Checked for every rule's finding,
 * gitleaks' provider rules included (its curl rule took the nested default above).
 */
export function onlyReferences(s: string): boolean {
  let rest = s;
  for (let i = 0; i < 4; i++) {
    // A default written out ("${API_KEY:-sk-…}", "${DB_PASSWORD:-hunter}") is a value: only an
    // empty one or a placeholder is taken away with its reference.
    const next = rest.replace(REFERENCE, (ref: string, dflt: string | undefined) => (dflt === undefined || dflt === "" || notASecret(dflt) ? "" : ref));
    if (next === rest) break;
    rest = next;
  }
  return rest !== s && /^[\s:@'"`/,;=]*$/.test(rest);
}

/**
 * Whether a placeholder word WORDS finds in `s` is written as a word: each of its camelCase parts
 * lower-case, upper-case or capitalised ("fake", "FAKE", "changeMe", "YourKey"), not cased at
 * random ("59VAfAKeEv98", a random password that spells "fake" caselessly: the ninth pass).
 */
function writtenWord(s: string): boolean {
  const lower = s.toLowerCase();
  for (let from = 0; from < lower.length; ) {
    const m = WORDS.exec(lower.slice(from));
    if (m === null) return false;
    const at = from + m.index;
    const parts = s.slice(at, at + m[0].length).split(/(?<=[a-z])(?=[A-Z])/);
    if (parts.every((p) => !/[A-Z]/.test(p.slice(1)) || !/[a-z]/.test(p))) return true;
    from = at + 1;
  }
  return false;
}

export function notASecret(s: string): boolean {
  if (s.startsWith("-----BEGIN")) return !/[A-Za-z0-9+/=]{16,}/.test(s.replace(/-----(?:BEGIN|END)[A-Z ]*-----/g, ""));
  // A run of one character is a placeholder when it is a good part of the value; base64 of
  // binary data holds runs of "A" (zero bytes) in real tokens (Fly.io's macaroons).
  // A leading run of 20 "A"s before a random tail with both cases and a digit is X's bearer
  // tokens' documented start (the ninth pass): the tail is read.
  const tail = s.replace(/^A{20,}/, "");
  const read = tail.length >= 16 && tail !== s && /[a-z]/.test(tail) && /[A-Z]/.test(tail) && /\d/.test(tail) ? tail : s;
  let runs = 0;
  for (const m of read.matchAll(REPEATED)) runs += m[0].length;
  if (runs >= 0.3 * read.length) return true;
  if (MASKED.test(s) || (testCaseless(WORDS, s) && writtenWord(s)) || testCaseless(SEQUENCES, s) || ascendingRun(s) >= 8 || onlyReferences(s)) return true;
  // An identifier of words after a short prefix ("hf_", "rhf_"): the body alone is read.
  const body = s.replace(/^[A-Za-z0-9]{1,8}[_-]/, "");
  return body.length >= 24 && !/[0-9+/=]/.test(body.replace(/[A-Z]?[a-z]+/g, "").replace(/[0-9]/, "")) && wordShare(body) >= 0.75;
}
