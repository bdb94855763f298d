import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { chooseJudge, JUDGE_CUTS_FILE, readAnswers, readCutsFile, readJudgeCuts, v4Files, writeJudgeCuts, type JudgeId } from "../../../runtime/judgments/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { QuestionCandidateSchema, type JudgeCuts } from "../../../schemas/calibration.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { count, printJson, println } from "../../shared/io.js";

interface Flags {
  rule?: string;
  lane?: string;
  model?: string;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * The cuts a calibration file holds: a `calibrate fit` candidate (calibration-question/1: its
 * kappa or precision cut), or anything `--cuts` reads (`{id: cut}`, `{cuts: {...}}`, a
 * `calibrate cuts` candidate, a judge-cuts/1 file).
 */
function cutsOf(file: string, cwd: string, rule: "kappa" | "precision"): { cuts: Record<string, number>; what: string } {
  let value: unknown = null;
  try {
    value = JSON.parse(readFileSync(resolve(cwd, file), "utf8"));
  } catch {
    // Not JSON or not there: readCutsFile says which.
  }
  const fit = QuestionCandidateSchema.safeParse(value);
  if (fit.success) {
    const point = rule === "kappa" ? fit.data.cuts.kappa_cut : fit.data.cuts.precision_cut;
    if (point === null) throw badInput(`${file} has no ${rule} cut for ${fit.data.question}`, `a candidate with a ${rule} cut (or --rule ${rule === "kappa" ? "precision" : "kappa"})`, "null");
    return { cuts: { [fit.data.question]: point.cut }, what: `the ${rule} cut of ${file}` };
  }
  return { cuts: readCutsFile(file, cwd), what: file };
}

/**
 * `errata calibrate use FILE`: makes calibrated cuts the ones every report reads by default
 * (`errata v4 report`, the daily run's v4 stage, the Pulse page, `rules cover`, `rules
 * budget`): writes them to `<v4>/cuts.json` (judge-cuts/1) for the judge of the stored answers,
 * each question with where its cut came from, over the cuts already there. The promoted
 * configuration still comes first (runtime/judgments/cuts.ts); nothing is promoted here.
 *
 * Example: `errata calibrate use candidates/rules.rule_covers-20261206.json` -> "rules.rule_covers
 * 0.41 (kappa cut of candidates/…) now in …/v4/cuts.json for embedded/hashed-logreg/…".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("use")
    .description("make calibrated cuts (a calibrate cuts|fit candidate or a cuts file) the ones every report reads by default: <v4>/cuts.json")
    .argument("<file>", "a calibration candidate (calibrate cuts or fit) or a cuts file ({question id: cut})")
    .option("--rule <rule>", "which cut of a calibrate fit candidate: kappa or precision (default kappa)")
    .option("--lane <lane>", "the judge these cuts are for: its lane (default: the lane most stored answers came from)")
    .option("--model <model>", "the judge these cuts are for: its model (default: the model most stored answers came from)")
    .option("--dry-run", "say what would be written, write nothing")
    .option("--json", "print one JSON value: {file, written, judge, cuts, origins}")
    .addHelpText(
      "after",
      examples([[`echo '{"rules.rule_covers": 0.42}' > rule-covers.json &&`, "errata calibrate use rule-covers.json && errata calibrate use rule-covers.json --json"]]),
    )
    .action((file: string, flags: Flags) => {
      const rule = flags.rule ?? "kappa";
      if (rule !== "kappa" && rule !== "precision") throw badInput("bad --rule", "kappa or precision", describeFound(rule));
      const { cuts: fresh, what } = cutsOf(file, ctx.io.cwd, rule);
      if (Object.keys(fresh).length === 0) throw badInput(`no cuts in ${file}`, "at least one question id -> cut", "none");
      const v4Dir = resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir;
      const answers = readAnswers(v4Files(v4Dir).answers).rows;
      const judge: JudgeId | null = flags.lane !== undefined && flags.model !== undefined ? { lane: flags.lane, model: flags.model } : chooseJudge(answers, { lane: flags.lane, model: flags.model });
      const before = readJudgeCuts(v4Dir);
      // Cuts already chosen for this judge stay unless these replace them; another judge's are set aside.
      const keep = before !== null && (before.judge === null || (judge !== null && before.judge.lane === judge.lane && before.judge.model === judge.model)) ? before : null;
      const stamp = new Date(ctx.io.now()).toISOString();
      const origin = `${what} (${stamp.slice(0, 10)})`;
      const next: JudgeCuts = {
        schema: "judge-cuts/1",
        written_at: stamp,
        judge,
        cuts: { ...(keep?.cuts ?? {}), ...fresh },
        origins: { ...(keep?.origins ?? {}), ...Object.fromEntries(Object.keys(fresh).map((q) => [q, origin])) },
      };
      const target = `${v4Dir}/${JUDGE_CUTS_FILE}`;
      if (flags.dryRun !== true) writeJudgeCuts(v4Dir, next);
      if (flags.json) return printJson(ctx.io, { file: target, written: flags.dryRun !== true, judge, cuts: next.cuts, origins: next.origins, replaced_other_judge: before !== null && keep === null });
      const who = judge ? `${judge.lane}/${judge.model}` : "any judge (no stored answers yet)";
      for (const [q, c] of Object.entries(fresh)) println(ctx.io, `${q} ${c} (from ${origin})`);
      if (before !== null && keep === null) println(ctx.io, `set aside the cuts ${target} held for another judge`);
      println(ctx.io, `${flags.dryRun ? "would write" : "wrote"} ${target} for ${who}: ${count(Object.keys(next.cuts).length, "question")}; reports read it unless --cuts is given or a configuration is promoted`);
    });
}
