/**
 * The ninth-set pass (docs/privacy.md "A ninth held-out set"): secrets by the family of their
 * place in what a coding session shows, no rule naming a provider: a key or id-shaped token in a
 * sentence where a secret's word or another script surrounds it; a key in a URL's path after a
 * segment that says key or hook, in a query or fragment parameter named as a token, or as a
 * URL's user with no password; `-u <token>:` (a key as the user of basic auth); a name/value pair
 * whose name says secret (HAR and Postman headers, JSON escaped inside JSON); the password
 * argument after a DSN. (A markdown table's row, a key in a code span and a command's printed
 * secret field had rules here until the context rule replaced them: docs/privacy.md "Context, not
 * families".) Their pre-filter witnesses are in witness-families.ts (the last entries).
 */
import type { OwnRule } from "./own-rules.js";
import { generatedKey, held, secretValue } from "./own-families.js";
import { strongRandom } from "./own-shapes.js";
import { besideWords, otherScriptLine, proseLine } from "./witness-families.js";
import { secretStem } from "./letters.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A key as a service issues one: generated (own-families.ts), or a UUID (an id elsewhere; a key where its place says so). */
function keyShaped(v: string): boolean {
  return held(v) && (generatedKey(v) || UUID.test(v) || /^[0-9a-fA-F]{32,}$/.test(v));
}
/* A secret's word at a word's start, in any inflection (`tokeni`, `API`, `passwort`): the English stems other
 * languages borrow (letters.ts secretStem: /(?:^|[^\p{L}])(?:api|token|secret|passw|apikey|key)/iu without compiling it). */
/** What a hash or an id is called beside it: then the hex is no key. */
const HASH_WORD = /hash|sha\d*|md5|commit|checksum|digest|fingerprint|\buuid|\bid\b|request|trace|build|version|etag/i;

