// The fresh3 batch's rows (datasets/ladder-naming/fresh3.jsonl), checked for form only: every
// rule_starts names exactly one rule of its own project as the loader indexes it, kinds, labels
// and fix types agree, the projects are new to the naming set. It computes and prints no model
// figure: the batch is report-only, and whoever tunes the naming model must not see its results
// while working (datasets/ladder-naming/README.md).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normalisedText } from "../../runtime/rules/index.js";
import { DATA, fresh2Items, fresh3Items, ledgerRules, namingItems, projectOf, targetRule, type NamingItem } from "./naming-set.js";

const items = fresh3Items();
const TOOL_INPUT_KEYS: Record<string, readonly string[]> = {
  Bash: ["command"],
  Edit: ["file_path", "old_string", "new_string"],
  Write: ["file_path", "content"],
};
const KIND_RULES: Record<NamingItem["kind"], { label: NamingItem["label"]; fix: NamingItem["fix"]; covered: boolean }> = {
  near: { label: "incident", fix: "enforce_rule", covered: true },
  far: { label: "incident", fix: "enforce_rule", covered: true },
  kept: { label: "mention", fix: "enforce_rule", covered: true },
  uncovered: { label: "none", fix: "add_rule", covered: false },
};

describe("fresh3 naming batch (report-only; rows checked, no figures)", () => {
  it("exists and has about 120 rows with unique ids, each marked split fresh3", () => {
    expect(existsSync(`${DATA}ladder-naming/fresh3.jsonl`)).toBe(true);
    expect(items.length).toBeGreaterThanOrEqual(110);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    expect(items.filter((i) => i.split !== "fresh3")).toEqual([]);
    const raw = readFileSync(`${DATA}ladder-naming/fresh3.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { split: string });
    expect(raw.filter((r) => r.split !== "fresh3")).toEqual([]);
  });

  it("every row has the fields of the naming set's format, with tool calls in Claude Code's shape", () => {
    const bad: string[] = [];
    for (const it of items) {
      if (typeof it.text !== "string" || it.text.trim() === "") bad.push(`${it.id}: empty text`);
      if (typeof it.reply !== "string") bad.push(`${it.id}: reply not a string`);
      if (typeof it.lang !== "string" || !/^[a-z]{2}$/.test(it.lang)) bad.push(`${it.id}: lang ${String(it.lang)}`);
      if (!Array.isArray(it.tools)) { bad.push(`${it.id}: tools not a list`); continue; }
      for (const t of it.tools) {
        const keys = TOOL_INPUT_KEYS[t.name];
        if (keys === undefined) { bad.push(`${it.id}: tool ${t.name}`); continue; }
        const input = t.input as Record<string, unknown>;
        for (const k of keys) if (typeof input[k] !== "string") bad.push(`${it.id}: ${t.name} without ${k}`);
      }
      // An incident or a mention needs something the owner reacted to: a reply or a tool call.
      if (it.reply.trim() === "" && it.tools.length === 0) bad.push(`${it.id}: nothing to correct`);
    }
    expect(bad).toEqual([]);
  });

  it("kinds, labels, fix types and rule_starts agree", () => {
    const bad = items.filter((it) => {
      const want = KIND_RULES[it.kind];
      return want === undefined || it.label !== want.label || it.fix !== want.fix || (it.rule_starts !== null) !== want.covered;
    }).map((it) => it.id);
    expect(bad).toEqual([]);
  });

  it("every rule_starts names exactly one rule of its own project, the one the loader's targetRule finds", () => {
    const repos = [...new Set(items.map((i) => i.repo))];
    const rules = ledgerRules(repos);
    const bad: string[] = [];
    for (const it of items) {
      if (it.rule_starts === null) continue;
      const want = normalisedText(it.rule_starts);
      const own = rules.filter((r) => r.project === projectOf(it.repo) && normalisedText(r.text).startsWith(want));
      if (own.length !== 1) { bad.push(`${it.id}: ${own.length} rules start with ${JSON.stringify(it.rule_starts)}`); continue; }
      if (targetRule(rules, it) !== own[0]) bad.push(`${it.id}: targetRule disagrees`);
    }
    expect(bad).toEqual([]);
  });

  it("uses only projects of datasets/claude-md that no earlier batch used, at least 8 of them", () => {
    const folders = new Set(readdirSync(`${DATA}claude-md`));
    const earlier = new Set([...namingItems(), ...fresh2Items()].map((i) => i.repo));
    const repos = new Set(items.map((i) => i.repo));
    expect([...repos].filter((r) => !folders.has(r))).toEqual([]);
    expect([...repos].filter((r) => earlier.has(r))).toEqual([]);
    expect(repos.size).toBeGreaterThanOrEqual(8);
  });

  it("has the composition its README states: >= 45% not English, >= 8 languages, about 10% uncovered, every kind present", () => {
    const langs = new Set(items.map((i) => i.lang));
    for (const l of ["en", "ko", "ja", "zh", "de", "fr", "es", "pt", "ru"]) expect(langs.has(l), l).toBe(true);
    expect(items.filter((i) => i.lang !== "en").length / items.length).toBeGreaterThanOrEqual(0.45);
    const uncovered = items.filter((i) => i.kind === "uncovered").length / items.length;
    expect(uncovered).toBeGreaterThanOrEqual(0.07);
    expect(uncovered).toBeLessThanOrEqual(0.15);
    for (const k of ["near", "far", "kept", "uncovered"] as const) expect(items.some((i) => i.kind === k), k).toBe(true);
  });
});
