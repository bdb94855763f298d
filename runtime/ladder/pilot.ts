/**
 * The seed's pilot, simulated: six rules the owner has given more than once, three carried by
 * a check and three kept as text, four weeks before and four weeks after. Synthetic, and every
 * assumption is a parameter:
 *
 * - each session offers each rule 1-2 chances to slip; at rung 2 (a line read every turn) a
 *   chance becomes a slip with probability `slipText` (default 0.06, an assumption, not a
 *   measurement: no adherence figure is published);
 * - a slip the owner notices becomes an incident with probability `noticed` (0.8);
 * - at rung 3 a slip is an attempted tool call: the check (drafted by drafts.ts from the rule,
 *   or written by hand where code cannot draft it: force-push) run through the hook's evaluator
 *   blocks it when it matches; the planted violations are drawn from a list of ways to break
 *   each rule (one per rule deliberately outside the check: `git push origin +main`), so the
 *   check's detection is measured, not assumed, and an attempt it misses still becomes a slip;
 * - the text rules stay at rung 2 after: they are the control.
 *
 * Intervals: exact (Clopper-Pearson) 95% for incidents per chance, two-sided; chances are
 * independent by construction here, so no session clustering is needed (on real data it is).
 *
 * Falsifier: each rule's before/after sessions go through calibration's group-sequential
 * permutation test (one look a week after, alpha 0.05 spent quadratically; permutations from
 * their own seeded generator, so the pilot's draws do not change), and so do the three check
 * rules pooled and the three text rules pooled (docs/causal.md).
 *
 * Holdout (`holdoutOneIn`, off by default): after the switch each check rule's sessions are
 * drawn by the hook's own assignment (ladder-formats/holdout.ts, seed `holdoutSeed`) and in a
 * held-out session the check runs in shadow, so a slip goes through; the row then carries the
 * acting vs held-out incidents per chance with the session-cluster interval.
 *
 * Line holdout (`lineWithheldFactor`, with `holdoutOneIn`): the text rules' sessions after the
 * switch are drawn the same way and in a held-out session the line is not sent (the Errata
 * mod's withholding); the assumption is that a chance then slips with probability `slipText`
 * times `lineWithheldFactor` (2: the line halves the slip rate; no published figure says by how
 * much a line helps, so this is the assumption the simulation rests on, not a finding). As in
 * the morning report, a line's chance is a session in play and a slip a session with an
 * incident (runtime/ladder/holdout.ts `lineHoldoutRows`).
 *
 * Example: runPilot({seed: 22}).rows[0] -> {rule: "pnpm", carried: "check", before: {incidents: 11, chances: 252, ...}, after: {...}}.
 */
import jStat from "jstat";
import { mulberry32 } from "../../core/mulberry32.js";
import { randomIndex } from "../../core/shuffle.js";
import { evaluateChecks, heldOut, type Check } from "../ladder-formats/index.js";
import { holdoutInterval, rateChangeTest, type ClusterCount, type HoldoutInterval, type RateChangeVerdict, type SessionCell } from "../../calibration/index.js";
import { draftCheck } from "./drafts.js";
import { foldLedger } from "./ledger.js";
import type { RuleRow } from "../../schemas/rule-ledger.js";

interface PilotRule {
  name: string;
  text: string;
  carried: "check" | "text";
  /** How a slip shows as a tool call (for the check rules): planted violations, and clean calls. */
  violations: readonly string[];
  clean: readonly string[];
  /** A check written by hand where code cannot draft one from the text (its pattern on the command). */
  pattern?: string;
}

