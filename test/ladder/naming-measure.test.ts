/**
 * The ladder's goals measured on datasets/ladder-naming (CONSTRUCTED corrections written for
 * this project against the real instruction files of datasets/claude-md; every batch, items.jsonl
 * and fresh2.jsonl, is what the naming model is fitted on since 2026-12-07: these are in-sample
 * figures, the out-of-fold ones are naming-oof.test.ts's) and the issue's two-project scenario.
 * Prints the figures; asserts only floors well under them, so a regression fails.
 */
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { causeModel, readProposals, RuleNamer, runAudit, syncIndexRules, turnLines } from "../../runtime/ladder/index.js";
import { runRulesBuild } from "../../runtime/jobs/index.js";
import { normalisedText, readRuleIndex } from "../../runtime/rules/index.js";
import { tempDir } from "../helpers/io.js";
import { writeSession } from "./helpers.js";
import { DATA, fresh2Items, fresh3Items, itemTurn, ledgerRules, namingItems, projectOf, targetRule, type NamingItem } from "./naming-set.js";

const pct = (a: number, b: number): string => (b === 0 ? "n/a" : `${a}/${b} = ${(a / b).toFixed(3)}`);

type Figures = { p: number; r: number; r1: number; r4: number; fix: number };

/** One split's figures: recall@1/@4 per language, incident precision/recall, enforce vs add
 * (items with their index in their file: the index numbers the session). */
function measureSplit(split: string, items: ReadonlyArray<readonly [number, Omit<NamingItem, "split">]>, rules: ReturnType<typeof ledgerRules>, namer: RuleNamer, model: ReturnType<typeof causeModel>): { lines: string[]; figures: Figures } {
  const lines: string[] = [];
  const byLang = new Map<string, { n: number; r1: number; r4: number }>();
  // Per language: incidents (tp, fp, fn) and fix type (right of items).
  const incLang = new Map<string, { tp: number; fp: number; fn: number; fix: number; items: number }>();
  let tp = 0, fp = 0, fn = 0, fixRight = 0, fixDecision = 0, n = 0;
  for (const [k, it] of items) {
    n++;
    // The shared helpers read the item's repo, rule and texts, never its split.
    const target = targetRule(rules, it as NamingItem);
    const turn = itemTurn(it as NamingItem, k);
    const naming = namer.name(turn);
    if (target !== null) {
      const l = byLang.get(it.lang) ?? { n: 0, r1: 0, r4: 0 };
      l.n++;
      if (naming.candidates[0]?.rule.rule_id === target.rule_id) l.r1++;
      if (naming.candidates.some((c) => c.rule.rule_id === target.rule_id)) l.r4++;
      byLang.set(it.lang, l);
    }
    // The fix type from the covered-or-not decision (naming.ts cover cut), right when it matches and no wrong rule is named.
    const fix = naming.covered ? "enforce_rule" : "add_rule";
    const li = incLang.get(it.lang) ?? { tp: 0, fp: 0, fn: 0, fix: 0, items: 0 };
    incLang.set(it.lang, li);
    li.items++;
    if (fix === it.fix) fixDecision++;
    if (fix === it.fix && (naming.named === null || naming.named.rule.rule_id === target?.rule_id)) {
      fixRight++;
      li.fix++;
    }
    const out = turnLines(turn, rules, [], (t) => model.sort(t.text, t.reply_before), { namer });
    const counted = out.lines.filter((l) => l.kind === "incident").map((l) => l.rule_id);
    const right = it.label === "incident" && target !== null && counted.length === 1 && counted[0] === target.rule_id;
    if (right) {
      tp++;
      li.tp++;
    } else {
      fp += counted.length;
      li.fp += counted.length;
      if (it.label === "incident") {
        fn++;
        li.fn++;
      }
    }
  }
  const all = [...byLang.values()].reduce((a, l) => ({ n: a.n + l.n, r1: a.r1 + l.r1, r4: a.r4 + l.r4 }), { n: 0, r1: 0, r4: 0 });
  lines.push(`${split} (${n} items): incident precision ${pct(tp, tp + fp)}, recall ${pct(tp, tp + fn)}; recall@1 ${pct(all.r1, all.n)}, recall@4 ${pct(all.r4, all.n)}; enforce vs add right ${pct(fixRight, n)} (no wrong rule named; the decision alone ${pct(fixDecision, n)})`);
  for (const [lang, l] of byLang) {
    const i = incLang.get(lang)!;
    lines.push(`  ${lang}: recall@1 ${pct(l.r1, l.n)}, recall@4 ${pct(l.r4, l.n)}; incident precision ${pct(i.tp, i.tp + i.fp)}, recall ${pct(i.tp, i.tp + i.fn)}; fix type ${pct(i.fix, i.items)}`);
  }
  return { lines, figures: { p: tp / Math.max(1, tp + fp), r: tp / Math.max(1, tp + fn), r1: all.r1 / all.n, r4: all.r4 / all.n, fix: fixRight / n } };
}

