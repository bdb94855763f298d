import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.js";
import { built } from "../helpers/built.js";

/**
 * What `npm pack` puts in the tarball: everything the installed `errata` runs (the compiled
 * CLI and its bundle, the hook bundles with their code caches, the language data, the shipped weights, the
 * bundled datasets) and not the compiled tests. The full install check (pack, install into
 * a temporary prefix offline, run the installed binary and hook) is scripts/pack-check.mjs,
 * run by .ci/run after the tests.
 */
describe.skipIf(!built)("the package (npm pack)", () => {
  it("holds dist/, bin/, the hook bundles and the bundled data; builds on prepack; leaves out dist/test", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string>; files: string[]; bin: Record<string, string> };
    expect(pkg.scripts["prepack"]).toBe("npm run build");
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], { cwd: repoRoot, encoding: "utf8" });
    const files = new Set((JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path));
    for (const f of [
      pkg.bin["errata"]!,
      "dist/cli/main.js",
      "dist/cli-bundle/main.js",
      "dist/runtime/hooks/hook.bundle.cjs",
      "dist/runtime/hooks/hook.bundle.cjs.v8cache",
      "dist/runtime/hooks/hook-capture.bundle.cjs",
      "dist/runtime/classifier/lang/en.json",
      "datasets/weights/embedded.json",
      "datasets/claude-code/spotter/short.jsonl",
    ]) {
      expect(files.has(f), f).toBe(true);
    }
    expect([...files].filter((f) => f.startsWith("dist/test/") || f.startsWith("dist/bench/") || f.endsWith(".tsbuildinfo") || f.startsWith("node_modules/"))).toEqual([]);
  });
});
