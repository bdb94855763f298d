// The rule index: built on every bundled real instruction file; ids that do not move when
// something else changes, carried across small edits, new after a rewrite; nothing written
// when nothing changed; problems reported while the rest is indexed.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIndex } from "../../runtime/rules/build.js";
import { gitLineDates } from "../../runtime/rules/git-dates.js";
import { wordOverlap } from "../../runtime/rules/ids.js";
import { discoverSources } from "../../runtime/rules/sources.js";
import { readRuleIndex, writeRuleIndex } from "../../runtime/rules/store.js";
import { parseInstructionFile } from "../../runtime/rules/units.js";
import { RuleIndexSchema, type RuleIndex } from "../../schemas/rules.js";
import { tempDir } from "../helpers/io.js";
import { claudeMdDir, claudeMdRepos } from "./helpers.js";

function build(root: string, previous: RuleIndex | null = null, today = "2026-12-01", extra: string[] = []) {
  return buildIndex(discoverSources({ root, home: null, managed: [], extra }), previous, { today, projects: [] });
}

function allMarkdown(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...allMarkdown(p));
    else if (e.name.endsWith(".md") && e.name !== "SOURCE.md" && e.name !== "README.md") out.push(p);
  }
  return out;
}

describe("the rule index on the bundled real instruction files", () => {
  it("builds on every project folder, with the units per project as discovered", () => {
    const perRepo: Record<string, number> = {};
    for (const repo of claudeMdRepos) {
      const r = build(join(claudeMdDir, repo));
      expect(RuleIndexSchema.safeParse(r.index).success, repo).toBe(true);
      perRepo[repo] = r.index.units.length;
      // Every id is unique and names its source.
      const ids = r.index.units.map((u) => u.id);
      expect(new Set(ids).size, repo).toBe(ids.length);
      for (const u of r.index.units) expect(u.id.startsWith(`${u.source}.`), u.id).toBe(true);
    }
    expect(Object.keys(perRepo)).toHaveLength(39);
    expect(Object.values(perRepo).reduce((a, b) => a + b, 0)).toBe(3539);
    // Spot checks read by hand: uv's CLAUDE.md is "@AGENTS.md" (a pointer, no unit of its
    // own) and AGENTS.md has 20 bullets; 2anki's security rules are 19 table rows + 1 paragraph.
    expect(perRepo["astral-sh__uv"]).toBe(20);
    // Rules written for other assistants' loaders, which Claude Code never reads unless a
    // loaded file imports them: Chronicle keeps all its rules in `.ai/rules/` (none was indexed
    // before, so a correction against one could never name it), repomix in `.agents/rules/`.
    const chronicle = build(join(claudeMdDir, "Cratis__Chronicle")).index;
    expect(chronicle.sources.map((s) => [s.path, s.kind, s.load])).toContainEqual([".ai/rules/git-commits.md", "agents", "not-loaded"]);
    expect(chronicle.sources).toHaveLength(8);
    expect(perRepo["Cratis__Chronicle"]).toBe(466);
    const repomix = build(join(claudeMdDir, "yamadashy__repomix")).index;
    expect(repomix.sources.map((s) => [s.path, s.load])).toEqual([["browser/CLAUDE.md", "on-demand"], [".agents/rules/base.md", "not-loaded"]]);
    const twoAnki = build(join(claudeMdDir, "2anki__server")).index;
    const sec = twoAnki.units.filter((u) => u.source === "claude-rules-security");
    expect(sec.filter((u) => u.kind === "table-row")).toHaveLength(19);
    expect(sec.every((u) => u.kind !== "table-row" || u.context?.startsWith("| Requirement |"))).toBe(true);
  });

  it("parses every markdown file in the set, each unit inside its file's lines", () => {
    const files = allMarkdown(claudeMdDir);
    expect(files.length).toBe(99);
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      const p = parseInstructionFile(text, { hookify: /hookify\..+\.local\.md$/.test(f) });
      for (const u of p.units) {
        expect(u.line_start, f).toBeGreaterThanOrEqual(1);
        expect(u.line_end, f).toBeLessThanOrEqual(Math.max(p.lines, 1));
        expect(text.includes(u.text), f).toBe(true);
      }
    }
  });

  it("loads sources the way Claude Code does: imports, path scopes, nested folders, hookify checks", () => {
    const uv = build(join(claudeMdDir, "astral-sh__uv")).index;
    expect(uv.sources.map((s) => [s.path, s.kind, s.load, s.imported_by])).toEqual([
      ["CLAUDE.md", "project", "always", null],
      ["AGENTS.md", "import", "always", "claude"],
    ]);
    const lab = build(join(claudeMdDir, "LabAutomationAndScreening__copier-base-template")).index;
    expect(lab.sources.find((s) => s.path === "AGENTS.md")).toMatchObject({ load: "always", imported_by: "claude-claude" });
    const towles = build(join(claudeMdDir, "ChrisTowles__towles-tool")).index;
    expect(towles.sources.find((s) => s.path === ".claude/rules/rust.md")).toMatchObject({ load: "path-scoped", scope: ["crates/**/*.rs", "crates-cli/**/*.rs", "crates-tauri/**/*.rs"] });
    expect(towles.sources.find((s) => s.path === "apps/client/CLAUDE.md")).toMatchObject({ kind: "subfolder", load: "on-demand", scope: ["apps/client/**"] });
    const chrysa = build(join(claudeMdDir, "chrysa__pre-commit-hooks-changelog")).index;
    const hk = chrysa.sources.filter((s) => s.kind === "hookify");
    expect(hk.length).toBe(5);
    expect(hk.every((s) => s.load === "check" && s.units === 1)).toBe(true);
    const pydantic = build(join(claudeMdDir, "pydantic__pydantic-ai")).index;
    expect(pydantic.sources.every((s) => s.kind === "agents" && s.load === "not-loaded")).toBe(true);
    // A missing import is reported on the file that names it; a handle like "@jlowin" is not an import.
    const spring = build(join(claudeMdDir, "spring-projects__spring-ai")).index;
    expect(spring.sources[0]?.problems).toEqual(["@CONTRIBUTING.md: not found"]);
    const fastmcp = build(join(claudeMdDir, "PrefectHQ__fastmcp")).index;
    expect(fastmcp.sources.flatMap((s) => s.problems)).toEqual([]);
  });
});

