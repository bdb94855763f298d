import { resolve } from "node:path";
import type { Command } from "commander";
import { clopperPearsonUpper, judgeShadowLog, opportunitiesNeeded, sequentialEvidence, sequentialOpportunitiesNeeded } from "../../../calibration/index.js";
import { ShadowEventSchema } from "../../../schemas/calibration.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { numberOption, readJsonl } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata calibrate shadow`: the shadow gate's arithmetic: how many clean opportunities a
 * check must watch to show its false-alarm rate below the target, with a rule that stays valid
 * however often the log is read (sequential mixture evidence); with `--log`, whether each
 * check has earned its place (exit 1 when one has not). The single-look figure (59 at 5%) is
 * printed beside it for reference.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("shadow")
    .description("how many clean opportunities a check must watch; with --log, whether it has earned its place")
    .option("--false-alarm <rate>", "false-alarm rate to bound (default 0.05)")
    .option("--confidence <level>", "one-sided confidence (default 0.95)")
    .option("--log <file>", "shadow log (shadow/1 JSONL)")
    .option("--check <name>", "only this check (default every check in the log)")
    .option("--min-days <n>", "days a check must watch besides the count (default 7)")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples(
        [
          "errata calibrate shadow --false-alarm 0.05 --confidence 0.95",
          [
            `echo '{"schema":"shadow/1","check":"reply_language","session_id":"s1","ts":"2026-11-30T10:00:00Z","eligible":true,"violation":false,"fired":false}' > shadow.jsonl &&`,
            "errata calibrate shadow --log shadow.jsonl --check reply_language  # exit 1: still in shadow",
          ],
        ],
        {
          before:
            "Convention: one opportunity per distinct session with clean, eligible moments; a session\nis a false alarm when the check fired on any of its clean moments. The verdict is sequential:\nread the log as often as you like, a check at the target rate passes at most 1 - confidence\nof the time. Exit 1 when a check in the log has not earned its place.",
        },
      ),
    )
    .action((opts: { falseAlarm?: string; confidence?: string; log?: string; check?: string; minDays?: string; json?: boolean }) => {
      const rate = numberOption("false-alarm", opts.falseAlarm, 0.05, [1e-6, 0.999999]);
      const confidence = numberOption("confidence", opts.confidence, 0.95, [0.5, 0.999999]);
      if (rate <= 0 || rate >= 1) throw badInput("bad --false-alarm", "a rate in (0, 1)", String(rate));
      const minDays = numberOption("min-days", opts.minDays, 7, [0, 3650]);
      const needed = sequentialOpportunitiesNeeded(rate, confidence);
      const single = opportunitiesNeeded(rate, confidence);
      const base = {
        false_alarm_rate: rate,
        confidence,
        method: "sequential: mixture likelihood ratio (uniform prior below the target), pass at evidence >= 1/(1 - confidence); valid under repeated looks",
        convention: "distinct sessions",
        needed,
        evidence_at_needed: sequentialEvidence(0, needed, rate),
        threshold: 1 / (1 - confidence),
        single_look: { method: "one-sided exact Clopper-Pearson upper bound (jstat beta quantile), valid for one look at a fixed count", needed: single, bound_at_needed: clopperPearsonUpper(0, single, confidence) },
      };
      if (!opts.log) {
        if (opts.json) return printJson(ctx.io, base);
        println(
          ctx.io,
          `${needed} clean, eligible opportunities from distinct sessions show the false-alarm rate below ${rate * 100}% however often the log is read (sequential evidence ${base.evidence_at_needed.toFixed(2)} >= ${base.threshold.toFixed(0)}, one-sided ${confidence * 100}%).`,
        );
        println(ctx.io, `(one look at exactly ${single} would bound it at ${(base.single_look.bound_at_needed * 100).toFixed(2)}%, but only if the verdict is never taken at any other count)`);
        return;
      }
      const events = readJsonl(resolve(ctx.io.cwd, opts.log), ShadowEventSchema);
      const checks = opts.check ? [opts.check] : [...new Set(events.map((e) => e.check))].sort();
      if (checks.length === 0) throw badInput(`no checks in ${opts.log}`, "shadow/1 lines", "an empty log");
      const verdicts = checks.map((c) => judgeShadowLog(events, c, { falseAlarmRate: rate, confidence, minDays }));
      if (verdicts.some((v) => !v.earned)) ctx.exitCode = 1;
      if (opts.json) return printJson(ctx.io, { ...base, min_days: minDays, checks: verdicts });
      for (const v of verdicts) {
        println(
          ctx.io,
          `${v.check}: ${v.earned ? "earned its place" : "still in shadow"}: ${v.falseAlarmSessions} false alarms in ${v.opportunities} sessions, evidence ${v.evidence.toFixed(2)} (needs ${v.threshold.toFixed(0)}; ${v.needed} sessions at this alarm count), single-look bound ${v.upperBound === null ? "n/a" : `${(v.upperBound * 100).toFixed(2)}%`}, ${v.daysWatched.toFixed(1)} days` +
            (v.reasons.length ? ` (${v.reasons.join("; ")})` : ""),
        );
      }
    });
}
