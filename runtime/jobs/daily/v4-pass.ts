import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { redactTextForWrite } from "../../privacy/index.js";
import { join } from "node:path";
import type { Engine } from "../../engine/index.js";
import { judgmentsReport, openJudgments, renderReport, v4Files } from "../../judgments/index.js";
import type { Promoted } from "../../../schemas/promoted.js";
import type { ErrataPaths } from "../../paths.js";
import { CapturedIndex } from "../../transcripts/index.js";
import { ledgerTurns } from "../../transcripts/index.js";
import { sweepExchanges } from "../../transcripts/index.js";
import { runV4Stage } from "../v4/index.js";
import type { LedgerPort, StageOutput } from "./context.js";
import { stageOutput } from "./context.js";
import type { V4Request } from "./daily.js";
import { dayOf } from "./ids.js";

/**
 * The daily run's v4 pass, in process through the other rooms' runtime functions: new
 * exchanges from the transcripts (helper C's `sweepExchanges`, a re-run appends nothing),
 * v4 detect then v4 diagnose (helper G's `runV4Stage`, a re-run asks nothing new), then the
 * v4 report (`judgmentsReport`, the very report `errata v4 report` prints on the same folder),
 * written to `<v4Dir>/report-YYYY-MM-DD.md`. The exchanges and answers are read once
 * (`openJudgments`) and shared by the passes and the report; the passes' new answers join them.
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
  /** The promoted configuration as the daily run read it (null: none); the cuts chooser's second source. */
  promoted: Promoted | null;
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
  // One read of the folder for both passes and the report; the cuts from the one chooser.
  const j = openJudgments({ v4Dir: paths.v4Dir, cuts: { promoted: { read: deps.promoted } }, warn });
  const common = { engine, v4Dir: paths.v4Dir, cuts: { promoted: { read: deps.promoted } }, judgments: j, dryRun: req.dryRun, home: deps.home, warn, ...(req.limit !== null ? { limit: req.limit } : {}) };
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
  // Nothing new since today's report: it still holds.
  if (!req.dryRun && (counts["new_exchanges"] ?? 0) === 0 && detect.asked === 0 && diagnose.asked === 0 && existsSync(out)) {
    notes.push("nothing new: today's v4 report stands", ...unreadable);
    return stageOutput(counts, notes, {});
  }
  // The judge the answers name now (the passes may have given the first answers).
  const judged = j.rejudged();
  const report = judgmentsReport(judged, { warn });
  notes.push(...unreadable);
  notes.push(`cuts: ${judged.cuts.origin}`);
  if (report.synthetic !== null) {
    const s = report.synthetic;
    counts["synthetic_exchanges"] = s.exchanges;
    if (s.plan_exchanges > 0) Object.assign(counts, { planted: s.planted, planted_found: s.found, planted_missed: s.missed, false_alarms: s.unplanted_flagged });
    else notes.push("synthetic exchanges without the generator's plan: planted found/missed unknown");
  }
  const composed = judged.composed();
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
