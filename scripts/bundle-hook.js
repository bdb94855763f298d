#!/usr/bin/env node
// Bundles the hook path into CommonJS files beside the modules they replace (run after tsc):
// - hook.bundle.cjs: hook-main.js with the classifier (and the reflection's gate); every prompt loads only this;
// - hook-capture.bundle.cjs: the store, the redactor's front and pre-filter, transcript tail
//   and reply state (hook-capture.js and hook-reply.js in one file), loaded only when a row is
//   written, the last reply is needed or the Stop hook records it;
// - hook-redact.bundle.cjs: the full redactor, loaded by the capture part only for a text
//   its pre-filter cannot clear;
// - hook-reflect-sort.bundle.cjs: the Stop hook's reflection sort by cause, loaded only when
//   the gate (hook-reflect.js, in the main bundle) finds a capture no reflection handled;
// CommonJS skips Node's ES module loader, whose start-up alone is a sizeable part of a bare
// `node -e 0` start (docs/benchmarks-history.md has the figures), and one small file spares
// resolving ~30 modules at every prompt. The bundles sit in the folder of the modules they
// replace (dist/runtime/hooks); the classifier's language files are read from
// dist/runtime/classifier/lang, beside the classifier's own modules.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { toolHookBinText } from "./tool-hook-bin.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = "dist/runtime/hooks";
// For the redactor's bench (bench/redact.bench.ts): `--out DIR --stub-redaction` writes the
// bundles into DIR/dist/runtime/hooks (with the classifier's language files and bin/ beside
// them) with the redactor replaced by one that returns its text: the hook without redaction,
// built from the same tree, as the baseline of the same run.
const argOut = process.argv.indexOf("--out");
const outRoot = argOut > 0 ? process.argv[argOut + 1] : root;
const stubRedaction = process.argv.includes("--stub-redaction");
// The main bundle, the capture part and the redactor part are written without comments and
// layout (esbuild's whitespace and syntax minification, ASCII only): a hook run reads, and for a
// function its code cache lacks parses, less text (their comments held non-ASCII characters,
// which made V8 keep the redactor part's whole source as two-byte text; the main bundle's 45 KB
// of source, 34 KB minified, is young-generation garbage-collector load in every hook run).
// Names are kept, so a fault's stack still names its functions. Measured: docs/privacy.md "Cost".
const MINIFIED = new Set(["hook.bundle.cjs", "hook-capture.bundle.cjs", "hook-readers.bundle.cjs", "hook-redact.bundle.cjs", "hook-imported.bundle.cjs"]);
const mini = (name) => (MINIFIED.has(name) ? { minifyWhitespace: true, minifySyntax: true, charset: "ascii" } : {});
const outDir = `${outRoot}/${dir}`;
// The bundles sit in dist/runtime/hooks: the language folder is ../classifier/lang from
// __dirname (runtime/classifier/lang-dir.ts finds it from import.meta.url, through node:url).
const langDirCjs = {
  name: "lang-dir-cjs",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]classifier[\\/]lang-dir\.js$/ }, () => ({
      contents: 'import { join } from "node:path";\nexport function langFile(name) { return join(__dirname, "..", "classifier", "lang", name); }\n',
      loader: "js",
    }));
  },
};
// node:crypto is loaded on first use (core/node-crypto.ts); as an ES module that takes
// node:module's createRequire, in CommonJS a plain require.
const cryptoLoadCjs = {
  name: "node-crypto-load-cjs",
  setup(b) {
    b.onLoad({ filter: /[\\/]core[\\/]node-crypto-load\.js$/ }, () => ({
      contents: 'export function loadNodeCrypto() { return require("node:crypto"); }\n',
      loader: "js",
    }));
  },
};
const stubRedactionPlugin = {
  name: "stub-redaction",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]privacy[\\/]redact\.js$/ }, () => ({
      contents:
        "export function redactSecrets(text) { return { text, kinds: [] }; }\n" +
        "export function redactNullable(text) { return text; }\n" +
        "export function allCleared() { return true; }\n" +
        "export function rememberCleared() {}\n",
      loader: "js",
    }));
  },
};
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // import.meta.url has no CommonJS equivalent: give it this file's URL, computed only when
  // asked (the hook would otherwise load node:url and make a URL at every prompt).
  banner: { js: 'const __import_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
  define: { "import.meta.url": "__import_meta.url" },
  logLevel: "warning",
  plugins: [langDirCjs, cryptoLoadCjs, ...(stubRedaction ? [stubRedactionPlugin] : [])],
};
// The full redactor (its own rules and gitleaks' rule data) is a part of its own, required by
// the capture part only when the redactor's pre-filter cannot clear a text
// (runtime/privacy/prefilter.ts): most Stop hooks and captures never read it.
const REDACT_PART = "./hook-redact.bundle.cjs";
const redactPart = {
  name: "redact-part",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]privacy[\\/]engine-load\.js$/ }, () => ({
      contents: `export function loadEngine() { return require(${JSON.stringify(REDACT_PART)}); }\n`,
      loader: "js",
    }));
    b.onResolve({ filter: /^\.\/hook-redact\.bundle\.cjs$/ }, () => ({ path: REDACT_PART, external: true }));
  },
};
// gitleaks' rule data in the redactor part: each rule's id and keywords in the code (what gates
// it), the rest of its data (pattern, allowlists) in `gitleaks-rules.data` beside the bundle,
// read only when a text first wakes a gitleaks rule and parsed a rule at a time. Built from an
// object literal instead, a cold hook process paid for every rule's objects (their
// boilerplate made and copied at load), and as string constants for hashing 80 KB of them
// into V8's string table, to redact a text that wakes one rule or none (docs/privacy.md
// "Cost"). The ES module (runtime/privacy/gitleaks-data.ts) serves the same data from the
// JSON module; test/privacy/redact-part.test.ts checks that the bundled part redacts as it does.
// The merge of the owner's imported betterleaks rules (runtime/privacy/imported-load.ts), with
// the filter evaluator, is a part of its own, required by the redactor part only when rules were
// imported (docs/privacy.md, "betterleaks' rules at run time").
const IMPORTED_PART = "./hook-imported.bundle.cjs";
const importedPart = {
  name: "imported-part",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]privacy[\\/]imported-load\.js$/ }, () => ({
      contents: `export function loadMergeImported() { return require(${JSON.stringify(IMPORTED_PART)}).mergeImported; }\n`,
      loader: "js",
    }));
    b.onResolve({ filter: /^\.\/hook-imported\.bundle\.cjs$/ }, () => ({ path: IMPORTED_PART, external: true }));
  },
};
// The eleventh set's readers and the context rule's scan (runtime/privacy/readers-load.ts) are a
// part of their own, required by the capture part only when a gate of reader-gates.ts does not
// rule a text out: a capture whose texts hold no trace of them reads and evaluates none of their
// code (the context rule's words in fifty languages among it). Measured: docs/privacy.md "Cost".
const READERS_PART = "./hook-readers.bundle.cjs";
const readersPart = {
  name: "readers-part",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]privacy[\\/]readers-load\.js$/ }, () => ({
      contents: `export function loadReaders() { return require(${JSON.stringify(READERS_PART)}); }\n`,
      loader: "js",
    }));
    b.onResolve({ filter: /^\.\/hook-readers\.bundle\.cjs$/ }, () => ({ path: READERS_PART, external: true }));
  },
};
// The redactor part takes the context rule's scan (context-find.ts and its words) from the readers
// part instead of a copy of its own: a capture that loads the redactor has, but for a text the
// readers' gates rule out, loaded the readers part already, and one copy of the words is made.
const sharedScan = {
  name: "shared-context-scan",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]privacy[\\/]context-find\.js$/ }, () => ({
      contents: `const part = require(${JSON.stringify(READERS_PART)});\nexport const scanContext = part.scanContext;\nexport const contextSecretWitness = part.contextSecretWitness;\n`,
      loader: "js",
    }));
    b.onResolve({ filter: /^\.\/hook-readers\.bundle\.cjs$/ }, () => ({ path: READERS_PART, external: true }));
  },
};
const GITLEAKS_DATA_FILE = "gitleaks-rules.data";
const lazyGitleaksData = {
  name: "lazy-gitleaks-data",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]privacy[\\/]gitleaks-data\.js$/ }, () => {
      const data = JSON.parse(readFileSync(`${root}/runtime/privacy/gitleaks-rules.json`, "utf8"));
      const sep = "\u0001";
      for (const r of data.rules) if (r.keywords.some((k) => k.includes(sep))) throw new Error(`bundle-hook: a keyword of ${r.id} holds U+0001`);
      // The data file: the global allowlist, then each rule without its allowlists, then each
      // rule's allowlists, as JSON, at byte offsets kept in the code (a rule's allowlists are
      // read only for a match above its entropy: the generic rule's hold 1,446 stopwords).
      const withoutAllow = (r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== "allow"));
      const parts = [JSON.stringify(data.global), ...data.rules.map((r) => JSON.stringify(withoutAllow(r))), ...data.rules.map((r) => JSON.stringify(r.allow ?? []))].map((t) => Buffer.from(t, "utf8"));
      const offsets = [0];
      for (const p of parts) offsets.push(offsets[offsets.length - 1] + p.length);
      writeFileSync(`${outDir}/${GITLEAKS_DATA_FILE}`, Buffer.concat(parts));
      return {
        contents:
          `const SEP = ${JSON.stringify(sep)};\nconst IDS = ${JSON.stringify(data.rules.map((r) => r.id).join(sep))}.split(SEP);\n` +
          `const KEYWORDS = ${JSON.stringify(data.rules.map((r) => r.keywords.join(sep)).join("\n"))}.split("\\n");\n` +
          `const OFFSETS = [${offsets.join(",")}];\nconst parsed = [];\nconst allowParsed = [];\nlet bytes;\nlet global;\n` +
          `const part = (k) => JSON.parse((bytes ??= require("fs").readFileSync(require("path").join(__dirname, ${JSON.stringify(GITLEAKS_DATA_FILE)}))).toString("utf8", OFFSETS[k], OFFSETS[k + 1]));\n` +
          `export const RULE_COUNT = ${data.rules.length};\n` +
          "export function ruleHead(i) { return { id: IDS[i], keywords: KEYWORDS[i] === \"\" ? [] : KEYWORDS[i].split(SEP) }; }\n" +
          "export function ruleData(i) { return (parsed[i] ??= part(i + 1)); }\n" +
          "export function ruleAllowData(i) { return (allowParsed[i] ??= part(i + 1 + RULE_COUNT)); }\n" +
          "export function globalAllowData() { return (global ??= part(0)); }\n",
        loader: "js",
      };
    });
  },
};
// One lazily loaded part for both: a capture needs both (one file to read and one code cache
// to deserialize cost less than two).
// The classifier's index in the main bundle: its eager fields as an object literal, read from
// the bundle's code cache in a hook process instead of 36 KB of JSON decoded and parsed there
// (runtime/classifier/index-file.ts `withLazyFields`; its lazy fields still read from the file).
const embeddedIndex = {
  name: "embedded-index",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]classifier[\\/]index-file\.js$/ }, (args) => {
      const file = readFileSync(`${root}/runtime/classifier/lang/index.json`, "utf8");
      const head = '{"eager":';
      const first = file.slice(0, file.indexOf("\n"));
      if (!first.startsWith(head) || !first.endsWith(",")) throw new Error("bundle-hook: lang/index.json is not in the layout index-file.ts writes (regenerate it)");
      const eager = first.slice(head.length, -1);
      // An object literal reads "__proto__" as the prototype, JSON.parse as a key: none may occur.
      if (eager.includes('"__proto__"')) throw new Error('bundle-hook: lang/index.json holds a "__proto__" key');
      JSON.parse(eager);
      const lazy = "export const loadIndex = once(() => indexFromBytes(readFileSync(langFile(\"index.json\"))));";
      const src = readFileSync(args.path, "utf8");
      if (!src.includes(lazy)) throw new Error(`bundle-hook: ${args.path} no longer holds ${JSON.stringify(lazy)}`);
      return { contents: src.replace(lazy, `export const loadIndex = once(() => withLazyFields(${eager}));`), loader: "js" };
    });
  },
};
// The own rules' case-insensitive patterns, rewritten without the `i` flag when the bundle is
// built (runtime/privacy/caseless-table.ts, caseless-expand.ts): the redactor part's copy of the
// table module holds every rewrite, so a hook process computes no case-insensitive class.
const caselessTable = {
  name: "caseless-table",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]privacy[\\/]caseless-table\.js$/ }, async (args) => {
      const { caselessSource } = await import(`${root}/dist/runtime/privacy/caseless-expand.js`);
      const { EARLY_RULES, SPECIFIC_RULES, LATE_RULES } = await import(`${root}/dist/runtime/privacy/own-rules.js`);
      const table = new Map();
      for (const { re } of [...EARLY_RULES, ...SPECIFIC_RULES, ...LATE_RULES]) {
        if (!re.flags.includes("i") || /[uv]/.test(re.flags) || table.has(re.source)) continue;
        const rewritten = caselessSource(re.source);
        if (rewritten !== null) table.set(re.source, rewritten);
      }
      const empty = "let sources = [];";
      const src = readFileSync(args.path, "utf8");
      if (!src.includes(empty)) throw new Error(`bundle-hook: ${args.path} no longer holds ${JSON.stringify(empty)}`);
      return { contents: src.replace(empty, `let sources = ${JSON.stringify([...table])};`), loader: "js" };
    });
  },
};
const LAZY = /^\.\/hook-(capture|reply)\.js$/;
// The Stop hook's reflection sort (hook-reflect-sort.js: the transcript reader, the shipped
// cause model) is a part of its own, loaded only for a capture to sort; its gate is small and
// rides in the main bundle. It holds no classifier (the main bundle passes its own) and no
// capture code.
const REFLECT_SORT = /^\.\/hook-reflect-sort\.js$/;
const lazyParts = {
  name: "lazy-parts",
  setup(b) {
    b.onResolve({ filter: LAZY }, () => ({ path: "./hook-capture.bundle.cjs", external: true }));
    b.onResolve({ filter: REFLECT_SORT }, () => ({ path: "./hook-reflect-sort.bundle.cjs", external: true }));
  },
};

