import { z } from "zod";

/**
 * One adjudicator's decision on an item the labellers split on, appended to
 * `<ledger>/eval/adjudications.jsonl` and kept apart from the raw labels (`labels.jsonl` is
 * never touched). The file is append-only: the last row for an (exchange, question) is the one
 * in force; `withdrawn` takes a decision back (the page's undo). `labels` is the raw labels the
 * adjudicator saw; when the labels change afterwards the decision is stale and not applied.
 *
 * Example line: `{"schema": "adjudication/1", "exchange_id": "ex-…", "question": "detect.unhappy",
 * "adjudicator": "lee", "decision": "label", "value": true, "labels": [{"labeler": "ana",
 * "value": true}, {"labeler": "ben", "value": false}, {"labeler": "cy", "value": false}],
 * "at": "2026-12-06T23:10:00.000Z"}`
 */
const Value = z.union([z.boolean(), z.number().finite(), z.string()]);

export const AdjudicationSchema = z
  .object({
    schema: z.literal("adjudication/1"),
    exchange_id: z.string().min(1),
    question: z.string().min(1),
    adjudicator: z.string().min(1),
    decision: z.enum(["label", "ambiguous", "withdrawn"]),
    /** The label chosen (one of `labels`' values) when `decision` is "label"; else null. */
    value: Value.nullable(),
    labels: z.array(z.object({ labeler: z.string().min(1), value: Value })).min(2),
    note: z.string().max(2000).optional(),
    at: z.string().min(1),
  })
  .refine((r) => (r.decision === "label") === (r.value !== null), { message: "value is given exactly when decision is \"label\"" });
export type Adjudication = z.infer<typeof AdjudicationSchema>;
