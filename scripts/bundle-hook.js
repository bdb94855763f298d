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
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // import.meta.url has no CommonJS equivalent: give it this file's URL.
  banner: { js: 'const __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  define: { "import.meta.url": "__import_meta_url" },
  logLevel: "warning",
};
const LAZY = /^\.\/hook-(capture|reply)\.js$/;
const lazyParts = {
  name: "lazy-parts",
  setup(b) {
    b.onResolve({ filter: LAZY }, (a) => ({ path: a.path.replace(/\.js$/, ".bundle.cjs"), external: true }));
  },
};

await build({ ...common, entryPoints: [`${dir}/hook-main.js`], outfile: `${dir}/hook.bundle.cjs`, plugins: [lazyParts] });
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