export const NINTH_RULES: readonly OwnRule[] = [
  {
    kind: "prose-key",
    // A 32-64 hex or a UUID in a line of prose (no code's brackets, no URL) whose other words are of
    // another script than Latin, or hold a secret's word as a stem: the prose-password rule leaves hex
    // out (hashes), and an id is an id where nothing says key.
    re: /(?<![\w-])(?=[0-9a-fA-F]{8})(?<=(?:^|\n)([^\n{}[\]=;<>|\\]*?))([0-9a-f]{32,64}|[0-9A-F]{32,64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w-])(?=([^\n{}[\]=;<>|\\]*)(?:\n|$))/g,
    replace: (m, before, token, after) => {
      const line = `${before ?? ""} ${after ?? ""}`;
      // The script of the words beside it (two each side), as the prose-password rule reads it: a message may quote the line after words of its own.
      return proseLine(line) && !HASH_WORD.test(line) && (otherScriptLine(besideWords(before ?? "", after ?? "")) || secretStem(line)) ? m : token ?? "";
    },
  },
  {
    kind: "url-path-key",
    // A URL's path segments after one that says a key or a hook follows (`/key/<k>`, `/hook/<uuid>`,
    // `/hooks/catch/<id>/<k>`, `/inputs/<uuid>`, `/webhooks/<id>/<k>`), and a 32-64 hex as a URL's
    // whole path or after a version (`/<key>/`, `/v2/<key>`): an endpoint that carries its key (an
    // asset's content hash has a file after it).
    need: (t) => t.includes("://"),
    re: /(:\/\/[\w.-]+(?::\d+)?(?:\/[\w.-]+)*?\/(?:key|keys|token|tokens|hook|hooks|webhook|webhooks|inputs|secret)(?:\/(?:catch|services|bot|v\d))?\/)([\w-]{6,}(?:\/[\w-]{6,})?)|(:\/\/[\w.-]+(?::\d+)?\/(?:v\d+\/)?)([0-9a-f]{32,64})(?=\/?(?:[?#'"\s,;)]|$))/g,
    replace: (m, pre, value, pre2) => {
      if (pre2) return `${pre2}${m}`; // (a group that took no part comes as "")
      const parts = (value ?? "").split("/");
      return parts.some((p) => keyShaped(p) || (parts.length > 1 && /\d/.test(p) && /[a-z]/i.test(p))) ? `${pre}${m}` : `${pre}${value}`;
    },
  },
  {
    kind: "url-param-token",
    // A query or fragment parameter named as a token or key (`#access_token=`, `&token=`,
    // `?api_key=`), its value percent-decoded and judged: a placeholder or a word is kept.
    need: (t) => t.includes("="),
    re: /([?&#](?:[a-z]+_)?(?:token|key|apikey|api_key|secret|password)=)([A-Za-z0-9._~%+-]{16,})/g,
    replace: (m, pre, value) => {
      let v = value ?? "";
      try { v = decodeURIComponent(v); } catch { /* left as written */ }
      return held(v) && (generatedKey(v.replace(/=+$/, "")) || strongRandom(v.replace(/=+$/, ""))) ? `${pre}${m}` : `${pre}${value}`;
    },
  },
  {
    kind: "url-user-token",
    // A URL's user that is a key and no password (`https://<key>:@host`, `https://<key>@host`): a
    // registry's or mirror's source with its token; a user name (`git@`) is no key.
    need: (t) => t.includes("://") && t.includes("@"),
    // A DSN's user with no ":" is its public key (an error tracker's `dsn: "https://<hex>@…"`): kept.
    re: /((?:([Dd][Ss][Nn])[^\n/]{0,12})?:\/\/)([A-Za-z0-9_-]{16,})(:?)(?=@[\w-]+\.[\w.-]+)/g,
    replace: (m, pre, dsn, value, colon) => (!(dsn && !colon) && (generatedKey(value ?? "") || strongRandom(value ?? "")) ? `${pre}${m}${colon}` : `${pre}${value}${colon}`),
  },
  {
    kind: "user-token",
    // A key given as basic auth's user with an empty password (`curl -u <key>:`, `--user '<key>:'`).
    need: (t) => t.includes(" -u") || t.includes("--user"),
    re: /(\s(?:-u|--user)[ \t=]+["']?)([\w.-]{16,}):(?=["']?(?:\s|$))/g,
    replace: (m, pre, value) => ((value ?? "").split(/[._-]/).some((p) => generatedKey(p)) || generatedKey(value ?? "") ? `${pre}${m}:` : `${pre}${value}:`),
  },
  {
    kind: "name-value-secret",
    // A pair of name and value fields whose name says secret (a HAR's or Postman's headers,
    // `{ "name": "x-api-key", "value": "…" }`), and a key/value of JSON escaped inside JSON (`\"…_KEY\": \"…\"`).
    need: (t) => t.includes('"value"') || t.includes('\\"'),
    re: /("(?:name|key)"\s*:\s*"[^"\n]*(?:[Kk]ey|KEY|[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]assword|PASSWORD|[Aa]uth\w*)"\s*,\s*"value"\s*:\s*")([^"\n]{8,})(?=")|(\\"[\w.-]*(?:KEY|TOKEN|SECRET|PASSWORD|[Kk]ey|[Tt]oken|[Ss]ecret|[Pp]assword)\\"\s*:\s*\\")([^"\\\n]{8,})(?=\\")/g,
    replace: (m, pre, value, pre2, value2) => (!pre2 ? (secretValue(value ?? "") || keyShaped(value ?? "") ? `${pre}${m}` : `${pre}${value}`) : secretValue(value2 ?? "") ? `${pre2}${m}` : `${pre2}${value2}`),
  },
  {
    kind: "dsn-password",
    // The password argument after a DSN and a user (`('mysql:host=…', 'app', '…')`: PDO's constructor, in code or a stack trace).
    need: (t) => t.includes(":host=") || t.includes(":dbname="),
    re: /(\(\s*(["'])[a-z]+:(?:host|dbname)=[^"'\n]*\2\s*,\s*(["'])[^"'\n]*\3\s*,\s*(["']))([^"'\n]{4,})(?=\4)/g,
    replace: (m, pre, _q1, _q2, _q3, value) => (held(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
];

/**
 * Kept by the family of their place (the ninth-set pass; applied to every rule's finding as
 * keptByFamily is), literal checks first: a tool's note in parentheses as a value (`(sensitive
 * value)`, `(known after apply)`); the default or message of an unresolved interpolation
 * (`${NAME:?set it}`, `${NAME:-…}`); a reference to a secret store as a URL of words
 * (`op://vault/item/field`, no user, query or generated segment); a value elided by "..." or "…"
 * after a short prefix and its "-" or "_" (`llx-...`; a value a clip mark cut, `lYH1aEsf…`, is no placeholder); an object's id under an id's label (`Deployment id: dpl_…`);
 * a cache key, three words or more and a content hash (`Linux-pnpm-store-<sha256>`; a key's
 * prefix of short parts, `sk-or-v1-<hex>`, is none).
 */
export function keptByPlace(text: string, start: number, end: number): boolean {
  const value = text.slice(start, end);
  const c = value.charCodeAt(0);
  if (c === 40 && /^\((?:[a-z]+ ?){1,4}\)/.test(text.slice(start, start + 40))) return true;
  const prevCh = text[start - 1];
  if ((prevCh === ":" || prevCh === "-" || prevCh === "?") && /\$\{\w+:[-?=+]?$/.test(text.slice(Math.max(0, start - 80), start))) return true;
  if (value.includes("://") && /^[a-z][a-z0-9+.-]{1,15}:\/\/[\w./-]+$/.test(value) && value.split(/[/.]/).every((p) => p.length < 16 || !generatedKey(p))) return true;
  if ((value.endsWith("...") || value.endsWith("…")) && /^(?:[A-Za-z0-9]{1,8}[-_])?(?:\.{3}|…)$/.test(value)) return true;
  if (value.charCodeAt(2) === 95 || value.charCodeAt(3) === 95 || value.charCodeAt(4) === 95) {
    if (/^[a-z]{2,4}_[A-Za-z0-9]{12,}$/.test(value) && /\b[Ii][Dd]["']?[ \t]*[:=][ \t]*["']?$/.test(text.slice(Math.max(0, start - 20), start))) return true;
  }
  if (value.includes("-") && /^(?:[A-Za-z][a-z0-9]{2,}-){3,}(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value)) return true;
  return false;
}
