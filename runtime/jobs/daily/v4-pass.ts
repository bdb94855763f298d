import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { redactTextForWrite } from "../../privacy/index.js";
import { join } from "node:path";
import type { Cuts } from "../../../composers/index.js";
import type { Engine } from "../../engine/index.js";
import { bankHash } from "../../../questions/index.js";
import type { ErrataPaths } from "../../paths.js";
import { CapturedIndex } from "../../transcripts/index.js";
import { ledgerTurns } from "../../transcripts/index.js";
import { sweepExchanges } from "../../transcripts/index.js";
import { judgedExchanges, mostBrokenSection } from "../rules/index.js";
import { buildReport, composeAll, dominantJudge, readAnswers, readExchanges, readPlan, renderReport, resolveCuts, runV4Stage, v4Files } from "../v4/index.js";
import type { LedgerPort, StageOutput } from "./context.js";
import { stageOutput } from "./context.js";
import type { V4Request } from "./daily.js";
import { dayOf } from "./ids.js";

/**
 * The daily run's v4 pass, in process through the other rooms' runtime functions: new
 * exchanges from the transcripts (helper C's `sweepExchanges`, a re-run appends nothing),
 * v4 detect then v4 diagnose (helper G's `runV4Stage`, a re-run asks nothing new), then the
 * v4 report recomposed from the stored answers, written to `<v4Dir>/report-YYYY-MM-DD.md`.
 * A v4 run never writes the ledger or the audit files. The `captured` flag comes from the
 * ledger view the daily run already holds (no second read of the ledger).
 *
 * Example counts: `{new_exchanges: 40, exchanges: 412, detect_asked: 320, diagnose_asked: 95,
 * failures: 31, reported: 4, unreported: 27}`.
 */
export interface V4PassDeps {
  paths: ErrataPaths;
  ledger: LedgerPort;
  engine: () => Promise<Engine>;
  cuts: Cuts;
  home: string | undefined;
  nowMs: () => number;
}

export async function runDailyV4(req: V4Request, deps: V4PassDeps): Promise<StageOutput> {
  const { paths } = deps;
  const files = v4Files(paths.v4Dir);
  const notes: string[] = [];
  const counts: Record<string, number> = {};
  // The same unreadable line is met by every read of a file in this stage: noted once.
  const unreadable = new Set<string>();
  const warn = (line: string): void => void unreadable.add(line);
  if (existsSync(req.root) && statSync(req.root).isDirectory()) {
    const view = await deps.ledger.readAll();
    const sweep = await sweepExchanges({
      root: req.root,
      v4Dir: paths.v4Dir,
      stateDir: paths.stateDir,
      dryRun: req.dryRun,
      captured: new CapturedIndex(ledgerTurns(view.errata)),
      warn,
    });
    counts["transcript_files"] = sweep.files;
    counts["new_exchanges"] = sweep.newExchanges;
    counts["broken_lines"] = sweep.brokenLines;
  } else {
    notes.push(`transcripts folder not found (${req.root}): no new exchanges`);
  }
  if (!existsSync(files.exchanges)) {
    notes.push("no exchanges yet: nothing to judge");
    return stageOutput({ ...counts, exchanges: 0 }, notes);
  }
  const engine = await deps.engine();
  // The promoted configuration's cuts when one is promoted; else each pass resolves the
  // cuts recorded with its judge's weights (resolveCuts), never a bare 0.5 where some exist.
  const promotedCuts = Object.keys(deps.cuts).length > 0 ? { cuts: deps.cuts, cutsOrigin: "the promoted configuration's cuts (promoted.json)" } : {};
  const common = { engine, v4Dir: paths.v4Dir, ...promotedCuts, dryRun: req.dryRun, home: deps.home, warn, ...(req.limit !== null ? { limit: req.limit } : {}) };
  const detect = await runV4Stage("detect", common);
  const diagnose = await runV4Stage("diagnose", common);
  counts["exchanges"] = detect.exchangesRead;
  counts["detect_asked"] = detect.asked;
  counts["detect_unscored"] = detect.unscored;
  counts["retried_unscored"] = detect.retriedUnscored + diagnose.retriedUnscored;
  counts["exhausted_unscored"] = detect.exhaustedUnscored + diagnose.exhaustedUnscored;
  counts["diagnose_eligible"] = diagnose.eligible;
  counts["diagnose_asked"] = diagnose.asked;
  const out = join(paths.v4Dir, `report-${dayOf(deps.nowMs())}.md`);
  // Nothing new since today's report: it still holds; do not read every answer a third time.
  if (!req.dryRun && (counts["new_exchanges"] ?? 0) === 0 && detect.asked === 0 && diagnose.asked === 0 && existsSync(out)) {
    notes.push("nothing new: today's v4 report stands", ...unreadable);
    return stageOutput(counts, notes, {});
  }
  const ex = readExchanges([files.exchanges], { warn });
  const answers = readAnswers(files.answers, { warn });
  notes.push(...unreadable);
  const judge = dominantJudge(answers.rows);
  const cuts = resolveCuts({ promoted: deps.cuts, judge });
  notes.push(`cuts: ${cuts.origin}`);
  const composed = composeAll(ex.rows, answers.rows, judge ?? { lane: "-", model: "-" }, cuts.cuts);
  // Exchanges from the synthetic generator are scored against its plan (labels.jsonl beside the
  // exchanges) when one is there; without one the report says the planted counts are unknown.
  const plan = readPlan(ex.rows, [files.exchanges], undefined, { warn });
  const report = buildReport(composed, { judge, bankHash, cuts: cuts.cuts, cutsOrigin: cuts.origin, planted: plan.planted, planCovered: plan.covered });
  if (report.synthetic !== null) {
    const s = report.synthetic;
    counts["synthetic_exchanges"] = s.exchanges;
    if (s.plan_exchanges > 0) Object.assign(counts, { planted: s.planted, planted_found: s.found, planted_missed: s.missed, false_alarms: s.unplanted_flagged });
    else notes.push("synthetic exchanges without the generator's plan: planted found/missed unknown");
  }
  if (judge !== null) report.most_broken_rules = mostBrokenSection(paths.v4Dir, ex.rows, judgedExchanges(answers.rows, judge), judge, 10, warn);
  const failures = composed.filter((c) => !c.exchange.synthetic && c.detect?.is_failure === true);
  counts["failures"] = failures.length;
  counts["reported"] = failures.filter((c) => c.exchange.captured).length;
  counts["unreported"] = failures.length - counts["reported"];
  counts["unscored_detect"] = composed.filter((c) => c.detect === null).length;
  if (!req.dryRun) {
    mkdirSync(paths.v4Dir, { recursive: true });
    const head = `# v4 report ${dayOf(deps.nowMs())}${req.shadow ? " (shadow)" : ""}\n\n`;
    // Exchanges written before the exchanges writer redacted may still hold secrets.
    writeFileSync(out, redactTextForWrite(`${head}${renderReport(report).join("\n")}\n`));
  }
  return stageOutput(counts, notes, { report: out });
}