describe("ids across edits", () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    tmp = tempDir("errata-rules-");
  });
  afterEach(() => tmp.cleanup());

  const v1 = [
    "# Tools",
    "",
    "- Use pnpm, never npm or yarn, for every install in this repository.",
    "- Run the whole test suite before saying a change is done.",
    "",
    "# Style",
    "",
    "1. Tabs for indentation in Go files.",
    "2. Keep functions under fifty lines where the logic allows it.",
    "",
  ].join("\n");

  it("an edit elsewhere in the file moves no id", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), v1);
    const a = build(tmp.dir);
    const moved = v1.replace("# Tools\n\n", "# Tools\n\nA new paragraph at the top that says what this project is.\n\n- Commit messages in the imperative mood.\n").replace("2. Keep functions", "2. Prefer small modules.\n3. Keep functions");
    writeFileSync(join(tmp.dir, "CLAUDE.md"), moved);
    const b = build(tmp.dir, a.index, "2026-12-02");
    const bare = (t: string) => t.replace(/^\d+\. /, "");
    for (const u of a.index.units) {
      const same = b.index.units.find((x) => bare(x.text) === bare(u.text));
      expect(same?.id, u.text).toBe(u.id);
      expect(same?.first_seen).toBe("2026-12-01");
    }
    expect(b.added).toBe(3);
    expect(b.vanished).toBe(0);
    expect(b.index.carries).toEqual([]);
  });

  it("a small edit keeps the id (a carry is recorded); a rewrite gets a new id and the old one is recorded as vanished", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), v1);
    const a = build(tmp.dir);
    const pnpm = a.index.units.find((u) => u.text.includes("pnpm"));
    const suite = a.index.units.find((u) => u.text.includes("test suite"));
    const edited = v1
      .replace("never npm or yarn, for every install", "never npm or yarn, for each install")
      .replace("- Run the whole test suite before saying a change is done.", "- Ask before you push to a shared branch.");
    writeFileSync(join(tmp.dir, "CLAUDE.md"), edited);
    const b = build(tmp.dir, a.index, "2026-12-03");
    const pnpm2 = b.index.units.find((u) => u.text.includes("pnpm"));
    expect(pnpm2?.id).toBe(pnpm?.id);
    expect(pnpm2?.hash).not.toBe(pnpm?.hash);
    expect(pnpm2?.last_changed).toBe("2026-12-03");
    expect(pnpm2?.first_seen).toBe("2026-12-01");
    expect(b.index.carries).toEqual([{ id: pnpm?.id, from_hash: pnpm?.hash, to_hash: pnpm2?.hash, overlap: expect.any(Number), at: "2026-12-03" }]);
    expect(b.index.carries[0]?.overlap).toBeGreaterThanOrEqual(0.6);
    expect(b.index.units.some((u) => u.id === suite?.id)).toBe(false);
    expect(b.index.vanished).toEqual([{ id: suite?.id, source: "claude", text: suite?.text, at: "2026-12-03" }]);
    // Built again on the same text: the carried id stays, nothing more is recorded.
    const c = build(tmp.dir, b.index, "2026-12-04");
    expect(c.changed).toBe(false);
    expect(c.index).toBe(b.index);
  });

  it("without git a first build does not know when a rule was written; a later build that finds a new rule does", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), v1);
    const a = build(tmp.dir);
    expect(a.index.units.every((u) => !u.first_seen_known && u.dates_from === "index")).toBe(true);
    writeFileSync(join(tmp.dir, "CLAUDE.md"), `${v1}- Never log a token, even at debug level.\n`);
    const b = build(tmp.dir, a.index, "2026-12-05");
    const fresh = b.index.units.find((u) => u.text.includes("token"));
    expect(fresh).toMatchObject({ first_seen: "2026-12-05", first_seen_known: true });
    expect(b.index.units.filter((u) => u.first_seen_known)).toHaveLength(1);
  });

  it("overlap is the shared words over the larger word set", () => {
    expect(wordOverlap("use pnpm never npm", "use pnpm never npm")).toBe(1);
    expect(wordOverlap("use pnpm", "use pnpm never npm")).toBe(0.5);
    expect(wordOverlap("Tabs!", "tabs")).toBe(1);
    expect(wordOverlap("", "")).toBe(0);
  });

  it("re-running with no change writes nothing", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), v1);
    const file = join(tmp.dir, "v4", "rules.json");
    const a = build(tmp.dir);
    writeRuleIndex(file, a.index);
    const before = statSync(file).mtimeMs;
    const b = build(tmp.dir, readRuleIndex(file), "2026-12-09");
    expect(b.changed).toBe(false);
    expect(b.index.updated).toBe("2026-12-01");
    expect(statSync(file).mtimeMs).toBe(before);
  });
});

