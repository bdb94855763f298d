#!/usr/bin/env node
// @ts-check
"use strict";
// The `errata` binary: compiled JavaScript only. It is CommonJS so that the hook path,
// which runs at every prompt the person types, loads one bundled CommonJS file and never
// Node's ES module loader, zod or commander. Every other command loads the ES module CLI, bundled.
//
// It also holds the hook's bundle loader (one file fewer to resolve, read and compile at
// every prompt): `createLoader` loads the CommonJS bundles in dist/runtime/hooks/ with V8's
// code cache. The build writes each bundle already wrapped in the CommonJS module function
// (WRAP_HEAD ... WRAP_TAIL), so it is compiled as read: such a file is for this loader, not
// for require().
//
// The hook runs at every prompt the person types, so its cost is Node's start plus what it
// loads. Compiling the bundle's functions is a large part of that: with the code cache that
// the build writes beside each bundle (`<bundle>.v8cache`, made by scripts/hook-cache.cjs
// after running the hook on sample prompts), V8 takes the compiled functions from the cache
// instead of parsing and compiling them again (the same thing Node 22's
// `module.enableCompileCache()` does; Node 20 has no such switch).
//
// A cache is used only when its header names the bundle's current size and modification time
// (V8 itself checks only the source's length, its own version and flags); a missing, stale or
// rejected cache only costs the compile time: the bundle is then compiled from source.
//
// Example: `require("./errata.cjs").createLoader(dir).load("hook.bundle.cjs").runHook(["stop"])`.
const fs = require("fs");
const path = require("path");
// vm is required by the loader only, so `--version` does not pay for it.
/** @type {typeof import("vm") | undefined} */
let vm;

const WRAP_HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const WRAP_TAIL = "\n})";
const CACHE_SUFFIX = ".v8cache";

/**
 * The cached data for `file` when its header matches the bundle as it is now, else undefined.
 * @param {string} file
 * @param {string} header the first line the cache must start with (bin/cache-key.cjs)
 * @returns {Buffer | undefined}
 */
function readCache(file, header) {
  let raw;
  try {
    raw = fs.readFileSync(file + CACHE_SUFFIX);
  } catch {
    return undefined;
  }
  if (raw.length <= header.length || raw.toString("latin1", 0, header.length) !== header) return undefined;
  return raw.subarray(header.length);
}

/**
 * A loader for the bundles in `dir`. Bundles may require each other by "./name" (the lazily
 * loaded capture and reply parts); anything else goes to Node's require (built-in modules).
 * With `useCache: false` caches are neither read nor checked (used to make them).
 * @param {string} dir
 * @param {{ useCache?: boolean }} [options]
 */
function createLoader(dir, { useCache = true } = {}) {
  const vmod = (vm ??= require("vm"));
  // Required here, inside the hook's guard: a damaged install exits 0 with one line, as a missing build does.
  const { cacheHeader } = require("./cache-key.cjs");
  /** @type {Map<string, { exports: any }>} */
  const modules = new Map();
  /** @type {Map<string, { script: import("vm").Script, src: string, cacheUsed: boolean }>} */
  const scripts = new Map();
  // A bundle requires a built-in module once per source module that imports it (the capture
  // part: 25 times); Node's require resolves each afresh, a Map answers the repeats.
  /** @type {Map<string, unknown>} */
  const builtins = new Map();
  /** @param {string} id */
  const partRequire = (id) => {
    if (id.startsWith("./")) return load(id.slice(2));
    let m = builtins.get(id);
    if (m === undefined) builtins.set(id, (m = require(id)));
    return m;
  };
  /**
   * @param {string} name
   * @returns {any} the bundle's exports
   */
  function load(name) {
    const known = modules.get(name);
    if (known) return known.exports;
    const file = path.join(dir, name);
    const fd = fs.openSync(file, "r");
    let src;
    try {
      src = fs.readFileSync(fd, "utf8");
    } finally {
      fs.closeSync(fd);
    }
    const cachedData = useCache ? readCache(file, cacheHeader(src)) : undefined;
    // The build writes the bundles wrapped (scripts/bundle-hook.js); one that is not is wrapped here.
    const code = src.startsWith(WRAP_HEAD) ? src : WRAP_HEAD + src + WRAP_TAIL;
    const script = new vmod.Script(code, cachedData ? { filename: file, cachedData } : { filename: file });
    scripts.set(name, { script, src, cacheUsed: cachedData !== undefined && !script.cachedDataRejected });
    const module = { exports: {}, id: file, filename: file };
    modules.set(name, module);
    script.runInThisContext().call(module.exports, module.exports, partRequire, module, file, dir);
    return module.exports;
  }
  /** Which bundles were loaded, and whether each came from its code cache. */
  function report() {
    return [...scripts].map(([name, s]) => ({ name, cacheUsed: s.cacheUsed }));
  }
  /**
   * Writes `<bundle>.v8cache` for the named bundles (default: every bundle loaded so far),
   * holding the functions compiled up to now: call it after running them.
   * @param {string[]} [names]
   */
  function writeCaches(names = [...scripts.keys()]) {
    const written = [];
    for (const name of names) {
      const loaded = scripts.get(name);
      if (!loaded) throw new Error(`errata hook loader: ${name} was not loaded; cannot write its cache`);
      const { script, src } = loaded;
      const file = path.join(dir, name) + CACHE_SUFFIX;
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, Buffer.concat([Buffer.from(cacheHeader(src), "latin1"), script.createCachedData()]));
      fs.renameSync(tmp, file);
      written.push(file);
    }
    return written;
  }
  return { load, report, writeCaches };
}


