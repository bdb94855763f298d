/**
 * The capture classifier inside the mod, its files read through `$` (the mod imports no
 * node:fs). The classifier reads its index and its rule files with `readFileSync`, which in
 * the bundle is the shim of shims/fs.ts: it serves what this module `provide`s and refuses a
 * file not read yet with `NOT_READ`. So `run` catches that refusal, reads the file from the
 * mod's folder (mod/lang/, copied there by scripts/bundle-mod.js) and starts over, which
 * changes no verdict: the classifier is pure, and a rule's regex cut or whole gives the same
 * answer (prune.ts). From source (Node, tests) the classifier reads its own files and is never
 * refused.
 *
 * `warm`, at session.start, reads the index (what every prompt needs) and the nine rule files
 * (what a prompt needs when one of a language's key words occurs) all at once, one round of
 * hops, and builds the matchers once the index is in. (Not awaiting it there was tried: in
 * `claude -p` the first prompt follows session.start within tens of milliseconds, so it only
 * moved the wait, and the reads asked for one by one made it longer; docs/mod.md, "Cost".) A
 * file whose read failed there is read again when the classifier asks for it.
 *
 * Example: `await modClassifier().run($, "/pkg/mod", (c) => c("No, that's wrong."))` reads
 * mod/lang/index.json, then en.rules.tsv, and answers `{kind: "correction", ...}`.
 */
import { makeClassifier, type Classify } from "../classifier/classify.js";
import { LANGUAGE_CODES } from "../classifier/lang-data.js";
import { join } from "node:path";
import { NOT_READ, provide } from "./shims/fs.js";
import type { ModApi } from "./api.js";

export interface ModClassifier {
  /** `run` given the classifier, its files read as it asks for them. */
  run<T>($: ModApi, root: string | null, run: (classify: Classify) => T): Promise<T>;
  /** Every file read at once; the matchers built once the index is in, if `build` resolves true. */
  warm($: ModApi, root: string | null, build: Promise<boolean>): Promise<void>;
}

/** The classifier's own files in mod/lang/: its index and one rule file per language. */
const LANG_FILE = /^(index\.json|[a-z]{2,3}\.rules\.tsv)$/;

export function modClassifier(): ModClassifier {
  let classifier: Classify | null = null;
  /** The files read or being read, by name: each once a module; a failed read is tried again when next needed. */
  const reading = new Map<string, Promise<void>>();
  const read = ($: ModApi, root: string | null, name: string): Promise<void> => {
    let p = reading.get(name);
    if (p === undefined) {
      if (root === null || !LANG_FILE.test(name)) return Promise.reject(new Error(`the classifier asked for ${name}, which the mod does not read (${root === null ? "CLAUDE_PLUGIN_ROOT unset" : "not one of mod/lang/'s files"})`));
      p = $.readData(join(root, "lang", name)).then((t) => provide(name, t));
      p.catch(() => reading.delete(name));
      reading.set(name, p);
    }
    return p;
  };
  async function run<T>($: ModApi, root: string | null, go: (classify: Classify) => T): Promise<T> {
    // At most one refusal per file (the index and nine rule files), and a few to spare.
    for (let tries = 0; ; tries++) {
      try {
        return go((classifier ??= makeClassifier()));
      } catch (err) {
        const e = err as { code?: unknown; file?: unknown };
        if (e.code !== NOT_READ || typeof e.file !== "string" || tries > 16) throw err;
        await read($, root, e.file);
      }
    }
  }
  return {
    run,
    async warm($, root, build) {
      if (root === null) return;
      const [index, ...rules] = ["index.json", ...LANGUAGE_CODES.map((c) => `${c}.rules.tsv`)].map((n) => read($, root, n));
      for (const p of rules) p.catch(() => undefined); // read again when asked for
      await index;
      if (await build) await run($, root, () => undefined);
    },
  };
}
