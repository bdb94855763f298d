// The layout's invariants (ARCHITECTURE.md): no folder-level import cycle at any depth, no
// runtime room importing the CLI, other rooms used through their index.ts (the hook path
// excepted), the ladder apart from the hooks and the store from the classifier, pure folders pure, no source file over 400 lines but data tables, the capture
// classifier under 2,500 lines.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./rules/helpers.js";

const SOURCE_ROOTS = ["core", "questions", "composers", "combiner", "calibration", "eval", "learn", "classtier", "schemas", "runtime", "cli", "scripts", "notebooks"];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}
const files = SOURCE_ROOTS.flatMap(tsFiles);
const text = new Map(files.map((f) => [f, readFileSync(join(repoRoot, f), "utf8")]));

/** Relative imports of a file (static, dynamic and re-exports), as repository paths. */
function importsOf(f: string): string[] {
  const out: string[] = [];
  for (const m of (text.get(f) ?? "").matchAll(/(?:from|import\()\s*"(\.[^"]+)"/g)) {
    out.push(relative(repoRoot, resolve(repoRoot, dirname(f), m[1] ?? "")).replace(/\.js$/, ".ts"));
  }
  return out;
}

function cycles(depth: number): string[][] {
  const folder = (f: string) => dirname(f).split("/").slice(0, depth).join("/");
  const graph = new Map<string, Set<string>>();
  for (const f of files) {
    for (const t of importsOf(f)) {
      const a = folder(f);
      const b = folder(t);
      if (a === b) continue;
      if (!graph.has(a)) graph.set(a, new Set());
      graph.get(a)?.add(b);
    }
  }
  // Tarjan's strongly connected components; a component of more than one folder is a cycle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w !== undefined) {
          on.delete(w);
          c.push(w);
        }
      } while (w !== undefined && w !== v);
      if (c.length > 1) found.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

const roomOf = (f: string): string => {
  const parts = dirname(f).split("/");
  return parts[0] === "runtime" ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
};

describe("the layout", () => {
  it("has no folder-level import cycle, at any depth", () => {
    for (const depth of [1, 2, 3, 4]) expect(cycles(depth), `depth ${depth}`).toEqual([]);
  });

  it("no runtime, research or schema file imports the CLI", () => {
    const bad = files.filter((f) => !f.startsWith("cli/") && !f.startsWith("scripts/")).flatMap((f) => importsOf(f).filter((t) => t.startsWith("cli/")).map((t) => `${f} -> ${t}`));
    expect(bad).toEqual([]);
  });

  it("nothing but the CLI imports notebooks/ (the notebooks read research folders and runtime surfaces)", () => {
    const bad = files.filter((f) => !f.startsWith("cli/") && !f.startsWith("notebooks/")).flatMap((f) => importsOf(f).filter((t) => t.startsWith("notebooks/")).map((t) => `${f} -> ${t}`));
    expect(bad).toEqual([]);
  });

  it("a room is used from outside through its index.ts (core/ and schemas/ are one module a file; the hook path imports files directly)", () => {
    // The hook's bundles must hold only what a prompt needs, so the hook path (runtime/hooks,
    // the formats it shares with the ladder, and the store module its capture part uses)
    // imports single files. So does the mod (runtime/mod): its one bundle runs inside the
    // client, which refuses a module importing anything of Node, and a room's index.ts would
    // pull in Node-bound siblings (the classifier's index builder, the ladder's formats' readers).
    const hookPath = new Set(["runtime/store/raw-append.ts"]);
    const exempt = new Set(["core", "schemas", "runtime", "cli", "scripts", "runtime/hooks"]);
    const bad: string[] = [];
    for (const f of files) {
      if (f.startsWith("runtime/hooks/") || f.startsWith("runtime/mod/") || f.startsWith("runtime/ladder-formats/") || f.startsWith("scripts/") || hookPath.has(f)) continue;
      for (const t of importsOf(f)) {
        const room = roomOf(t);
        if (exempt.has(room) || room === roomOf(f) || t === `${room}/index.ts`) continue;
        if (f === "cli/commands/hook.ts" && t.startsWith("runtime/hooks/")) continue;
        bad.push(`${f} -> ${t}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("the ladder reaches the hooks' data only through runtime/ladder-formats, which imports neither; the store imports no classifier", () => {
    const banned: Array<[string, string, string]> = [
      ["runtime/ladder/", "runtime/hooks/", "the ladder imports the formats it shares with the hooks from runtime/ladder-formats"],
      ["runtime/ladder-formats/", "runtime/hooks/", "the shared formats sit below the hooks"],
      ["runtime/ladder-formats/", "runtime/ladder/", "the shared formats sit below the ladder"],
      ["runtime/store/", "runtime/classifier/", "the verdict-to-row mapping is the capture's (runtime/hooks/row-kind.ts, capture-row.ts)"],
    ];
    const bad = banned.flatMap(([from, to, why]) =>
      files.filter((f) => f.startsWith(from)).flatMap((f) => importsOf(f).filter((t) => t.startsWith(to)).map((t) => `${f} -> ${t} (${why})`)),
    );
    expect(bad).toEqual([]);
    // The rule reads real files: the formats room exists and both sides use it.
    expect(files.filter((f) => f.startsWith("runtime/ladder/") && importsOf(f).some((t) => t.startsWith("runtime/ladder-formats/"))).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith("runtime/hooks/") && importsOf(f).some((t) => t.startsWith("runtime/ladder-formats/"))).length).toBeGreaterThan(0);
  });

  it("the research folders use no file system, network, environment, clock or Math.random", () => {
    const pure = files.filter((f) => /^(questions|composers|combiner|calibration|eval|learn)\//.test(f));
    const bad = pure.filter((f) => /from "node:(fs|net|http|https|child_process)"|process\.env|Date\.now\(|Math\.random\(/.test(text.get(f) ?? ""));
    expect(bad).toEqual([]);
  });

  it("no source file over 400 lines but data tables; the capture classifier under 2,500 lines", () => {
    const dataTables = new Set(["questions/taxonomy.ts"]);
    const lines = (f: string) => (text.get(f) ?? "").split("\n").length - 1;
    expect(files.filter((f) => !dataTables.has(f) && lines(f) > 400).map((f) => `${f}: ${lines(f)}`)).toEqual([]);
    const classifier = files.filter((f) => f.startsWith("runtime/classifier/")).reduce((n, f) => n + lines(f), 0);
    expect(classifier).toBeLessThan(2500);
  });
});
