#!/usr/bin/env node
// Bundles the ES module CLI (dist/cli/main.js, run after tsc) into dist/cli-bundle/: main.js
// and one chunk per lazily imported module (each command's module, each group's subcommands:
// cli/main.ts and cli/shared/subcommands.ts import them with `import()`, which esbuild's code
// splitting turns into chunks), the third-party packages inside them. bin/errata.cjs runs
// main.js. A command's start was mostly Node's ES module loader resolving, reading and
// compiling the 200-900 files (dist/ and node_modules/) its modules import, one at a time;
// from the bundle it loads a handful of chunks (docs/testing.md, "Starting the CLI from a
// bundle"). The unbundled dist/ stays: the tests import its modules, and the bundle's modules
// find their files through it (below).
//
// Every output file sits in dist/cli-bundle/ itself (no subfolders), so a module's own location
// is known from any chunk: `import.meta.url` in a dist/ module (the shipped weights, the
// classifier's language files, the package root; found relative to the module) is replaced by
// the URL of that module's unbundled file, computed from the chunk's own URL. Those files stay
// where they were, so every such lookup finds what it found before.
//
// A package that finds its own files (`__dirname`, `import.meta.url`) or loads code by a
// computed name is left external (EXTERNAL below): Node resolves it from node_modules as
// before, wherever npm put it. The build fails naming any other bundled package file that
// does such a thing, so a dependency update cannot break the bundle silently.
import { build, transformSync } from "esbuild";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist", "cli-bundle");

// Packages left to Node's loader: each finds files of its own at run time or loads modules by
// computed names (checked by the scan below), or is large and used by one rare command only.
// - @anthropic-ai/tokenizer, tiktoken: read their WebAssembly and ranks beside themselves;
// - pg, pg-*: pg-native is an optional require, tried at run time;
// - fastify, @fastify/*: plugins and pino's workers are loaded by file name (errata serve);
// - playwright-core: finds its browsers and driver files beside itself.
const EXTERNAL = ["@anthropic-ai/tokenizer", "tiktoken", "pg", "pg-*", "fastify", "@fastify/*", "playwright-core"];

// What a bundled package file must not do: find a file beside itself, or load code by a name
// computed at run time (esbuild leaves such a require() as it is, resolved from the chunk).
const FINDS_ITSELF = /\b__dirname\b|\b__filename\b|\bimport\.meta\.(url|dirname|filename|resolve)\b/;

const distModuleUrl = {
  name: "dist-module-url",
  setup(b) {
    // The project's own modules (dist/, not dist/cli-bundle): their import.meta.url is the URL of
    // their unbundled file, made from the chunk's URL (every chunk is in outdir itself).
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (a) => {
      if (a.path.split(sep).includes("node_modules")) return undefined;
      const text = readFileSync(a.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const rel = relative(outdir, a.path).split(sep).join("/");
      const replaced = text.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
      if (/\bimport\.meta\b/.test(replaced.replace(/new URL\("[^"]*", import\.meta\.url\)/g, ""))) {
        throw new Error(`bundle-cli: ${relative(root, a.path)} uses import.meta other than import.meta.url; teach scripts/bundle-cli.js what it means in a chunk`);
      }
      return { contents: replaced, loader: "js" };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: "dist/cli/main.js" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Chunks in outdir itself, never in a subfolder (import.meta.url above relies on it).
  chunkNames: "[name]-[hash]",
  external: EXTERNAL,
  // A CommonJS package inside an ES module chunk reaches Node's require (built-in modules) through this.
  banner: { js: 'import { createRequire as __errataCreateRequire } from "node:module";\nconst require = __errataCreateRequire(import.meta.url);' },
  // The packages' own "main"/"module" choice as Node would make it for an import.
  mainFields: ["module", "main"],
  legalComments: "none",
  // Names as in the modules: a class or function renamed to keep apart two modules' top-level
  // names would show the new name wherever its `name` is read (commander's errors set their
  // `name` from the constructor's).
  keepNames: true,
  metafile: true,
  logLevel: "warning",
  plugins: [distModuleUrl],
});

// Every bundled package file is checked: one that finds its own files or requires by a
// computed name belongs in EXTERNAL.
const offenders = [];
for (const input of Object.keys(result.metafile.inputs)) {
  if (!input.includes("node_modules/")) continue;
  // Without comments (commander's mention __filename in examples); JSON holds no code.
  if (input.endsWith(".json")) continue;
  const text = transformSync(readFileSync(join(root, input), "utf8"), { loader: "js", minifyWhitespace: true }).code;
  if (FINDS_ITSELF.test(text)) offenders.push(`${input} (${FINDS_ITSELF.exec(text)[0]})`);
}
if (offenders.length > 0) throw new Error(`bundle-cli: these bundled package files find files beside themselves; leave their packages external (EXTERNAL in scripts/bundle-cli.js):\n  ${offenders.join("\n  ")}`);
const files = readdirSync(outdir);
if (files.some((f) => !f.endsWith(".js"))) throw new Error(`bundle-cli: expected only .js files in dist/cli-bundle, found ${files.filter((f) => !f.endsWith(".js")).join(", ")}`);
