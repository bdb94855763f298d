import { z } from "zod";

/**
 * One detector's verdict on one exchange, for `errata eval score`: whether it detected a
 * failure and which v3 class it named. `null` means unscored (the detector could not answer:
 * a missing judge answer, an unparsable reply): it is never counted as "no".
 *
 * Example: `{"schema": "prediction/1", "exchange_id": "ex-0123456789abcdef", "detector": "v4",
 * "detected": true, "class": "ignored_instruction", "p_failure": 0.91}`
 */
export const PredictionSchema = z.object({
  schema: z.literal("prediction/1"),
  exchange_id: z.string().min(1),
  /** Detector name, e.g. "regex", "v3", "v4", "combiner". */
  detector: z.string().regex(/^[A-Za-z0-9_.:]+$/),
  detected: z.boolean().nullable(),
  /** The class named for a detected failure (a v3 class id); null when none or unscored. */
  class: z.string().min(1).nullable(),
  /** Optional probability of failure, used by PPI where given (else `detected` as 0/1). */
  p_failure: z.number().min(0).max(1).nullable().optional(),
  /** Why the prediction is unscored, when it is. */
  reason: z.string().nullable().optional(),
});
export type Prediction = z.infer<typeof PredictionSchema>;
