/**
 * `lang/index.json`: the classifier's index (see `index-build.ts`, written by
 * `index-write.ts` with the rule files `lang/<code>.rules.tsv`, see rule-files.ts), generated
 * from the language files and committed beside them. Loaded once per process with one
 * `readFileSync`; its large fields that a short prompt does not need are parsed on first use
 * (see `indexFileText`). After editing a language file, regenerate both:
 *
 *   npx tsc -p tsconfig.json && node -e "import('./dist/runtime/classifier/index-write.js').then((m) => m.writeIndexFile())"
 *
 * (the tests `test/classifier/classify.test.ts` and `prune.test.ts` fail while they are stale).
 *
 * Example: `loadIndex().rules.split("|")[0]` -> "correction.en.no_strong:start:0".
 */
import { readFileSync } from "node:fs";
import type { CaptureIndex } from "./index-build.js";
import { langFile } from "./lang-dir.js";

export const INDEX_SCHEMA = "capture-index/3";

/** Fields parsed only when first read, each on a line of its own after the others. */
const LAZY_FIELDS = ["rating", "reply"] as const;
type LazyField = (typeof LAZY_FIELDS)[number];
const EAGER_HEAD = '{"eager":';

/**
 * The file's text: `{"eager":{…every other field…},` on the first line, then one line per
 * lazy field (`"rating":{…},`), the last closed with `}`; characters outside ASCII as \u
 * escapes. Valid JSON. The loader keeps the file's bytes (outside the JavaScript heap),
 * decodes and parses the first line's object, and a lazy field when it is first read: most
 * prompts never read `reply` (only when a rule asks what the reply was) or `rating` (only
 * with a digit or number word). A hook process so parses and allocates less, and a process
 * that allocates little ends before its first young-generation collection.
 */
export function indexFileText(ix: CaptureIndex): string {
  const eager: Record<string, unknown> = { ...ix };
  for (const f of LAZY_FIELDS) delete eager[f];
  return asciiJson(`${EAGER_HEAD}${JSON.stringify(eager)},\n${LAZY_FIELDS.map((f) => `${JSON.stringify(f)}:${JSON.stringify(ix[f])}`).join(",\n")}}\n`);
}

/** JSON text with every character outside ASCII written as a \u escape. */
export function asciiJson(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The committed index, read once per process. */
export const loadIndex: () => CaptureIndex = once(() => indexFromBytes(readFileSync(langFile("index.json"))));

/**
 * The index from its eager fields given as an object, its lazy fields read from the file on first
 * use: the hook's main bundle holds the eager fields as an object literal, made by
 * scripts/bundle-hook.js from this file when the bundle is built, so a hook process reads them
 * from the bundle's code cache instead of decoding and parsing 36 KB of JSON (docs/privacy.md
 * "Cost"). The file read later must be the one the literal was made from (the same source hash).
 */
export function withLazyFields(eager: Omit<CaptureIndex, LazyField>): CaptureIndex {
  const v = eager as CaptureIndex;
  if (v.schema !== INDEX_SCHEMA) throw new Error(`lang/index.json (in the hook's bundle): expected schema ${INDEX_SCHEMA}; found ${JSON.stringify(v.schema)}`);
  let file: CaptureIndex | undefined;
  const read = (): CaptureIndex => {
    file ??= indexFromBytes(readFileSync(langFile("index.json")));
    if (file.source_sha256 !== v.source_sha256) throw new Error("lang/index.json changed since the hook's bundle was built: run `npm run build`");
    return file;
  };
  for (const f of LAZY_FIELDS) Object.defineProperty(v, f, { enumerable: true, configurable: true, get: () => read()[f] });
  return v;
}

/** `make`'s value, made on the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/** The index from its file's bytes: the layout `indexFileText` writes, or any JSON layout of it (tsc's re-indented copy). */
export function indexFromBytes(bytes: Buffer): CaptureIndex {
  const v = fromLines(bytes) ?? fromJson(bytes.toString("utf8"));
  if (v.schema !== INDEX_SCHEMA) throw new Error(`lang/index.json: expected schema ${INDEX_SCHEMA}; found ${JSON.stringify(v.schema)}`);
  return v;
}

/** The index from the bytes `indexFileText` writes, lazy fields parsed on first read; null for another layout. */
export function fromLines(bytes: Buffer): CaptureIndex | null {
  const text = (from: number, to: number): string => bytes.toString("utf8", from, to);
  if (text(0, EAGER_HEAD.length) !== EAGER_HEAD) return null;
  let nl = bytes.indexOf(10);
  if (nl < 0 || bytes[nl - 1] !== 44) return null;
  const v = JSON.parse(text(EAGER_HEAD.length, nl - 1)) as CaptureIndex;
  for (const f of LAZY_FIELDS) {
    const head = `${JSON.stringify(f)}:`;
    const from = nl + 1;
    nl = bytes.indexOf(10, from);
    if (nl < 0 || text(from, from + head.length) !== head) return null;
    const last = bytes[nl - 1];
    if (last !== 44 && last !== 125) return null;
    const value = [from + head.length, nl - 1] as const;
    let parsed: unknown;
    Object.defineProperty(v, f, {
      enumerable: true,
      configurable: true,
      get: () => (parsed ??= JSON.parse(text(value[0], value[1]))),
    });
  }
  return v;
}

/** The index from any JSON layout of the same fields (tsc's re-indented copy in dist/). */
function fromJson(text: string): CaptureIndex {
  const raw = JSON.parse(text) as { eager?: object } & Partial<Record<LazyField, unknown>>;
  if (typeof raw.eager !== "object" || raw.eager === null) throw new Error('lang/index.json: expected an object "eager" (an index from an older build? regenerate it, see above)');
  return { ...raw.eager, ...Object.fromEntries(LAZY_FIELDS.map((f) => [f, raw[f]])) } as unknown as CaptureIndex;
}
