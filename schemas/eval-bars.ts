import { z } from "zod";

/**
 * The promotion bars that `errata eval score --check` and `errata promote` enforce
 * (`eval-bars.json` or `--bars FILE`). A bar is "beats" (a detector's figure minus a
 * baseline's must be above 0), "at_least" (a figure must reach a value) or "at_most" (a figure
 * must not pass a value), and says what it is judged on (`on`): the point figure, or the lower
 * or upper bound of its paired session-block interval. Each kind defaults to the bound that
 * protects the owner: "beats" and "at_least" on the lower bound (noise cannot pass them),
 * "at_most" on the upper bound. `rule` is the older name of `on` (point | lower), still read.
 *
 * `coverage` is the bar every detector a bar names must also clear: its scored share of the
 * gold items (and, when a class bar names it, its classed share of detections) must reach
 * `min` (default 0.95, judged on `on`, default the lower bound), so a detector cannot pass by
 * leaving out the items it would get wrong.
 *
 * Example: `{"schema": "eval-bars/1", "coverage": {"min": 0.95},
 * "bars": [{"id": "ISC-53", "kind": "at_least", "metric": "classAccuracy", "detector": "v4",
 * "value": 0.8, "on": "lower"}]}`
 */
export const BarMetricSchema = z.enum([
  "precision",
  "recall",
  "f1",
  "classAccuracy",
  "kappa",
  "kappaWeighted",
  "coverage",
  "classCoverage",
  "strictPrecision",
  "strictRecall",
  "strictF1",
  "strictClassAccuracy",
]);
export const BarOnSchema = z.enum(["point", "lower", "upper"]);
export type BarOn = z.infer<typeof BarOnSchema>;

const common = {
  id: z.string().min(1),
  metric: BarMetricSchema,
  detector: z.string().min(1),
  on: BarOnSchema.optional(),
  /** Older name of `on`. */
  rule: z.enum(["point", "lower"]).optional(),
  description: z.string().optional(),
};

/** Each kind's protective default when neither `on` nor `rule` is given. */
export const DEFAULT_ON = { beats: "lower", at_least: "lower", at_most: "upper" } as const;

const BarInputSchema = z
  .discriminatedUnion("kind", [
    z.object({ ...common, kind: z.literal("beats"), baseline: z.string().min(1) }),
    z.object({ ...common, kind: z.literal("at_least"), value: z.number().min(-1).max(1) }),
    z.object({ ...common, kind: z.literal("at_most"), value: z.number().min(-1).max(1) }),
  ])
  .refine((b) => b.on === undefined || b.rule === undefined || b.on === b.rule, { message: "give `on` or its older name `rule`, not two different values" });
export type BarInput = z.input<typeof BarInputSchema>;

interface BarCommon {
  id: string;
  metric: z.infer<typeof BarMetricSchema>;
  detector: string;
  on: BarOn;
  description?: string | undefined;
}
/** A bar as the gate reads it: `on` resolved (given, or `rule`, or the kind's default). */
export type Bar = (BarCommon & { kind: "beats"; baseline: string }) | (BarCommon & { kind: "at_least" | "at_most"; value: number });

export const BarSchema = BarInputSchema.transform((b): Bar => {
  const base: BarCommon = { id: b.id, metric: b.metric, detector: b.detector, on: b.on ?? b.rule ?? DEFAULT_ON[b.kind], ...(b.description !== undefined ? { description: b.description } : {}) };
  return b.kind === "beats" ? { ...base, kind: "beats", baseline: b.baseline } : { ...base, kind: b.kind, value: b.value };
});

export const DEFAULT_COVERAGE_BAR = 0.95;

export const CoverageBarSchema = z.object({
  min: z.number().min(0).max(1).default(DEFAULT_COVERAGE_BAR),
  on: BarOnSchema.default("lower"),
});

/**
 * The judge-consistency bar (optional): the detect question's flip rate, from a
 * `judge-consistency/1` report (`eval consistency --out`), must be at most `max_flip_rate`,
 * judged on the interval's upper bound by default. `report` names the report, relative to the
 * bars file (default: `consistency.json` in the eval folder); `eval score --consistency FILE`
 * names another. A bar whose report is missing fails.
 */
export const ConsistencyBarSchema = z.object({
  max_flip_rate: z.number().min(0).max(1),
  on: z.enum(["point", "upper"]).default("upper"),
  report: z.string().min(1).optional(),
});
export type ConsistencyBar = z.output<typeof ConsistencyBarSchema>;

export const EvalBarsSchema = z.object({
  schema: z.literal("eval-bars/1"),
  coverage: CoverageBarSchema.default({ min: DEFAULT_COVERAGE_BAR, on: "lower" }),
  consistency: ConsistencyBarSchema.optional(),
  bars: z.array(BarSchema).min(1),
});
export type EvalBars = z.output<typeof EvalBarsSchema>;
