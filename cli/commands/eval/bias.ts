import type { Command } from "commander";
import { judgeBias, majorityVote, type BiasRow, type BiasTest } from "../../../eval/index.js";
import { ExchangeSchema } from "../../../schemas/exchange.js";
import { DETECT_UNHAPPY } from "../../../schemas/label.js";
import { PredictionSchema } from "../../../schemas/prediction.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput, describeFound } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { pure, readJsonlStrict, resolveFrom } from "../../shared/eval-files.js";
import { loadLabels, readGoldItems } from "../../shared/eval-labels.js";
import { examples } from "../../shared/help.js";

/**
 * `errata eval bias`: does a detector's error against the gold majority depend on the prompt's
 * length, the reply's length, the prompt's script (a language proxy), the position in the
 * session or the corpus? One test per covariate (`eval/judge-bias.ts`), Holm and
 * Benjamini-Hochberg adjusted p-values and an effect size each.
 *
 * Example: `errata eval bias --predictions regex.jsonl --detector regex --exchanges ex.jsonl
 * --labels labels.jsonl` → "reply_length  Mann-Whitney U ... rank-biserial +0.21  p 0.0123
 * Holm 0.0492  BH 0.0308".
 */
interface Flags {
  predictions: string[];
  detector: string;
  exchanges: string[];
  gold?: string;
  labels?: string[];
  split: string;
  detectQuestion: string;
  json?: boolean;
}

export const BIAS_COVARIATES = ["prompt_length", "reply_length", "script", "session_position", "corpus"] as const;

/** The dominant Unicode script of a text's letters (a language proxy; no language model here). */
export function scriptOf(text: string): string | null {
  const counts = new Map<string, number>();
  const scripts: [string, RegExp][] = [["latin", /\p{Script=Latin}/u], ["han", /\p{Script=Han}/u], ["kana", /[\p{Script=Hiragana}\p{Script=Katakana}]/u], ["hangul", /\p{Script=Hangul}/u], ["cyrillic", /\p{Script=Cyrillic}/u], ["arabic", /\p{Script=Arabic}/u], ["greek", /\p{Script=Greek}/u], ["devanagari", /\p{Script=Devanagari}/u]];
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    const s = scripts.find(([, re]) => re.test(ch))?.[0] ?? "other";
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  // Any kana makes it Japanese text, whatever the share of Han.
  if (counts.has("kana")) return "kana";
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("bias")
    .description("Test whether a detector's errors against the gold depend on prompt length, reply length, script, session position or corpus (Holm and BH adjusted)")
    .requiredOption("--predictions <files...>", "prediction/1 JSONL files")
    .requiredOption("--exchanges <files...>", "exchange/1 JSONL with the gold items' text, turn and corpus")
    .option("--detector <name>", "the detector whose errors are tested", "v4")
    .option("--gold <file>", "gold-item/1 JSONL (default: <ledger>/eval/gold.jsonl)")
    .option("--labels <files...>", "label/1 JSONL files (default: <ledger>/eval/labels.jsonl)")
    .option("--split <side>", "holdout, fit or all", "all")
    .option("--detect-question <id>", "the yes/no question whose 2-of-3 majority is the gold verdict", DETECT_UNHAPPY)
    .option("--json", "print one JSON value: items, errors, tests, skipped")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 600 --failure-items 0 &&",
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --detectors regex --out regex.jsonl &&",
          "errata eval bias --predictions regex.jsonl --detector regex --exchanges datasets/ab-redial/exchanges.jsonl --labels datasets/ab-redial/labels.jsonl",
        ],
      ]),
    )
    .action((flags: Flags) => runBias(ctx, flags));
}

const f4 = (x: number): string => (x < 1e-4 ? x.toExponential(1) : x.toFixed(4));

function runBias(ctx: CommandContext, flags: Flags): void {
  if (!["holdout", "fit", "all"].includes(flags.split)) throw badInput("bad --split", "holdout, fit or all", describeFound(flags.split));
  const gold = readGoldItems(ctx, flags.gold).rows.filter((g) => flags.split === "all" || g.split === flags.split);
  const { labels } = loadLabels(ctx, flags.labels);
  const preds = flags.predictions.flatMap((f) => readJsonlStrict(resolveFrom(ctx.io, f), PredictionSchema, "prediction/1")).filter((p) => p.detector === flags.detector);
  if (preds.length === 0) throw badInput(`no predictions of ${flags.detector}`, "prediction/1 rows of --detector", "none");
  const predOf = new Map(preds.map((p) => [p.exchange_id, p]));
  const exchanges = new Map(flags.exchanges.flatMap((f) => readJsonlStrict(resolveFrom(ctx.io, f), ExchangeSchema, "exchange/1")).map((e) => [e.id, e]));
  const votes = new Map<string, (boolean | number | string)[]>();
  for (const l of labels) if (l.question === flags.detectQuestion) votes.set(l.exchange_id, [...(votes.get(l.exchange_id) ?? []), l.value]);
  const rows: BiasRow[] = [];
  let missingText = 0;
  for (const g of gold) {
    const m = majorityVote(votes.get(g.exchange_id) ?? [], 2);
    const p = predOf.get(g.exchange_id);
    if (m.status !== "majority" || typeof m.value !== "boolean" || !p || p.detected === null) continue;
    const e = exchanges.get(g.exchange_id);
    if (!e) {
      missingText++;
      continue;
    }
    rows.push({
      error: p.detected !== m.value,
      covariates: { prompt_length: e.prompt.length, reply_length: e.reply_end === null ? null : e.reply_end.length, script: scriptOf(e.prompt), session_position: e.turn, corpus: e.corpus },
    });
  }
  if (rows.length === 0) throw badInput("no gold items to test", "gold items with a majority verdict, a scored prediction and their exchange", `0 of ${gold.length}${missingText ? ` (${missingText} without their exchange in --exchanges)` : ""}`);
  const result = pure(() => judgeBias(rows, BIAS_COVARIATES));
  const errors = rows.filter((r) => r.error).length;
  if (flags.json) {
    printJson(ctx.io, { detector: flags.detector, split: flags.split, items: rows.length, errors, missing_text: missingText, tests: result.tests, skipped: result.skipped, caveat: "items treated as independent: p-values are optimistic when errors cluster in sessions" });
    return;
  }
  println(ctx.io, `${flags.detector} against the ${flags.detectQuestion} majority (${flags.split} split): ${errors} errors in ${rows.length} items; ${result.tests.length} tests, p-values adjusted by Holm (family-wise) and Benjamini-Hochberg (false discovery rate)`);
  for (const t of result.tests) println(ctx.io, line(t));
  for (const s of result.skipped) println(ctx.io, `  ${s.covariate}: not tested (${s.why})`);
  println(ctx.io, "items are treated as independent, so the p-values are optimistic when errors cluster in sessions");
}

function line(t: BiasTest): string {
  const ps = `p ${f4(t.p)}  Holm ${f4(t.pHolm)}  BH ${f4(t.pBH)}`;
  if (t.kind === "numeric") return `  ${t.covariate.padEnd(16)} Mann-Whitney U ${t.u.toFixed(1)}, rank-biserial ${t.effect >= 0 ? "+" : ""}${t.effect.toFixed(3)} (median ${t.medianErrors} in errors, ${t.medianRight} in right)  ${ps}`;
  return `  ${t.covariate.padEnd(16)} chi-square ${t.chi2.toFixed(2)} (dof ${t.dof}), Cramér's V ${t.effect.toFixed(3)}; error rate ${t.levels.map((l) => `${l.level} ${l.errors}/${l.items}`).join(", ")}  ${ps}`;
}