describe("bad input", () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    tmp = tempDir("errata-rules-");
  });
  afterEach(() => tmp.cleanup());

  it("a missing or unreadable source is reported and the rest indexed", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), "- Always answer in English.\n");
    mkdirSync(join(tmp.dir, "notes.md"));
    const r = build(tmp.dir, null, "2026-12-01", ["docs/RULES.md", "notes.md"]);
    expect(r.index.units.map((u) => u.text)).toEqual(["- Always answer in English."]);
    expect(r.index.sources.find((s) => s.path === "docs/RULES.md")?.problems).toEqual(["not found"]);
    expect(r.index.sources.find((s) => s.path === "notes.md")?.problems).toEqual(["not a regular file (a directory)"]);
  });

  it("a circular @import is detected and reported, each file indexed once", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), "See @a.md\n\n- Rule in the root.\n");
    writeFileSync(join(tmp.dir, "a.md"), "@b.md\n\n- Rule in a.\n");
    writeFileSync(join(tmp.dir, "b.md"), "@a.md and @CLAUDE.md\n\n- Rule in b.\n");
    const r = build(tmp.dir);
    expect(r.index.sources.map((s) => s.path)).toEqual(["CLAUDE.md", "a.md", "b.md"]);
    expect(r.index.sources.find((s) => s.path === "b.md")?.problems).toEqual(["circular @import: CLAUDE.md -> a.md -> b.md -> a.md", "circular @import: CLAUDE.md -> a.md -> b.md -> CLAUDE.md"]);
    expect(r.index.units).toHaveLength(3);
  });

  it("imports are followed four hops and no further", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), "@h1.md\n");
    for (let i = 1; i <= 5; i++) writeFileSync(join(tmp.dir, `h${i}.md`), `@h${i + 1}.md\n\n- Rule ${i} of the chain.\n`);
    const r = build(tmp.dir);
    expect(r.index.sources.map((s) => s.path)).toEqual(["CLAUDE.md", "h1.md", "h2.md", "h3.md", "h4.md"]);
    expect(r.index.sources.find((s) => s.path === "h4.md")?.problems).toEqual(["@h5.md: more than 4 import hops, not followed"]);
  });

  it("a file over Claude Code's 4 MiB limit is reported as not loaded", () => {
    writeFileSync(join(tmp.dir, "CLAUDE.md"), `- Rule.\n${"x".repeat(4 * 1024 * 1024)}\n`);
    const r = build(tmp.dir);
    expect(r.index.sources[0]).toMatchObject({ load: "not-loaded", units: 0 });
    expect(r.index.sources[0]?.problems[0]).toMatch(/^over Claude Code's 4 MiB limit \(\d+ bytes\): not loaded$/);
  });

  it("a rule index that is not one is refused with what was expected", () => {
    const file = join(tmp.dir, "rules.json");
    writeFileSync(file, '{"schema": "errata-rules/0"}');
    expect(() => readRuleIndex(file)).toThrow(/is not a rule index \(expected schema "errata-rules\/1"; found schema:/);
  });
});

