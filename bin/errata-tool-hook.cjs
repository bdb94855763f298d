#!/usr/bin/env node
// Built by scripts/tool-hook-bin.js from runtime/hooks/tool-hook-bin.ts (which says what it does
// and why): edit that file, then `npm run build`.
"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __commonJS = (cb, mod) => function __require() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// bin/cache-key.cjs
var require_cache_key = __commonJS({
  "bin/cache-key.cjs"(exports2, module2) {
    "use strict";
    function textHash(src) {
      let h = 2166136261;
      for (let i = 0; i < src.length; i++) {
        h ^= src.charCodeAt(i);
        h = Math.imul(h, 16777619);
      }
      return (h >>> 0).toString(16);
    }
    var BUILD_ID = "\n//errata-build:";
    function buildIdLine(id) {
      return `${BUILD_ID}${id}
`;
    }
    function cacheHeader2(src) {
      const at = src.lastIndexOf(BUILD_ID);
      const id = at >= 0 && src.length - at <= BUILD_ID.length + 40 ? src.slice(at + BUILD_ID.length).trim() : `fnv-${textHash(src)}`;
      return `errata-v8cache ${src.length} ${id}
`;
    }
    module2.exports = { buildIdLine, cacheHeader: cacheHeader2, textHash };
  }
});

// runtime/hooks/tool-hook-bin.ts
var import_node_fs = require("node:fs");
var import_node_path2 = require("node:path");
var import_cache_key = __toESM(require_cache_key(), 1);

// runtime/ladder-formats/files.ts
var LADDER_DIR = "ladder";
var CHECKS_FILE = "checks.json";

// lazy-os:node-os-lazy
function homedir() {
  return require("node:os").homedir();
}

// runtime/paths.ts
var import_node_path = require("node:path");
function defaultLedgerDir(env) {
  const home = env["HOME"] ?? homedir();
  return (0, import_node_path.join)(env["XDG_DATA_HOME"] ?? (0, import_node_path.join)(home, ".local", "share"), "errata");
}
function ledgerDirOf(env, cwd) {
  return env["ERRATA_DIR"] ? (0, import_node_path.resolve)(cwd, env["ERRATA_DIR"]) : defaultLedgerDir(env);
}

// runtime/hooks/tool-sources.ts
var nonEmpty = (v) => typeof v === "string" && v !== "" ? v : null;
function projectDirOf(f, env, cwd) {
  return nonEmpty(env["CLAUDE_PROJECT_DIR"]) ?? nonEmpty(f["cwd"]) ?? cwd;
}
var isHookifyName = (n) => n.startsWith("hookify.") && n.endsWith(".local.md");

// runtime/hooks/tool-hook-bin.ts
var isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function hasHookify(dir) {
  let names;
  try {
    names = (0, import_node_fs.readdirSync)(dir);
  } catch {
    return false;
  }
  return names.some(isHookifyName);
}
function quietCall(raw, env, cwd) {
  let f;
  try {
    f = JSON.parse(raw);
  } catch {
    return false;
  }
  if (!isObject(f) || nonEmpty(f["tool_name"]) === null || !isObject(f["tool_input"])) return false;
  const home = env["HOME"];
  if (home === void 0) return false;
  let own;
  try {
    own = (0, import_node_fs.statSync)((0, import_node_path2.join)(ledgerDirOf(env, cwd), LADDER_DIR, CHECKS_FILE), { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (own !== void 0) return false;
  if (hasHookify((0, import_node_path2.join)(projectDirOf(f, env, cwd), ".claude"))) return false;
  return !(home && hasHookify((0, import_node_path2.join)(home, ".claude")));
}
function readStdin() {
  try {
    if ((0, import_node_fs.fstatSync)(0).isCharacterDevice()) return null;
    return (0, import_node_fs.readFileSync)(0, "utf8");
  } catch {
    return null;
  }
}
function loadBundle(file) {
  const vm = require("node:vm");
  const src = (0, import_node_fs.readFileSync)(file, "utf8");
  let cachedData;
  try {
    const raw = (0, import_node_fs.readFileSync)(`${file}.v8cache`);
    const header = (0, import_cache_key.cacheHeader)(src);
    let same = raw.length > header.length;
    for (let i = 0; same && i < header.length; i++) same = raw[i] === header.charCodeAt(i);
    if (same) cachedData = new Uint8Array(raw.buffer, raw.byteOffset + header.length, raw.length - header.length);
  } catch {
  }
  const script = new vm.Script(src, cachedData ? { filename: file, cachedData } : { filename: file });
  const module2 = { exports: {}, id: file, filename: file };
  script.runInThisContext().call(module2.exports, module2.exports, require, module2, file, (0, import_node_path2.dirname)(file));
  return module2.exports;
}
function toolHook(args = process.argv.slice(2)) {
  let raw = null;
  if (args[0] === "pre-tool-use" && (args.length === 1 || args.length === 3 && args[1] === "--check") || args[0] === "post-tool-use" && args.length === 1) {
    raw = readStdin();
    if (raw !== null && quietCall(raw, process.env, process.cwd())) return;
  }
  let hook;
  try {
    hook = loadBundle((0, import_node_path2.join)(__dirname, "..", "dist", "runtime", "hooks", "tool-hook.bundle.cjs"));
  } catch (err) {
    (0, import_node_fs.writeSync)(2, `errata hook: cannot load the tool hook (${err instanceof Error ? err.message : String(err)}; run \`npm run build\`?); allowed, no check run
`);
    return;
  }
  const io = hook.processToolHookIo();
  const text = raw;
  if (text !== null) io.readStdin = () => text;
  void hook.runToolHook(args, io).then((code) => {
    if (hook.outputFlushed()) process.exit(code);
    process.exitCode = code;
  });
}
module.exports = { quietCall, toolHook };
if (require.main === module) toolHook();
