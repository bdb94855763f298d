/**
 * The redaction corpus (test/fixtures/privacy/secret-corpus.yaml) expanded into texts. Each
 * secret is generated from a PRNG seeded by its entry's id, so the repository holds recipes,
 * not credentials, and the texts are the same on every run.
 *
 * Example: `{id: "sendgrid", secret: "SG.{b64url:22}.{b64url:43}"}` -> secret "SG.k3…", text
 * "SENDGRID_KEY is SG.k3… in prod".
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { fnv1a32Utf16 } from "../../core/fnv1a.js";
import { mulberry32 } from "../../core/mulberry32.js";

export type Split = "dev" | "held-out";

export interface SecretCase {
  id: string;
  split: Split;
  text: string;
  /** The secret as it appears in `text` (after any cut). */
  secret: string;
}
export interface LookAlike {
  id: string;
  split: Split;
  text: string;
}

interface RawSecret {
  id: string;
  split: Split;
  text: string;
  secret: string;
  cut?: number;
  cutStart?: number;
}
interface RawLookAlike {
  id: string;
  split: Split;
  text: string;
}

/** The repository's root, found upwards from this module (it runs from test/ and from dist/test/). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    if (dirname(dir) === dir) throw new Error(`corpus.ts: no package.json above ${dirname(fileURLToPath(import.meta.url))}; expected to run inside the repository`);
    dir = dirname(dir);
  }
  return dir;
}
export const CORPUS_FILE = join(repoRoot(), "test", "fixtures", "privacy", "secret-corpus.yaml");
/** The third held-out set (issue 34): providers and forms in neither file above. */
export const HELD_OUT_DOORS_FILE = join(repoRoot(), "test", "fixtures", "privacy", "held-out-doors.yaml");
/** Secret shapes held out from the pre-filter's making (runtime/privacy/prefilter.ts). */
export const PREFILTER_HELD_OUT_FILE = join(repoRoot(), "test", "fixtures", "privacy", "prefilter-held-out.yaml");

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALPHABETS: Record<string, string> = {
  alnum: UPPER + LOWER + DIGITS,
  lower: LOWER,
  alpha: UPPER + LOWER,
  upper: UPPER,
  digits: DIGITS,
  hex: "0123456789abcdef",
  HEX: "0123456789ABCDEF",
  b64: `${UPPER}${LOWER}${DIGITS}+/`,
  b64url: `${UPPER}${LOWER}${DIGITS}-_`,
  b32: `${UPPER}234567`,
  b32l: `${LOWER}234567`,
  lnum: LOWER + DIGITS,
  bech32: "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
};

/** Expands one recipe with `rand`. Random runs of letters and digits always hold both (a real key does). */
export function expandRecipe(recipe: string, rand: () => number): string {
  const pick = (alphabet: string, n: number): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    return s;
  };
  return recipe.replace(/\{(\w+)(?::(\d+))?\}/g, (whole, name: string, n?: string) => {
    if (name === "uuid") return [8, 4, 4, 4, 12].map((k) => pick(ALPHABETS["hex"]!, k)).join("-");
    if (name === "jwt") {
      const b = (s: string): string => Buffer.from(s).toString("base64url");
      return `${b('{"alg":"HS256","typ":"JWT"}')}.${b(`{"sub":"${pick(ALPHABETS["alnum"]!, 10)}","iat":1764460800}`)}.${pick(ALPHABETS["b64url"]!, 43)}`;
    }
    const alphabet = ALPHABETS[name];
    if (alphabet === undefined || n === undefined) return whole;
    let s = pick(alphabet, Number(n));
    // A run of 8+ from an alphabet of letters and digits ends in a letter and two digits of
    // that alphabet, as real keys hold both.
    const letters = alphabet.replace(/[^A-Za-z]/g, "");
    if (Number(n) >= 8 && letters.length > 0 && alphabet.includes("0")) s = `${s.slice(0, -3)}${pick(letters, 1)}${pick(DIGITS, 2)}`;
    return s;
  });
}

/**
 * The length of each loaded secret's literal lead (its recipe's text before the first random
 * run), by the expanded secret: filled by loadCorpus, read by leakPieces, so every caller of
 * leakIn(text, secret) measures the same way without carrying the recipe. Secrets are seeded
 * random expansions, so two entries sharing one string would share its lead too.
 */
const FIXED_LEAD = new Map<string, number>();

/**
 * The parsed YAML of each fixture file read so far in this process, by its text. The held-out
 * sets' files check themselves against every other fixture file, so one worker parsed each of
 * the eleven files a dozen times (about 0.1 CPU-s a parse): it is parsed once a process now,
 * and each caller gets its own copy (structuredClone), as a fresh parse would give it. The text
 * is read each time, and a changed text is parsed again.
 */
const parsed = new Map<string, { text: string; value: unknown }>();
export function parseFixture<T>(file: string): T {
  const text = readFileSync(file, "utf8");
  let hit = parsed.get(file);
  if (hit === undefined || hit.text !== text) {
    hit = { text, value: parse(text) as unknown };
    parsed.set(file, hit);
  }
  return structuredClone(hit.value) as T;
}

export function loadCorpus(file = CORPUS_FILE): { secrets: SecretCase[]; lookAlikes: LookAlike[] } {
  const raw = parseFixture<{ secrets: RawSecret[]; lookalikes: RawLookAlike[] }>(file);
  const secrets = raw.secrets.map((s): SecretCase => {
    let secret = expandRecipe(s.secret, mulberry32(fnv1a32Utf16(s.id)));
    let shown = secret;
    if (s.cut !== undefined) {
      secret = secret.slice(0, s.cut);
      shown = `${secret}…`;
    } else if (s.cutStart !== undefined) {
      secret = secret.slice(-s.cutStart);
      shown = `…${secret}`;
    }
    // The recipe's literal lead ("sk_live_", "-----BEGIN ") is no secret: windows wholly
    // inside it are not counted as leaks (leakPieces). A secret cut from its start keeps none.
    const lead = s.cutStart === undefined ? s.secret.split("{")[0]!.length : 0;
    if (lead > 0) FIXED_LEAD.set(secret, Math.min(lead, secret.length));
    return { id: s.id, split: s.split, text: s.text.replace("{S}", shown), secret };
  });
  const lookAlikes = raw.lookalikes.map((l): LookAlike => ({ id: l.id, split: l.split, text: l.text }));
  return { secrets, lookAlikes };
}

/**
 * The pieces of `secret` that must not survive: the whole, and (for secrets of 16+
 * characters) every 12-character window, so a half-redacted token counts as a leak. Windows
 * wholly inside the recipe's literal lead ("prj_live_sk_", "-----BEGIN ") are left out: a
 * kept provider prefix is no leak. (Until 2026-12-07 the comment said so and the code counted
 * them; found by the eighth held-out set's writer.)
 */
export function leakPieces(secret: string): string[] {
  const pieces = [secret];
  const lead = FIXED_LEAD.get(secret) ?? 0;
  if (secret.length >= 16) for (let k = 0; k + 12 <= secret.length; k += 4) if (k + 12 > lead) pieces.push(secret.slice(k, k + 12));
  return pieces;
}

/** The length of `secret`'s literal lead ("sk_live_"), 0 when it has none or was not loaded. */
export const fixedLead = (secret: string): number => FIXED_LEAD.get(secret) ?? 0;

/** The first piece of `secret` found in `text`, or null. */
export function leakIn(text: string, secret: string): string | null {
  for (const p of leakPieces(secret)) if (text.includes(p)) return p;
  return null;
}
