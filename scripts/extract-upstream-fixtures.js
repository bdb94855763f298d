#!/usr/bin/env node
// Extracts the per-rule true and false samples that gitleaks and betterleaks (both MIT) keep in
// their rule generators (cmd/generate/config/rules/*.go: `tps` and `fps`), and secretlint's (MIT)
// rule snapshots (packages/@secretlint/secretlint-rule-*/test/snapshots/{ng,ok}.*/: a text file
// and the findings expected in it, by character range), into one JSON corpus
// that test/privacy/upstream-fixtures.test.ts reads. Only samples written as Go string literals
// (or literals joined by `+`) are taken: a sample the generator makes at run time from a
// pattern (`secrets.NewSecret(...)`) needs Go to run, and those shapes are covered instead by
// the property test that generates texts from every rule's own pattern (prefilter.test.ts).
//
//   node scripts/extract-upstream-fixtures.js --out <file.json> \
//     --source betterleaks=<git dir>@<commit> [--source gitleaks=<git dir>@<commit>] \
//     [--source secretlint=<git dir>@<commit>]
//
// The corpus is upstream data: it is kept beside the repository (the shared datasets folder),
// never committed here; the test skips, saying so, when it is absent. Each source's commit and
// licence are recorded in the output.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const out = args[args.indexOf("--out") + 1];
const sources = [];
args.forEach((a, i) => {
  if (a === "--source") {
    const m = /^([a-z]+)=(.+)@([0-9a-f]{40})$/.exec(args[i + 1] ?? "");
    if (m === null) fail(`--source NAME=<git dir>@<40-hex commit>, found ${args[i + 1]}`);
    sources.push({ name: m[1], gitDir: m[2], commit: m[3] });
  }
});
if (!out || args.indexOf("--out") < 0 || sources.length === 0) fail("usage: --out <file.json> --source NAME=<git dir>@<commit> ...");

function fail(msg) {
  process.stderr.write(`${msg}\n`);
  process.exit(2);
}
const git = (gitDir, ...a) => execFileSync("git", ["--git-dir", gitDir, ...a], { encoding: "utf8", maxBuffer: 256 << 20 });

/** Go source -> tokens: strings (decoded), comments dropped, other characters one by one. */
function* tokens(src, from) {
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === "/" && src[i + 1] === "/") {
      i = src.indexOf("\n", i);
      if (i < 0) return;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      i = src.indexOf("*/", i) + 2;
      continue;
    }
    if (c === "`") {
      const end = src.indexOf("`", i + 1);
      yield { str: src.slice(i + 1, end).replaceAll("\r", ""), at: i };
      i = end + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
      yield { str: goUnquote(src.slice(i + 1, j)), at: i };
      i = j + 1;
      continue;
    }
    yield { ch: c, at: i };
    i++;
  }
}
function goUnquote(body) {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)/g, (_, e) => {
    const map = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "'": "'", a: "\x07", b: "\b", f: "\f", v: "\v" };
    if (e in map) return map[e];
    if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]{3}$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return e;
  });
}

/**
 * The elements of the list opened at `from` (just after `{` or `(`), split at top-level commas;
 * each element's literal value when it is only string literals joined by `+`, else null.
 */
function listElements(src, from) {
  const els = [];
  let depth = 0;
  let cur = { parts: [], other: false };
  for (const t of tokens(src, from)) {
    if (t.str !== undefined) {
      if (depth === 0) cur.parts.push(t.str);
      else cur.other = true;
      continue;
    }
    const c = t.ch;
    if ("([{".includes(c)) {
      depth++;
      cur.other = true;
    } else if (")]}".includes(c)) {
      if (depth === 0) {
        els.push(cur);
        break;
      }
      depth--;
    } else if (c === "," && depth === 0) {
      els.push(cur);
      cur = { parts: [], other: false };
    } else if (!/\s|\+/.test(c)) cur.other = true;
  }
  return els.filter((e) => e.parts.length > 0 && !e.other).map((e) => e.parts.join(""));
}

