/**
 * The JSON Schemas exported for integrators (`schemas/json/*.schema.json`), generated from
 * the zod schemas with zod v4's `z.toJSONSchema` (draft 2020-12). The committed files must
 * equal what this returns (test/schemas/json-schema.test.ts); regenerate them with
 * `npm run build && node scripts/export-json-schemas.js`.
 *
 * Rules that span fields (a machine source carries no rating, the known systems, legal status
 * transitions) are not expressible here; `errata validate` enforces them.
 *
 * Example: `jsonSchemas()["erratum.schema.json"].properties.rating`
 * -> `{ anyOf: [{ type: "number", minimum: 1, maximum: 10 }, { type: "null" }] }`
 */
import { z } from "zod";
import { AnswerSchema } from "./answer.js";
import { EnrichmentSchema, ErratumSchema, PatchSchema, RecordRowSchema, SystemsConfigSchema } from "./erratum.js";
import { IntakeBatchSchema, IntakeErratumSchema } from "./intake.js";

const EXPORTS: Array<[file: string, title: string, description: string, schema: z.ZodType]> = [
  ["erratum.schema.json", "erratum/1", "One erratum: one JSON line in errata-YYYY-MM.jsonl.", ErratumSchema],
  ["erratum-patch.schema.json", "erratum-patch/1", "A patch line, folded onto the erratum with the same id at read time.", PatchSchema],
  ["enrichment.schema.json", "enrichment/1", "What a model filled in on an erratum; model is required.", EnrichmentSchema],
  ["record-row.schema.json", "record/1", "One row of the record stream (record.jsonl): ids and enums, never text.", RecordRowSchema],
  ["errata-systems.schema.json", "errata-systems/1", "errata-systems.json in the ledger folder: extra system names.", SystemsConfigSchema],
  ["intake-erratum.schema.json", "intake/1", "What an app posts to POST /v1/errata (docs/intake.md): one erratum; the server fills id, instance and status and pseudonymises the reporter.", IntakeErratumSchema],
  ["intake-batch.schema.json", "intake/1 batch", "A batch posted to POST /v1/errata: 1 to 100 intake errata.", IntakeBatchSchema],
  ["answer.schema.json", "answer/1", "One judge answer: one JSON line in v4/answers.jsonl. Scored carries p_yes in [0, 1]; unscored carries a reason and no probability.", AnswerSchema],
];

export function jsonSchemas(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [file, title, description, schema] of EXPORTS) {
    const generated = z.toJSONSchema(schema, { target: "draft-2020-12" }) as Record<string, unknown>;
    const { $schema, ...rest } = generated;
    out[file] = { $schema, $id: `urn:errata:schema:${title}`, title, description, ...rest };
  }
  return out;
}

/** The exact text each committed file must hold. */
export function jsonSchemaFiles(): Record<string, string> {
  return Object.fromEntries(Object.entries(jsonSchemas()).map(([f, s]) => [f, `${JSON.stringify(s, null, 2)}\n`]));
}