/**
 * The package's version, read from package.json beside this folder: `errata --version` answers
 * from here without loading the ES module CLI and its thirty command modules, so it costs
 * little more than a Node start (bench/version.bench.ts measures both).
 */
function version() {
  return JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).version;
}

/**
 * Runs the `errata` command line (`errata hook ...` on the hook path).
 * @param {string[]} [args]
 */
function main(args = process.argv.slice(2)) {
  if (args[0] === "hook" && (args[1] === "pre-tool-use" || args[1] === "instructions-loaded")) {
    // The tool path (every tool call) has its own small binary, bin/errata-tool-hook.cjs.
    require("./errata-tool-hook.cjs").toolHook(args.slice(1));
    return;
  }
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    fs.writeSync(1, `${version()}\n`);
    return;
  }
  if (args[0] === "hook") {
    // The hook never breaks the host: even a missing build exits 0 with one line on stderr.
    /** @type {{ runHook: (args: string[]) => Promise<number>, outputFlushed?: () => boolean }} */
    let hook;
    try {
      hook = createLoader(path.join(__dirname, "..", "dist", "runtime", "hooks")).load("hook.bundle.cjs");
    } catch (err) {
      fs.writeSync(2, `errata hook: cannot load the hook (${err instanceof Error ? err.message : String(err)}; run \`npm run build\`?); nothing captured\n`);
      hook = { runHook: async () => 0, outputFlushed: () => true };
    }
    const loaded = hook;
    loaded.runHook(args.slice(1)).then((code) => {
      // Everything the hook writes is written synchronously: exit now rather than wait for
      // work Node queued for later (a garbage collection), unless a stream still holds output.
      if (typeof loaded.outputFlushed === "function" && loaded.outputFlushed()) process.exit(code);
      process.exitCode = code;
    });
    return;
  }
  process.stdout.on("error", (/** @type {NodeJS.ErrnoException} */ err) => {
    if (err.code === "EPIPE") process.exit(0); // a closed pipe (| head) is not an error
    throw err;
  });
  // The bundled CLI (scripts/bundle-cli.js: one small entry and a chunk per command module, in
  // place of the few hundred files its modules import); ERRATA_CLI=dist runs the unbundled
  // modules instead (the same code: a baseline for bench/cli-start.bench.ts, and a way round
  // a suspected bundling fault). A computed specifier: the type checker does not follow it
  // into the build (dist/ may not exist yet).
  const cli = process.env["ERRATA_CLI"] === "dist" ? "../dist/cli/main.js" : "../dist/cli-bundle/main.js";
  import(cli)
    .then((/** @type {{ run: (argv: string[]) => Promise<number> }} */ { run }) => run(args))
    .then((code) => {
      process.exitCode = code;
    });
}

module.exports = { createLoader, CACHE_SUFFIX, WRAP_HEAD, WRAP_TAIL, main, version };
if (require.main === module) main();