export const PILOT_RULES: readonly PilotRule[] = [
  { name: "pnpm", text: "Use pnpm, never npm.", carried: "check", violations: ["npm install lodash", "npm i -D vitest", "cd web && npm run build", "npm ci", "npx tsc"], clean: ["pnpm install", "pnpm add zod", "pnpm test", "ls"] },
  { name: "no-force-push", text: "Never force-push a shared branch.", carried: "check", violations: ["git push --force origin main", "git push -f", "git push --force-with-lease", "git push origin +main"], clean: ["git push origin feature", "git status"], pattern: "\\bgit\\s+push\\b.*(--force|\\s-f\\b)" },
  { name: "no-sudo", text: "Never sudo in this repository.", carried: "check", violations: ["sudo apt-get install jq", "sudo rm -rf build", "cd / && sudo make install"], clean: ["apt list --installed", "make test"] },
  { name: "finnish", text: "Reply in the language I write in (Finnish when I write Finnish).", carried: "text", violations: [], clean: [] },
  { name: "small-commits", text: "Keep commits small: one change per commit.", carried: "text", violations: [], clean: [] },
  { name: "tests-first", text: "Run the tests before saying a change is done.", carried: "text", violations: [], clean: [] },
];

export interface PilotOptions {
  seed: number;
  weeks?: number;
  sessionsPerDay?: number;
  slipText?: number;
  noticed?: number;
  /** Hold out one check-rule session in this many after the switch (the randomised holdout); absent: none. */
  holdoutOneIn?: number;
  holdoutSeed?: number;
  /** With `holdoutOneIn`: hold the text rules' lines out too; a withheld line's chance slips this many times as often. */
  lineWithheldFactor?: number;
}

export interface Rate {
  incidents: number;
  chances: number;
  rate: number;
  lo: number;
  hi: number;
}

export interface PilotRow {
  rule: string;
  carried: "check" | "text";
  before: Rate;
  after: Rate;
  /** For check rules: planted attempts the check blocked, of all planted; clean calls it fired on. */
  detection: { blocked: number; planted: number; falseFires: number; clean: number } | null;
  /** The group-sequential permutation test over the weeks after (docs/causal.md). */
  falsifier: RateChangeVerdict;
  /** With a holdout: acting vs held-out sessions after the switch. */
  holdout: HoldoutInterval | null;
  /** With a line holdout, for text rules: sessions in force vs held out after the switch, a session a chance. */
  lineHoldout: HoldoutInterval | null;
}

/** Permutations per look in the pilot's falsifier, and the seed offset of their generator. */
const PILOT_RESAMPLES = 999;
const PERMUTATION_SEED = 0x5eed;

function exact(x: number, n: number): Rate {
  const lo = x === 0 ? 0 : jStat.beta.inv(0.025, x, n - x + 1);
  const hi = x === n ? 1 : jStat.beta.inv(0.975, x + 1, n - x);
  return { incidents: x, chances: n, rate: n > 0 ? x / n : 0, lo, hi };
}

const asRule = (r: PilotRule): RuleRow => ({ kind: "rule", v: 1, rule_id: `pilot.${r.name}`, at: "2026-11-01", text: r.text, why: null, when: null, when_not: null, rung: 2, location: { kind: "text", file: "CLAUDE.md", section: null }, origin: "index", keywords: [], witness: null, exempt: false });

export interface PilotResult {
  rows: PilotRow[];
  /** The three check rules pooled and the three text rules pooled, each rule its own stratum. */
  pooled: { check: RateChangeVerdict; text: RateChangeVerdict };
  assumptions: Record<string, number>;
  data: "synthetic";
}

