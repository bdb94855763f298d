import { figure, fmt, h2, para, table, type Block } from "../runtime/pages/index.js";
import { badInput } from "../core/errors.js";
import { barChart } from "./charts.js";
import { jsonValue } from "./inputs.js";
import type { Notebook } from "./notebook.js";

/**
 * Judge bias: does a detector's error against the gold majority depend on a covariate (prompt
 * and reply length, the prompt's script, the turn in the session, the corpus)? One test per
 * covariate from `errata eval bias --json` (Mann-Whitney U or chi-square, eval/judge-bias.ts),
 * its effect size, and its p-value raw and adjusted by Holm and Benjamini-Hochberg.
 */
interface Test {
  covariate: string;
  kind: "numeric" | "categorical";
  effect: number;
  effect_name: string;
  p: number;
  p_holm: number;
  p_b_h: number;
  median_errors?: number | null;
  median_right?: number | null;
  levels?: { level: string; items: number; errors: number }[];
}
interface BiasReply {
  detector: string;
  split: string;
  items: number;
  errors: number;
  tests: Test[];
  skipped: { covariate: string; why: string }[];
  caveat: string;
}

export const bias: Notebook = {
  name: "bias",
  title: "Judge bias: errors against the gold by covariate",
  inputs: [
    {
      notebook: "bias",
      key: "bias",
      what: "bias report (JSON)",
      bundled: "notebooks/data/bias-ab-redial.json",
      make: "errata eval bias --predictions <predictions.jsonl> --detector NAME --exchanges <exchanges.jsonl> --json > bias.json",
    },
  ],
  async blocks(read) {
    const input = read("bias");
    const r = jsonValue(input) as Partial<BiasReply>;
    if (!Array.isArray(r.tests) || typeof r.items !== "number" || !Array.isArray(r.skipped)) {
      throw badInput(`${input.shown} is not a bias report`, "the JSON errata eval bias --json prints (items, errors, tests, skipped)", `keys ${Object.keys(r).slice(0, 6).join(", ")}`);
    }
    const b = r as BiasReply;
    const detail = (t: Test): string =>
      t.kind === "numeric" ? `median ${fmt(t.median_errors ?? null, 1)} in errors, ${fmt(t.median_right ?? null, 1)} in right` : (t.levels ?? []).map((l) => `${l.level} ${l.errors}/${l.items}`).join(", ");
    const blocks: Block[] = [
      para(`${b.detector} against the gold majority (${b.split} split): ${b.errors} errors in ${b.items} items; ${b.tests.length} covariates tested, p-values adjusted across them by Holm (family-wise error) and Benjamini-Hochberg (false discovery rate).`),
      figure(
        "effects",
        "Effect size per covariate: rank-biserial correlation for a number (above 0: larger values among the errors), Cramér's V for a category.",
        barChart(b.tests.map((t) => ({ label: t.covariate, group: t.effect_name, value: t.effect })), "effect size"),
      ),
      h2("Tests"),
      table(
        ["covariate", "effect", "size", "p", "Holm", "BH", "where"],
        b.tests.map((t) => [t.covariate, t.effect_name, fmt(t.effect), fmt(t.p, 4), fmt(t.p_holm, 4), fmt(t.p_b_h, 4), detail(t)]),
        [2, 3, 4, 5],
      ),
    ];
    if (b.skipped.length > 0) blocks.push(h2("Not tested"), table(["covariate", "why"], b.skipped.map((s) => [s.covariate, s.why])));
    blocks.push(para(`${b.caveat}. A covariate with a small adjusted p-value says where the detector's errors gather, not why: read its items before changing the detector.`));
    return blocks;
  },
};