// The generated files the classifier reads beside the bundles: the rule files (which tsc does
// not copy) and the index as written (tsc's copy of a JSON module is re-indented).
const langSource = `${root}/runtime/classifier/lang`;
for (const name of readdirSync(langSource)) {
  if (name === "index.json" || name.endsWith(".rules.tsv")) copyFileSync(`${langSource}/${name}`, `${root}/dist/runtime/classifier/lang/${name}`);
}
// bin/errata-tool-hook.cjs is built from TypeScript (scripts/tool-hook-bin.js); rewritten only
// when its bytes change, so a build leaves the committed file and its time alone.
const toolBin = `${root}/bin/errata-tool-hook.cjs`;
const toolBinText = await toolHookBinText();
if (readFileSync(toolBin, "utf8") !== toolBinText) writeFileSync(toolBin, toolBinText, { mode: 0o755 });
if (outRoot !== root) {
  mkdirSync(outDir, { recursive: true });
  cpSync(`${root}/dist/runtime/classifier/lang`, `${outRoot}/dist/runtime/classifier/lang`, { recursive: true });
  cpSync(`${root}/bin`, `${outRoot}/bin`, { recursive: true });
  copyFileSync(`${root}/package.json`, `${outRoot}/package.json`);
}

await build({ ...common, entryPoints: [`${dir}/hook-main.js`], outfile: `${outDir}/hook.bundle.cjs`, plugins: [...common.plugins, lazyParts, embeddedIndex], ...mini("hook.bundle.cjs") });
await build({
  ...common,
  plugins: [...common.plugins, redactPart, readersPart],
  stdin: { contents: 'export * from "./hook-capture.js";\nexport * from "./hook-reply.js";\n', resolveDir: `${root}/${dir}`, sourcefile: "hook-capture-part.js", loader: "js" },
  outfile: `${outDir}/hook-capture.bundle.cjs`,
  ...mini("hook-capture.bundle.cjs"),
});
// The readers part exports what readers-load.ts's loadReaders gives, each from its own module.
const READER_MODULES = { assembledValues: "assembled-find", encodedSpans: "assembled-encoded", tableSpans: "carried-tables", contextSecretWitness: "context-find", scanContext: "context-find" };
const { loadReaders } = await import(`${root}/dist/runtime/privacy/readers-load.js`);
if (Object.keys(loadReaders()).sort().join() !== Object.keys(READER_MODULES).sort().join()) throw new Error(`bundle-hook: readers-load.ts gives ${Object.keys(loadReaders()).join(", ")}; READER_MODULES names ${Object.keys(READER_MODULES).join(", ")}`);
await build({
  ...common,
  stdin: { contents: Object.entries(READER_MODULES).map(([name, m]) => `export { ${name} } from "./${m}.js";\n`).join(""), resolveDir: `${root}/dist/runtime/privacy`, sourcefile: "hook-readers-part.js", loader: "js" },
  outfile: `${outDir}/hook-readers.bundle.cjs`,
  ...mini("hook-readers.bundle.cjs"),
});
await build({ ...common, entryPoints: [`${dir}/hook-reflect-sort.js`], outfile: `${outDir}/hook-reflect-sort.bundle.cjs` });
const redactBundles = stubRedaction ? [] : ["hook-redact.bundle.cjs", "hook-imported.bundle.cjs"];
if (!stubRedaction) await build({ ...common, plugins: [...common.plugins, lazyGitleaksData, importedPart, caselessTable, sharedScan], entryPoints: ["dist/runtime/privacy/engine.js"], outfile: `${outDir}/hook-redact.bundle.cjs`, ...mini("hook-redact.bundle.cjs") });
if (!stubRedaction) await build({ ...common, entryPoints: ["dist/runtime/privacy/imported-rule.js"], outfile: `${outDir}/hook-imported.bundle.cjs`, ...mini("hook-imported.bundle.cjs") });
// The tool path's bundle (PreToolUse, InstructionsLoaded; no classifier): loaded by
// bin/errata-tool-hook.cjs only when its own few lines cannot answer (a check file exists, or
// the payload is not a plain tool call). node:os (paths.ts's homedir, used only when HOME is
// unset) is loaded on first use: a module-level require would be paid on every call
// (docs/ladder.md, "Figures").
const lazyOs = {
  name: "lazy-node-os",
  setup(b) {
    // The lazy module's own require is the real node:os (resolved here too, it would call itself).
    b.onResolve({ filter: /^node:os$/ }, (a) => (a.namespace === "lazy-os" ? { path: "node:os", external: true } : { path: "node-os-lazy", namespace: "lazy-os" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-os" }, () => ({ contents: 'export function homedir() { return require("node:os").homedir(); }\n', loader: "js" }));
  },
};
await build({ ...common, entryPoints: [`${dir}/tool-hook.js`], outfile: `${outDir}/tool-hook.bundle.cjs`, plugins: [lazyOs] });
// A bundle of an earlier layout is no longer loaded.
rmSync(`${outDir}/hook-reply.bundle.cjs`, { force: true });
rmSync(`${outDir}/hook-reply.bundle.cjs.v8cache`, { force: true });

// esbuild keeps `import()` of an external even in CommonJS output, which would start the ES
// module loader on every capture: load the lazy parts with require instead.
for (const [bundle, parts] of [["hook.bundle.cjs", ["hook-capture", "hook-reflect-sort"]]]) {
  const file = `${outDir}/${bundle}`;
  const text = readFileSync(file, "utf8");
  for (const part of parts) {
    if (!text.includes(`import("./${part}.bundle.cjs")`)) throw new Error(`bundle-hook: expected a lazy import of ./${part}.bundle.cjs in ${bundle}, found none`);
  }
  const rewritten = text.replace(/import\("(\.\/hook-[a-z-]+\.bundle\.cjs)"\)/g, 'Promise.resolve().then(() => require("$1"))');
  if (/import\("\.\/hook-/.test(rewritten)) throw new Error(`bundle-hook: expected to rewrite every lazy import in ${bundle}, found some left`);
  writeFileSync(file, rewritten);
}

// The bundles are written already wrapped as the CommonJS function the loader in bin/errata.cjs runs
// (the loader then compiles the file's text as it is: wrapping it at load time would copy
// it, and every copied byte lands in the young generation, which a hook process should
// not fill).
// Each ends with its build id (bin/cache-key.cjs: a digest of the text, so a code cache is
// matched to the text by reading one line, with no hashing in the hook process).
// Every bundle is written in ASCII: one character outside it anywhere (esbuild's `charset:
// "ascii"` escapes strings but leaves regular expression literals as written, and the
// unminified bundles' comments hold "…") makes V8 decode the whole file into two-byte text, twice
// the bytes in the young generation (enough to cost a capture a garbage collection) and a
// slower decode (docs/privacy.md "Cost"). Outside strings and comments such characters stand in
// regular expression literals, where `\uXXXX` means the same code unit (a pair of them, one
// code point under the `u` flag); a character after a backslash, or a raw template (whose raw
// text the escape would change), is refused rather than guessed at.
function asciiOnly(text, name) {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  if (/String\.raw/.test(text)) throw new Error(`bundle-hook: ${name} holds String.raw and characters outside ASCII; escape them in the source`);
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, ch) => {
    if (slashes.length % 2 === 1) throw new Error(`bundle-hook: ${name} holds an escaped character outside ASCII (${JSON.stringify(ch)}); write it as \\u${ch.charCodeAt(0).toString(16).padStart(4, "0")} in the source`);
    return `${slashes}\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}
const { WRAP_HEAD, WRAP_TAIL } = createRequire(import.meta.url)("../bin/errata.cjs");
const { buildIdLine } = createRequire(import.meta.url)("../bin/cache-key.cjs");
// The capture part's text is made at least LARGE_TEXT characters long (spaces in a comment after
// its code): V8 puts a string longer than its largest regular object (128 KB) in the large-object
// space, so the loader's copy of the part's text is no longer in the young generation, which a
// capture fills to within a few kilobytes of a collection (2 to 4 M instructions when it comes;
// docs/privacy.md "Cost"). The comment is never parsed when the code cache is used, and is
// scanned once (42 KB of spaces) when it is not. The redactor part is longer than that already.
const LARGE_TEXT = 133_000;
const PADDED = new Set(["hook-capture.bundle.cjs"]);
const padded = (text, name) => (PADDED.has(name) && text.length < LARGE_TEXT ? `${text}\n/*${" ".repeat(LARGE_TEXT - text.length)}*/` : text);
for (const name of ["hook.bundle.cjs", "hook-capture.bundle.cjs", "hook-readers.bundle.cjs", "hook-reflect-sort.bundle.cjs", ...redactBundles, "tool-hook.bundle.cjs"]) {
  const file = `${outDir}/${name}`;
  const text = padded(`${WRAP_HEAD}${asciiOnly(readFileSync(file, "utf8"), name)}${WRAP_TAIL}`, name);
  writeFileSync(file, `${text}${buildIdLine(createHash("sha256").update(text).digest("hex").slice(0, 32))}`);
}
