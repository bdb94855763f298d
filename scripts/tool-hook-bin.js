#!/usr/bin/env node
// Builds bin/errata-tool-hook.cjs from runtime/hooks/tool-hook-bin.ts (TypeScript, type-checked
// with the rest; its folders come from runtime/paths.ts and runtime/hooks/tool-sources.ts, so
// the bin's lookup has one source). The bin is committed, so a clone has both bins before any
// build; `npm run build` rewrites it (the same bytes unless the sources changed), and
// `node scripts/tool-hook-bin.js --check` exits 1 when the committed file is not this build
// (test/ladder/tool-hook-bin.test.ts runs it).
//
// One CommonJS file that Node compiles whole as the main module of every tool call: node:os
// (paths.ts' homedir, used only when HOME is unset, and the bin leaves that case to the full
// hook) is required only on use, and nothing else is imported than the few helpers it names.
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const OUT = "bin/errata-tool-hook.cjs";
const BANNER =
  "#!/usr/bin/env node\n" +
  "// Built by scripts/tool-hook-bin.js from runtime/hooks/tool-hook-bin.ts (which says what it does\n" +
  "// and why): edit that file, then `npm run build`.";

const lazyOs = {
  name: "lazy-node-os",
  setup(b) {
    // The lazy module's own require is the real node:os (resolved here too, it would call itself).
    b.onResolve({ filter: /^node:os$/ }, (a) => (a.namespace === "lazy-os" ? { path: "node:os", external: true } : { path: "node-os-lazy", namespace: "lazy-os" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-os" }, () => ({ contents: 'export function homedir() { return require("node:os").homedir(); }\n', loader: "js" }));
  },
};

/** The bin's text as this build makes it. */
export async function toolHookBinText() {
  const r = await build({
    absWorkingDir: root,
    entryPoints: ["runtime/hooks/tool-hook-bin.ts"],
    bundle: true,
    write: false,
    platform: "node",
    format: "cjs",
    target: "node20",
    banner: { js: BANNER },
    // The source sets module.exports itself (esbuild's ES-export plumbing would run on every call).
    logOverride: { "commonjs-variable-in-esm": "silent" },
    plugins: [lazyOs],
    logLevel: "warning",
  });
  return r.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await toolHookBinText();
  const file = `${root}/${OUT}`;
  if (process.argv.includes("--check")) {
    let committed = null;
    try {
      committed = readFileSync(file, "utf8");
    } catch {
      // missing: reported below
    }
    if (committed !== text) {
      process.stderr.write(`${OUT} is not the build of runtime/hooks/tool-hook-bin.ts (expected the output of \`node scripts/tool-hook-bin.js\`, found ${committed === null ? "no file" : "other bytes"})\n`);
      process.exitCode = 1;
    }
  } else writeFileSync(file, text, { mode: 0o755 });
}
