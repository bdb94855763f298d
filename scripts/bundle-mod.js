#!/usr/bin/env node
// Bundles the Errata mod's core (runtime/mod/core.ts) into mod/hooks/errata-core.js, an ES
// module that imports nothing: Claude Code refuses a hooks module that imports anything but its
// own files and "claude-code" (files, processes and the network go through `$`). So the parts of
// Node the shared code reaches for are replaced at bundle time:
// - node:fs: only the classifier reads files: its index (lang/index.json) and its rule files
//   (lang/<code>.rules.tsv; the language files themselves are not read at run time). Those are
//   not in the module: the client reads and scans a hooks module before it loads it, and with
//   them inside (650 KB of base64) loading took seconds. They are copied as they are (ASCII
//   text) to mod/lang/, and the core reads each through `$.fs.read` when the classifier first
//   asks for it (the index at session.start, a rule file when one of its rules is first tried)
//   and hands it to the shim;
// - node:path, node:os: paths.ts's join/resolve and homedir (HOME always comes from `$.env`).
// The output is gitignored and built by `npm run build`; package.json "files" packs mod/.
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const langDir = `${root}/runtime/classifier/lang`;
const modLang = `${root}/mod/lang`;
mkdirSync(modLang, { recursive: true });
const wanted = readdirSync(langDir).filter((n) => n === "index.json" || n.endsWith(".rules.tsv")).sort();
for (const n of wanted) {
  const bytes = readFileSync(`${langDir}/${n}`);
  // The shim counts a byte offset as a character offset only for ASCII: index-write.ts writes ASCII.
  if (bytes.some((b) => b > 0x7f)) throw new Error(`runtime/classifier/lang/${n} is not ASCII (index-write.ts writes \\u escapes): regenerate it`);
  // Rewritten only when its bytes change (a build leaves the file and its time alone).
  let now = null;
  try {
    now = readFileSync(`${modLang}/${n}`);
  } catch {
    /* first build */
  }
  if (now === null || !now.equals(bytes)) writeFileSync(`${modLang}/${n}`, bytes);
}
for (const n of readdirSync(modLang)) if (!wanted.includes(n)) rmSync(`${modLang}/${n}`);
// The single data file of earlier builds.
rmSync(`${root}/mod/hooks/errata-data.json`, { force: true });

const shims = {
  name: "mod-shims",
  setup(b) {
    b.onResolve({ filter: /^node:(fs|path|os|url)$/ }, (a) => ({ path: a.path.slice(5), namespace: "mod-shim" }));
    b.onLoad({ filter: /^(fs|path|os|url)$/, namespace: "mod-shim" }, (a) => ({ contents: `export * from ${JSON.stringify(`${root}/runtime/mod/shims/${a.path}.ts`)};\n`, loader: "js", resolveDir: root }));
    // The classifier's files by name (lang-dir.ts finds them from import.meta.url, through node:url).
    b.onLoad({ filter: /[\\/]runtime[\\/]classifier[\\/]lang-dir\.ts$/ }, () => ({ contents: "export function langFile(name) { return name; }\n", loader: "js" }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints: [`${root}/runtime/mod/core.ts`],
  outfile: `${root}/mod/hooks/errata-core.js`,
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  logLevel: "warning",
  legalComments: "none",
  // Smaller is quicker to load: the client reads and scans a hooks module (and its files) first.
  minify: true,
  banner: { js: "// Built by scripts/bundle-mod.js from runtime/mod/core.ts (npm run build); do not edit." },
  // The global Buffer (the classifier measures a key in bytes): a shim, injected.
  inject: [`${root}/runtime/mod/shims/buffer.ts`],
  plugins: [shims],
});

// The hooks module. The client's validator wants `$` spelled `$.noun.event(...)` at each call
// site and never passed on, so each hook hands the core its ports (runtime/mod/api.ts), every
// one a call on `$` written out; written from this one template so the nine stay the same.
const PORTS = `{
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }`;
const HOOKS = [
  ["session.start", null, "sessionStart"],
  ["prompt.submit", null, "promptSubmit"],
  ["turn.complete", null, "turnComplete"],
  ["tool.check", null, "toolCheck"],
  ["tool.call", null, "toolCall"],
  ["prompt.context", null, "promptContext"],
  ["command.run", '{ command: "errata" }', "commandRun"],
  // The owner's pane (runtime/mod/pane.ts), opened by `/errata pane`.
  ["ui.render", '{ component: "Pane", requestId: "errata" }', "uiRender"],
  // A line holdout's withholding in a paths:-scoped rules file (runtime/mod/line-holdout.ts).
  ["prompt.attachment", '{ type: "nested_memory" }', "promptAttachment"],
];
const registerText =
  "// The Errata mod's hooks module (docs/mod.md), written by scripts/bundle-mod.js: edit the\n" +
  "// template there. Its handlers live in errata-core.js, built by `npm run build` from\n" +
  "// runtime/mod/core.ts. Each hook is guarded twice: the core logs a fault and passes the event\n" +
  "// on, and `.catch` passes it on should that fail.\n" +
  'import { createErrataMod } from "./errata-core.js";\n\n' +
  "export function register(on) {\n  const mod = createErrataMod();\n" +
  HOOKS.map(([event, matcher, fn]) => `  on(${JSON.stringify(event)}, ${matcher ? `${matcher}, ` : ""}($, e, next) =>\n    mod.${fn}(${PORTS}, e, next),\n  ).catch(($, e, next) => next(e));\n`).join("") +
  "}\n";
const registerFile = `${root}/mod/hooks/register.js`;
let current = "";
try {
  current = readFileSync(registerFile, "utf8");
} catch {
  /* first build */
}
if (current !== registerText) writeFileSync(registerFile, registerText);
