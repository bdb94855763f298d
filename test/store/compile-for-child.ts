/**
 * Transpiles repository TypeScript files into a temp folder as ESM JavaScript (same relative
 * layout, so `./x.js` imports resolve), for child processes that must run the real store
 * code without a build step. Only for files whose imports are node built-ins or each other.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
// esbuild, not the TypeScript compiler: the same type stripping for these files, and it loads in a
// fraction of the CPU (typescript's 9 MB module alone costs about half a second per test file).
import { transformSync } from "esbuild";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Writes `files` and every repository file they import by a relative path, transitively: a
 * list that misses a module a later change imports (a rule file split in two) still runs.
 */
export function compileForChild(outDir: string, files: string[]): void {
  const queue = [...files];
  const seen = new Set(queue);
  for (let k = 0; k < queue.length; k++) {
    const rel = queue[k]!;
    const src = readFileSync(join(repoRoot, rel), "utf8");
    if (!rel.endsWith(".json")) {
      for (const m of src.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)["'](\.{1,2}\/[^"']+)["']/gm)) {
        const target = posix.join(posix.dirname(rel), m[1]!);
        const file = target.endsWith(".js") && existsSync(join(repoRoot, target.replace(/\.js$/, ".ts"))) ? target.replace(/\.js$/, ".ts") : target;
        if (!seen.has(file) && existsSync(join(repoRoot, file))) {
          seen.add(file);
          queue.push(file);
        }
      }
    }
    if (rel.endsWith(".json")) {
      // A JSON module (the redactor's rules) is imported as it is.
      mkdirSync(dirname(join(outDir, rel)), { recursive: true });
      writeFileSync(join(outDir, rel), src);
      continue;
    }
    // Import attributes (`with { type: "json" }`, the redactor's rules) are kept as written.
    const out = transformSync(src, { loader: "ts", format: "esm", target: "es2022", supported: { "import-attributes": true }, sourcefile: rel }).code;
    const dest = join(outDir, rel.replace(/\.ts$/, ".js"));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, out);
  }
}

/** The files room (the one append, JSONL, cursors, the run lock): node built-ins and core/errors only. */
export const FILES_ROOM = ["runtime/files/index.ts", "runtime/files/append.ts", "runtime/files/atomic.ts", "runtime/files/cursor.ts", "runtime/files/jsonl.ts", "runtime/files/lines.ts", "runtime/files/lock.ts"];

/** The zod-free write path: append-line (with core/errors and the files room), ids, record, raw-append, the redactor (front, pre-filter, engine) and its rules. */
export const RAW_WRITE_FILES = [
  ...FILES_ROOM,
  "runtime/store/append-line.ts",
  "core/errors.ts",
  "runtime/store/ids.ts",
  "core/node-crypto.ts",
  "core/node-crypto-load.ts",
  "runtime/store/record.ts",
  "runtime/store/raw-append.ts",
  "runtime/privacy/redact.ts",
  "runtime/privacy/prefilter.ts",
  "runtime/privacy/token-runs.ts",
  "runtime/privacy/keyword-gate.ts",
  "runtime/privacy/witnessed.ts",
  "runtime/privacy/engine-load.ts",
  "runtime/privacy/engine.ts",
  "runtime/privacy/gitleaks.ts",
  "runtime/privacy/gitleaks-data.ts",
  "runtime/privacy/own-rules.ts",
  "runtime/privacy/own-shapes.ts",
  "runtime/privacy/known-store.ts",
  "runtime/privacy/known-values.ts",
  "runtime/privacy/spans.ts",
  "runtime/privacy/placeholders.ts",
  "runtime/privacy/upstream-verdict.ts",
  "runtime/paths.ts",
  "core/pattern-walk.ts",
  "runtime/privacy/gitleaks-rules.json",
];
