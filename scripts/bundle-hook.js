#!/usr/bin/env node
// Bundles the hook path into CommonJS files beside the modules they replace (run after tsc):
// - hook.bundle.cjs: hook-main.js with the classifier; every prompt loads only this;
// - hook-capture.bundle.cjs and hook-reply.bundle.cjs: the store, redaction, transcript tail
//   and reply state, loaded only when a row is written or the last reply is needed.
// CommonJS skips Node's ES module loader, which alone costs about a quarter of a bare
// `node -e 0` start (callgrind: 106M vs 85M instructions), and one small file spares
// resolving ~30 modules at every prompt. The bundles sit in the folder of the modules they
// replace, so files read next to them (./lang/index.json) resolve the same.
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = "dist/runtime/capture";
// The bundles sit in the folder of the modules they replace: the language folder is beside
// __dirname (runtime/capture/lang-dir.ts finds it from import.meta.url, through node:url).
const langDirCjs = {
  name: "lang-dir-cjs",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]capture[\\/]lang-dir\.js$/ }, () => ({
      contents: 'import { join } from "node:path";\nexport function langFile(name) { return join(__dirname, "lang", name); }\n',
      loader: "js",
    }));
  },
};
// node:crypto is loaded on first use (runtime/node-crypto.ts); as an ES module that takes
// node:module's createRequire, in CommonJS a plain require.
const cryptoLoadCjs = {
  name: "node-crypto-load-cjs",
  setup(b) {
    b.onLoad({ filter: /[\\/]runtime[\\/]node-crypto-load\.js$/ }, () => ({
      contents: 'export function loadNodeCrypto() { return require("node:crypto"); }\n',
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
  // asked (loading node:url and making a URL is a tenth of a bare Node start).
  banner: { js: 'const __import_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
  define: { "import.meta.url": "__import_meta.url" },
  logLevel: "warning",
  plugins: [langDirCjs, cryptoLoadCjs],
};
const LAZY = /^\.\/hook-(capture|reply)\.js$/;
const lazyParts = {
  name: "lazy-parts",
  setup(b) {
    b.onResolve({ filter: LAZY }, (a) => ({ path: a.path.replace(/\.js$/, ".bundle.cjs"), external: true }));
  },
};

await build({ ...common, entryPoints: [`${dir}/hook-main.js`], outfile: `${dir}/hook.bundle.cjs`, plugins: [langDirCjs, cryptoLoadCjs, lazyParts] });
await build({ ...common, entryPoints: [`${dir}/hook-capture.js`], outfile: `${dir}/hook-capture.bundle.cjs` });
await build({ ...common, entryPoints: [`${dir}/hook-reply.js`], outfile: `${dir}/hook-reply.bundle.cjs` });

// esbuild keeps `import()` of an external even in CommonJS output, which would start the ES
// module loader on every capture: load the lazy parts with require instead.
const mainFile = `${root}/${dir}/hook.bundle.cjs`;
const text = readFileSync(mainFile, "utf8");
const rewritten = text.replace(/import\("(\.\/hook-(?:capture|reply)\.bundle\.cjs)"\)/g, 'Promise.resolve().then(() => require("$1"))');
if (rewritten === text || /import\("\.\/hook-/.test(rewritten)) {
  throw new Error("bundle-hook: expected to rewrite the lazy imports of hook-capture and hook-reply, found none or some left");
}
writeFileSync(mainFile, rewritten);
