// How well the contradiction step finds a line that says otherwise, as the auditor runs it
// offline (retrieval, the doctrine noul through the embedded lane, which leaves it unscored,
// so the polarity/choice-set heuristic decides). CONSTRUCTED positives: lines written here that
// contradict a rule of each synthetic project's CLAUDE.md (runtime/corpora/synthetic), some
// with a negation or another pick of one set, some only in meaning. Controls: every rule of
// the synthetic files as written, and every rule unit of the bundled real instruction files
// (datasets/claude-md), taken as contradiction-free (not checked by a person: a flag there is
// a false alarm or a real contradiction in someone's file; the examples are printed).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { instructionFile } from "../../runtime/corpora/synthetic/instructions.js";
import { PROJECTS } from "../../runtime/corpora/synthetic/projects.js";
import { createEngine } from "../../runtime/engine/index.js";
import { contradictions, nearestOthers, readContradiction } from "../../runtime/ladder/diagnose.js";
import { foldLedger, type LedgerRule } from "../../runtime/ladder/ledger.js";
import { parseInstructionFile } from "../../runtime/rules/index.js";
import type { RuleRow } from "../../schemas/rule-ledger.js";
import { repoRoot } from "../rules/helpers.js";

const engine = createEngine({ lane: "embedded" });

function rulesOf(text: string, file: string): LedgerRule[] {
  const units = parseInstructionFile(text).units.filter((u) => u.kind !== "code" && u.text.trim().length > 0);
  const rows: RuleRow[] = units.map((u, i) => ({
    kind: "rule", v: 1, rule_id: `${file}#${i}`, at: "2026-11-01T00:00:00.000Z", text: u.text, why: null, when: null, when_not: null, rung: 2,
    location: { kind: "text", file, section: u.heading_path.at(-1) ?? null }, origin: "index", keywords: [], witness: null, exempt: false,
  }));
  return [...foldLedger(rows).rules.values()];
}

/** [the planted line, a piece of the rule it contradicts, whether it says so with a negation or a choice set]. */
function planted(p: (typeof PROJECTS)[number]): Array<[string, string, "surface" | "meaning"]> {
  return [
    [`Use ${p.wrongPm} for every dependency change.`, `Use ${p.pm} for every`, "surface"],
    ["Answer in Finnish.", "Answer in English", "surface"],
    ["Commit straight to main when a fix is small.", "never commit straight to main", "surface"],
    ["Leave TODOs for me when a step is unclear.", "do not leave TODOs", "surface"],
    ["Say a change works once it compiles; reading the test output can wait.", `Run \`${p.testCmd}\``, "meaning"],
    ["Use nested conditionals rather than early returns.", "Prefer early returns", "meaning"],
    [`Rewrite \`${p.config}\` whenever it looks untidy.`, "Remove or rewrite", "meaning"],
  ];
}

function realFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...realFiles(p));
    else if (e.endsWith(".md") && !["README.md", "SOURCE.md", "LICENSE.md"].includes(e) && !e.startsWith("hookify.")) out.push(p);
  }
  return out.sort();
}

describe("the contradiction step, measured (constructed and synthetic; controls from real files)", () => {
  it("finds planted contradictions said with a negation or a choice set, misses ones said only in meaning, and flags few controls", async () => {
    const found = { surface: 0, meaning: 0 };
    const total = { surface: 0, meaning: 0 };
    let retrieved = 0;
    let otherFlags = 0;
    let decidedByHeuristic = 0;
    let asked = 0;
    for (const p of PROJECTS) {
      const file = `${p.name}/CLAUDE.md`;
      const base = rulesOf(instructionFile(p), file);
      for (const [line, target, how] of planted(p)) {
        const rule = base.find((r) => r.text.includes(target));
        expect(rule, `${p.name}: a rule holding ${JSON.stringify(target)}`).toBeDefined();
        const plant = rulesOf(`- ${line}\n`, `${p.name}/notes.md`)[0]!;
        const others = [...base, plant];
        const reading = await readContradiction(rule!, others, engine);
        asked++;
        if (reading.decided_by === "heuristic") decidedByHeuristic++;
        total[how]++;
        if (reading.against.some((a) => a.startsWith(plant.rule_id))) found[how]++;
        otherFlags += reading.against.filter((a) => !a.startsWith(plant.rule_id)).length;
        if (nearestOthers(rule!, others).some((n) => n.rule.rule_id === plant.rule_id)) retrieved++;
      }
    }
    // Controls 1: every rule of the synthetic files as written (no planted line).
    let synthRules = 0;
    let synthFlagged = 0;
    for (const p of PROJECTS) {
      const base = rulesOf(instructionFile(p), `${p.name}/CLAUDE.md`);
      for (const r of base) {
        synthRules++;
        if ((await readContradiction(r, base, engine)).against.length > 0) synthFlagged++;
      }
    }
    // Controls 2: every rule unit of the real files, against the other units of its file. Offline
    // the heuristic decides (checked above: the noul is unscored on every call), so they are read
    // with it directly, which spares 27,000 unscored asks.
    let realRules = 0;
    let realFlagged = 0;
    const examples: string[] = [];
    const files = realFiles(join(repoRoot, "datasets", "claude-md"));
    for (const f of files) {
      const rules = rulesOf(readFileSync(f, "utf8"), f.slice(repoRoot.length + 1));
      for (const r of rules) {
        realRules++;
        const against = contradictions(r, rules);
        if (against.length === 0) continue;
        realFlagged++;
        if (examples.length < 6 && !examples.some((e) => e.startsWith(r.rule_id.split("#")[0]!))) examples.push(`${r.rule_id}: ${JSON.stringify(r.text.slice(0, 70))} <- ${against[0]!.slice(0, 120)}`);
      }
    }
    const positives = total.surface + total.meaning;
    const tp = found.surface + found.meaning;
    const fp = otherFlags + synthFlagged;
    const line = [
      `contradiction step, offline (noul unscored on the embedded lane, heuristic decided ${decidedByHeuristic}/${asked}):`,
      `  CONSTRUCTED positives, ${PROJECTS.length} synthetic projects: found ${tp}/${positives} (recall ${(tp / positives).toFixed(3)}): said with a negation or a choice set ${found.surface}/${total.surface}, only in meaning ${found.meaning}/${total.meaning}`,
      `  retrieval: the planted line among the ${4} nearest for ${retrieved}/${positives}`,
      `  SYNTHETIC controls: ${synthFlagged}/${synthRules} rules of the files as written flagged; ${otherFlags} flags on another line beside a planted one`,
      `  precision on the constructed set: ${tp}/${tp + fp} = ${(tp / (tp + fp)).toFixed(3)}`,
      `  REAL controls (datasets/claude-md, ${files.length} files, assumed contradiction-free, unchecked): ${realFlagged}/${realRules} units flagged (${((100 * realFlagged) / realRules).toFixed(1)}%)`,
      ...examples.map((e) => `    e.g. ${e}`),
    ].join("\n");
    process.stdout.write(`${line}\n`);
    expect(decidedByHeuristic).toBe(asked);
    expect(found.surface).toBe(total.surface); // every planted negation / choice-set line is found
    expect(found.meaning).toBeLessThan(total.meaning); // the heuristic cannot read meaning: what a judge is for
    expect(synthFlagged).toBe(0);
    expect(retrieved / positives).toBeGreaterThan(0.8);
    expect(realFlagged / realRules).toBeLessThan(0.25);
  });
});