describe("naming, incidents and fix type on the labelled set", () => {
  it("reports recall@1/@4 per language, incident precision/recall, enforce vs add, per split", () => {
    const items = namingItems();
    const rules = ledgerRules([...new Set(items.map((i) => i.repo))]);
    const namer = new RuleNamer(rules);
    const model = causeModel();
    const lines: string[] = [];
    const figures: Record<string, Figures> = {};
    for (const split of ["dev", "heldout", "fresh"] as const) {
      const m = measureSplit(split, [...items.entries()].filter(([, i]) => i.split === split), rules, namer, model);
      lines.push(...m.lines);
      figures[split] = m.figures;
    }
    console.log(`naming set, cut ${namer.cut.value} (${namer.cut.origin}), cover cut ${namer.coverCut.value}:\n${lines.join("\n")}`);
    // Floors under the measured figures (docs/ladder.md has them): a regression fails here.
    expect(figures["heldout"]!.r4).toBeGreaterThanOrEqual(0.85);
    expect(figures["heldout"]!.r1).toBeGreaterThanOrEqual(0.75);
    expect(figures["heldout"]!.p).toBeGreaterThanOrEqual(0.8);
    expect(figures["heldout"]!.r).toBeGreaterThanOrEqual(0.55);
    expect(figures["heldout"]!.fix).toBeGreaterThanOrEqual(0.7);
    // The first fresh batch (fitted on since 2026-12-07; docs/ladder.md): floors under the figures there.
    expect(figures["fresh"]!.r4).toBeGreaterThanOrEqual(0.85);
    expect(figures["fresh"]!.r1).toBeGreaterThanOrEqual(0.65);
    expect(figures["fresh"]!.p).toBeGreaterThanOrEqual(0.65);
    expect(figures["fresh"]!.r).toBeGreaterThanOrEqual(0.5);
    expect(figures["fresh"]!.fix).toBeGreaterThanOrEqual(0.6);
  });
});

describe("the batch fresh2", () => {
  // datasets/ladder-naming/fresh2.jsonl: seven projects no other batch uses, written blind to
  // the naming model; it reported once (docs/ladder.md) and is fitted on since 2026-12-07, so
  // its figures here are in sample (naming-oof.test.ts has them out of fold).
  it("every row names exactly one rule of its own project; in-sample figures", () => {
    const fresh2 = fresh2Items();
    const older = new Set(namingItems().map((i) => i.repo));
    const repos = [...new Set(fresh2.map((i) => i.repo))];
    expect(repos.filter((r) => older.has(r))).toEqual([]);
    expect(new Set(fresh2.map((i) => i.id)).size).toBe(fresh2.length);
    // The ledger holds every project of both files, as an owner with many has.
    const rules = ledgerRules([...new Set([...older, ...repos])]);
    for (const it of fresh2) {
      expect(it.split, it.id).toBe("fresh2");
      expect(it.rule_starts === null, it.id).toBe(it.kind === "uncovered");
      expect(it.fix, it.id).toBe(it.rule_starts === null ? "add_rule" : "enforce_rule");
      expect(it.label, it.id).toBe(({ near: "incident", far: "incident", kept: "mention", uncovered: "none" } as const)[it.kind]);
      if (it.rule_starts === null) continue;
      const want = normalisedText(it.rule_starts);
      const hits = rules.filter((r) => r.project === projectOf(it.repo) && normalisedText(r.text).startsWith(want));
      expect(hits.length, `${it.id} ${it.rule_starts}`).toBe(1);
    }
    const namer = new RuleNamer(rules);
    const m = measureSplit("fresh2", [...fresh2.entries()], rules, namer, causeModel());
    console.log(`naming set, fresh2 (fitted on), cut ${namer.cut.value}:\n${m.lines.join("\n")}`);
    expect(m.figures.r4).toBeGreaterThanOrEqual(0.9);
    expect(m.figures.r1).toBeGreaterThanOrEqual(0.75);
  });
});