describe("dates from git", () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    tmp = tempDir("errata-rules-git-");
  });
  afterEach(() => tmp.cleanup());

  const git = (args: string[], date: string) =>
    spawnSync("git", args, { cwd: tmp.dir, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" } });

  it("a unit's first-seen and last-changed dates come from the commits of its lines", () => {
    if (spawnSync("git", ["--version"]).status !== 0) {
      console.log("skipped: git is not installed (the index then dates units by its own history)");
      return;
    }
    git(["init", "-q"], "2026-01-01T00:00:00Z");
    writeFileSync(join(tmp.dir, "CLAUDE.md"), "- Use pnpm.\n- Run the tests.\n");
    git(["add", "."], "2026-03-01T10:00:00Z");
    git(["commit", "-qm", "one"], "2026-03-01T10:00:00Z");
    writeFileSync(join(tmp.dir, "CLAUDE.md"), "- Use pnpm.\n- Run the whole test suite.\n  It takes a minute.\n");
    git(["commit", "-qam", "two"], "2026-05-02T10:00:00Z");
    const dates = gitLineDates(join(tmp.dir, "CLAUDE.md"));
    expect(dates?.slice(1)).toEqual(["2026-03-01", "2026-05-02", "2026-05-02"]);
    const ix = buildIndex(discoverSources({ root: tmp.dir, home: null, managed: [], extra: [] }), null, { today: "2026-12-01", projects: [], lineDates: gitLineDates }).index;
    expect(ix.units.map((u) => [u.first_seen, u.last_changed, u.dates_from])).toEqual([
      ["2026-03-01", "2026-03-01", "git"],
      ["2026-05-02", "2026-05-02", "git"],
    ]);
    expect(gitLineDates(join(tmp.dir, "untracked.md"))).toBeNull();
  });
});

describe("several projects in one index", () => {
  it("prefixes each project's sources, and a session sees only its project's rules (and the user's)", async () => {
    const { discoverProjects } = await import("../../runtime/rules/sources.js");
    const { RuleRetriever } = await import("../../runtime/rules/search.js");
    const { termCounts } = await import("../../runtime/rules/bm25.js");
    const { terms } = await import("../../runtime/rules/tokenize.js");
    const uv = join(claudeMdDir, "astral-sh__uv");
    const llm = join(claudeMdDir, "simonw__llm");
    const home = tempDir("errata-home-");
    try {
      mkdirSync(join(home.dir, ".claude"), { recursive: true });
      writeFileSync(join(home.dir, ".claude", "CLAUDE.md"), "- Answer tersely.\n");
      const sources = discoverProjects([{ root: uv, project: "/projects/uv" }, { root: llm, project: "/projects/llm" }], { home: home.dir, managed: [], extra: [] });
      const ix = buildIndex(sources, null, { today: "2026-12-01", projects: ["/projects/uv", "/projects/llm"] }).index;
      expect(ix.sources.map((s) => [s.source, s.project])).toEqual([
        ["user-claude", null],
        ["uv-claude", "/projects/uv"],
        ["uv-agents", "/projects/uv"],
        ["llm-agents", "/projects/llm"],
      ]);
      const inUv = RuleRetriever.of(ix, "/projects/uv/crates/uv");
      const hits = inUv.search(termCounts(terms("answer tersely python llm")), 50);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.unit.source === "user-claude" || h.unit.source.startsWith("uv-"))).toBe(true);
      expect(RuleRetriever.of(ix, "/elsewhere").search(termCounts(terms("tersely")), 5).map((h) => h.unit.source)).toEqual(["user-claude"]);
    } finally {
      home.cleanup();
    }
  });
});
