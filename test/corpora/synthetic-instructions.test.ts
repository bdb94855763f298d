// The bundled synthetic projects' instruction files are exactly what the generator writes,
// and the rule index reads them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { instructionFile, SYNTHETIC_HOME } from "../../runtime/corpora/synthetic/instructions.js";
import { PROJECTS } from "../../runtime/corpora/synthetic/projects.js";
import { buildIndex } from "../../runtime/rules/build.js";
import { discoverProjects } from "../../runtime/rules/sources.js";
import { repoRoot } from "../rules/helpers.js";

const dir = join(repoRoot, "datasets", "synthetic", "projects");

describe("synthetic projects' instruction files", () => {
  it("the bundled files are the generator's output", () => {
    for (const p of PROJECTS) expect(readFileSync(join(dir, p.name, "CLAUDE.md"), "utf8"), p.name).toBe(instructionFile(p));
  });

  it("index into 11 rules per project, each scoped to the project the sessions ran in", () => {
    const sources = discoverProjects(PROJECTS.map((p) => ({ root: join(dir, p.name), project: `${SYNTHETIC_HOME}/${p.name}` })), { home: null, managed: [], extra: [] });
    const ix = buildIndex(sources, null, { today: "2026-12-01", projects: PROJECTS.map((p) => `${SYNTHETIC_HOME}/${p.name}`) }).index;
    expect(ix.sources.map((s) => s.source)).toEqual(PROJECTS.map((p) => `${p.name}-claude`));
    for (const p of PROJECTS) {
      const units = ix.units.filter((u) => u.source === `${p.name}-claude`);
      expect(units.filter((u) => u.kind !== "paragraph"), p.name).toHaveLength(11);
    }
  });
});