describe("the two-project scenario", () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = tempDir("errata-two-projects-")));
  afterEach(() => tmp.cleanup());

  it("two sessions of 'Never put emojis in commit messages' in one project, a second project indexed: proposals only for that gap", async () => {
    const big = join(tmp.dir, "big");
    const uv = join(tmp.dir, "uv");
    cpSync(join(DATA, "claude-md", "0xBigBoss__claude-code"), big, { recursive: true });
    cpSync(join(DATA, "claude-md", "astral-sh__uv"), uv, { recursive: true });
    const v4 = join(tmp.dir, "v4");
    runRulesBuild({ roots: [{ root: big }], home: null, managed: [], extra: [], v4Dir: v4, today: "2026-12-01", git: false, dryRun: false });
    const built = runRulesBuild({ roots: [{ root: uv }], home: null, managed: [], extra: [], v4Dir: v4, today: "2026-12-01", git: false, dryRun: false });
    const index = readRuleIndex(built.file);
    const dir = join(tmp.dir, "ladder");
    mkdirSync(dir, { recursive: true });
    syncIndexRules(dir, index, "2026-12-01T00:00:00Z");
    const say = [
      { prompt: "commit the fix", tools: [{ name: "Bash", input: { command: 'git commit -m "✨ fix parser"' } }], reply: "Committed: ✨ fix parser" },
      { prompt: "No, that's wrong. Never put emojis in commit messages.", reply: "Sorry, amended." },
    ];
    const sessions = [writeSession(tmp.dir, "s1", "2026-12-01T10:00:00Z", say, big), writeSession(tmp.dir, "s2", "2026-12-02T10:00:00Z", say, big)];
    const r = await runAudit({ ladderDir: dir, projectDir: null, index, transcripts: sessions, at: "2026-12-03T03:00:00Z" });
    const table = [...readProposals(dir).values()].map((s) => s.proposal);
    console.log(`two-project scenario: ${r.incidents} incidents, ${r.gaps} gaps, proposals: ${table.map((p) => `${p.type} ${p.rule_id} -> ${p.edit?.file ?? "-"}`).join("; ") || "none"}`);
    expect(table.every((p) => p.type === "new_rule")).toBe(true);
    expect(table.length).toBeLessThanOrEqual(1);
    for (const p of table) expect(p.edit?.file.startsWith(big)).toBe(true);
  });
});

describe("the report-only batch fresh3", () => {
  // datasets/ladder-naming/fresh3.jsonl: ten projects no other batch uses, written apart from the
  // naming model and never fitted on (test/ladder/fresh3-rows.test.ts checks its rows). Its
  // figures print only with ERRATA_REPORT_FRESH3=1, measured once when a model is final, so
  // nobody working on the model sees them while working.
  it("figures with ERRATA_REPORT_FRESH3=1 (the model's, on ten projects it never saw)", () => {
    const fresh3 = fresh3Items();
    expect(fresh3.length).toBeGreaterThan(100);
    if (process.env["ERRATA_REPORT_FRESH3"] !== "1") {
      console.log(`fresh3 (${fresh3.length} rows, report-only): figures not printed (set ERRATA_REPORT_FRESH3=1 to report them)`);
      return;
    }
    // The ledger holds every project of every batch, as an owner with many has.
    const repos = new Set([...namingItems(), ...fresh2Items(), ...fresh3].map((i) => i.repo));
    const rules = ledgerRules([...repos]);
    const namer = new RuleNamer(rules);
    const m = measureSplit("fresh3", [...fresh3.entries()], rules, namer, causeModel());
    console.log(`naming set, fresh3 (report-only, never fitted on), cut ${namer.cut.value}:\n${m.lines.join("\n")}`);
  });
});
