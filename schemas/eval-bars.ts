import { z } from "zod";

/**
 * The promotion bars that `errata eval score --check` enforces (`eval-bars.json` or
 * `--bars FILE`). A bar is either "beats" (a detector's figure minus a baseline's, judged on
 * the lower bound of its paired interval, or on the point figure) or "at_least" (a figure
 * against a value, judged on the point figure or its lower bound).
 *
 * Example: `{"schema": "eval-bars/1", "bars": [{"id": "ISC-53", "kind": "at_least",
 * "metric": "classAccuracy", "detector": "v4", "value": 0.8, "rule": "point"}]}`
 */
export const BarMetricSchema = z.enum(["precision", "recall", "f1", "classAccuracy", "kappa"]);
export const BarRuleSchema = z.enum(["point", "lower"]);

export const BarSchema = z.discriminatedUnion("kind", [
  z.object({
    id: z.string().min(1),
    kind: z.literal("beats"),
    metric: BarMetricSchema,
    detector: z.string().min(1),
    baseline: z.string().min(1),
    /** "lower": the lower bound of the difference's interval must be above 0 (default). */
    rule: BarRuleSchema.default("lower"),
    description: z.string().optional(),
  }),
  z.object({
    id: z.string().min(1),
    kind: z.literal("at_least"),
    metric: BarMetricSchema,
    detector: z.string().min(1),
    value: z.number().min(-1).max(1),
    /** "point": the figure itself must reach the value (default). */
    rule: BarRuleSchema.default("point"),
    description: z.string().optional(),
  }),
]);
export type Bar = z.infer<typeof BarSchema>;

export const EvalBarsSchema = z.object({
  schema: z.literal("eval-bars/1"),
  bars: z.array(BarSchema).min(1),
});
export type EvalBars = z.infer<typeof EvalBarsSchema>;