export function runPilot(o: PilotOptions): PilotResult {
  const weeks = o.weeks ?? 4;
  const perDay = o.sessionsPerDay ?? 6;
  const slipText = o.slipText ?? 0.06;
  const noticed = o.noticed ?? 0.8;
  const rand = mulberry32(o.seed);
  const rows: PilotRow[] = [];
  const permute = mulberry32(o.seed ^ PERMUTATION_SEED);
  const test = (strata: SessionCell[][]): RateChangeVerdict => rateChangeTest(strata, { looks: weeks, look: weeks, resamples: PILOT_RESAMPLES, random: permute }).verdict;
  const cellsOf: Record<"check" | "text", SessionCell[][]> = { check: [], text: [] };
  for (const r of PILOT_RULES) {
    const drafted = r.carried === "check" ? draftCheck(foldLedger([asRule(r)]).rules.get(`pilot.${r.name}`)!) : null;
    const check: Check | null = drafted && r.pattern ? { ...drafted, conditions: [{ field: "command", operator: "regex_match", pattern: r.pattern }] } : drafted;
    if (r.carried === "check" && check === null) throw new Error(`pilot: no check can be drafted from ${JSON.stringify(r.text)}`);
    const active = check ? [{ ...check, mode: "active" as const }] : [];
    const blocks = (command: string) => evaluateChecks(active, { tool_name: "Bash", tool_input: { command } }).decision === "deny";
    const det = { blocked: 0, planted: 0, falseFires: 0, clean: 0 };
    const cells: SessionCell[] = [];
    const arms: { acting: ClusterCount[]; held: ClusterCount[] } = { acting: [], held: [] };
    const holdout = check && o.holdoutOneIn !== undefined ? { one_in: o.holdoutOneIn, seed: o.holdoutSeed ?? 1 } : undefined;
    const lineHold = !check && o.holdoutOneIn !== undefined && o.lineWithheldFactor !== undefined ? { one_in: o.holdoutOneIn, seed: o.holdoutSeed ?? 1 } : undefined;
    const lineArms: { inForce: ClusterCount[]; held: ClusterCount[] } = { inForce: [], held: [] };
    const period = (after: boolean): Rate => {
      let incidents = 0;
      let chances = 0;
      for (let s = 0; s < weeks * 7 * perDay; s++) {
        const n = 1 + randomIndex(rand, 2);
        // The hook's own draw: a held-out session's check runs in shadow (it blocks nothing).
        const held = after && holdout !== undefined && heldOut({ id: `pilot.${r.name}`, holdout }, `pilot-${o.seed}-${r.name}-${s}`);
        // The mod's draw for a line: a held-out session is sent without it.
        const withheld = after && lineHold !== undefined && heldOut({ id: `pilot.${r.name}`, holdout: lineHold }, `pilot-${o.seed}-${r.name}-${s}`);
        const cell = { incidents: 0, chances: n, look: after ? Math.floor(s / (7 * perDay)) + 1 : 0 };
        for (let k = 0; k < n; k++) {
          chances++;
          const slips = rand() < slipText * (withheld ? (o.lineWithheldFactor ?? 1) : 1);
          if (after && check) {
            const clean = r.clean[randomIndex(rand, r.clean.length)]!;
            det.clean++;
            if (blocks(clean)) det.falseFires++;
          }
          if (!slips) continue;
          if (after && check) {
            const attempt = r.violations[randomIndex(rand, r.violations.length)]!;
            det.planted++;
            if (blocks(attempt)) {
              det.blocked++;
              if (!held) continue;
            }
          }
          if (rand() < noticed) {
            incidents++;
            cell.incidents++;
          }
        }
        cells.push(cell);
        if (after && holdout !== undefined) (held ? arms.held : arms.acting).push({ incidents: cell.incidents, chances: n });
        if (after && lineHold !== undefined) (withheld ? lineArms.held : lineArms.inForce).push({ incidents: cell.incidents > 0 ? 1 : 0, chances: 1 });
      }
      return exact(incidents, chances);
    };
    const before = period(false);
    const after = period(true);
    cellsOf[r.carried].push(cells);
    const interval = arms.held.length > 0 && arms.acting.length > 0 ? holdoutInterval(arms.acting, arms.held) : null;
    const lineInterval = lineArms.held.length > 0 && lineArms.inForce.length > 0 ? holdoutInterval(lineArms.inForce, lineArms.held) : null;
    rows.push({ rule: r.name, carried: r.carried, before, after, detection: check ? det : null, falsifier: test([cells]), holdout: interval, lineHoldout: lineInterval });
  }
  const assumptions: Record<string, number> = { weeks, sessionsPerDay: perDay, slipText, noticed, ...(o.holdoutOneIn !== undefined ? { holdoutOneIn: o.holdoutOneIn, holdoutSeed: o.holdoutSeed ?? 1 } : {}), ...(o.lineWithheldFactor !== undefined ? { lineWithheldFactor: o.lineWithheldFactor } : {}) };
  return { rows, pooled: { check: test(cellsOf.check), text: test(cellsOf.text) }, assumptions, data: "synthetic" };
}