/** The rule ids and their literal samples in one Go file. */
function samplesOf(src) {
  const found = [];
  // Each rule function: its id, then the tps/fps lists that follow before the next function.
  const funcs = src.split(/\nfunc /);
  for (const f of funcs) {
    const id = /RuleID:\s*"([^"]+)"/.exec(f)?.[1];
    if (id === undefined) continue;
    const lists = { tps: [], fps: [] };
    for (const m of f.matchAll(/\b(tps|fps)\s*:?=\s*(?:\[\]string\{|append\(\s*(?:tps|fps)\s*,)/g)) {
      lists[m[1]].push(...listElements(f, m.index + m[0].length));
    }
    if (lists.tps.length + lists.fps.length > 0) found.push({ id, tps: lists.tps, fps: lists.fps });
  }
  return found;
}

/**
 * secretlint: every snapshot folder of a rule package (the presets only repeat them) with one
 * text input and its expected output. A folder with its own options (`.secretlintrc.json`,
 * `options.ts`) is left out: its verdict depends on options Errata does not have. `ng.*`
 * folders are true samples with the expected findings' ranges; `ok.*` folders are false samples.
 */
function secretlintSamples(s) {
  const files = git(s.gitDir, "ls-tree", "-r", "--name-only", s.commit, "packages/@secretlint/")
    .split("\n")
    .filter((p) => /^packages\/@secretlint\/secretlint-rule-(?!preset)[^/]+\/test\/snapshots\/(ok|ng)\.[^/]+\/[^/]+$/.test(p));
  const dirs = new Map();
  for (const p of files) {
    const dir = p.slice(0, p.lastIndexOf("/"));
    if (!dirs.has(dir)) dirs.set(dir, []);
    dirs.get(dir).push(p.slice(dir.length + 1));
  }
  const out = [];
  for (const [dir, names] of dirs) {
    if (names.includes(".secretlintrc.json") || names.includes("options.ts") || !names.includes("output.json")) continue;
    const inputs = names.filter((n) => /^input(\.(txt|json|config|yml|yaml|env|md))?$/.test(n));
    if (inputs.length !== 1) continue;
    const text = git(s.gitDir, "show", `${s.commit}:${dir}/${inputs[0]}`);
    const expected = JSON.parse(git(s.gitDir, "show", `${s.commit}:${dir}/output.json`));
    const rule = /secretlint-rule-([^/]+)/.exec(dir)[1];
    const name = dir.slice(dir.lastIndexOf("/") + 1);
    const spans = expected.messages.map((m) => m.range);
    const ok = name.startsWith("ok.");
    if (ok && spans.length > 0) continue;
    out.push({ source: s.name, rule: `${rule}/${name}`, expect: ok ? "clean" : "secret", text, ...(ok ? {} : { spans }) });
  }
  return out;
}

const corpus = { sources: [], samples: [] };
for (const s of sources) {
  if (s.name === "secretlint") {
    const found = secretlintSamples(s);
    corpus.samples.push(...found);
    const lic = git(s.gitDir, "show", `${s.commit}:LICENSE`);
    corpus.sources.push({ name: s.name, commit: s.commit, path: "packages/@secretlint/secretlint-rule-*/test/snapshots/", licence: "MIT", copyright: lic.split("\n").find((l) => l.startsWith("Copyright")) });
    process.stdout.write(`${s.name}: ${found.length} snapshot samples\n`);
    continue;
  }
  const licence = git(s.gitDir, "show", `${s.commit}:LICENSE`).split("\n")[0].trim();
  const files = git(s.gitDir, "ls-tree", "-r", "--name-only", s.commit, "cmd/generate/config/rules/")
    .split("\n")
    .filter((p) => p.endsWith(".go") && !p.endsWith("_test.go"));
  let n = 0;
  for (const path of files) {
    for (const r of samplesOf(git(s.gitDir, "show", `${s.commit}:${path}`))) {
      for (const text of r.tps) corpus.samples.push({ source: s.name, rule: r.id, expect: "secret", text });
      for (const text of r.fps) corpus.samples.push({ source: s.name, rule: r.id, expect: "clean", text });
      n += r.tps.length + r.fps.length;
    }
  }
  corpus.sources.push({ name: s.name, commit: s.commit, path: "cmd/generate/config/rules/*.go", licence, copyright: git(s.gitDir, "show", `${s.commit}:LICENSE`).split("\n").find((l) => l.startsWith("Copyright")) });
  process.stdout.write(`${s.name}: ${n} literal samples from ${files.length} files\n`);
}
writeFileSync(out, `${JSON.stringify(corpus, null, 1)}\n`);
