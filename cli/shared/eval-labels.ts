import { GoldItemSchema } from "../../schemas/gold.js";
import { LabelSchema } from "../../schemas/label.js";
import type { AgreementLabel } from "../../eval/index.js";
import type { CommandContext } from "./command.js";
import { badInput } from "../../core/errors.js";
import { evalPaths, readJsonlStrict, resolveFrom } from "./eval-files.js";

/**
 * The label and gold files the `eval` commands read: `--labels` files (default the eval
 * folder's labels.jsonl; none at all is bad input) and the gold set (default the eval
 * folder's gold.jsonl).
 *
 * Example: `loadLabels(ctx, undefined)` -> `{files: ["<ledger>/eval/labels.jsonl"], labels: [...]}`.
 */
export function loadLabels(ctx: CommandContext, files: string[] | undefined): { files: string[]; labels: AgreementLabel[] } {
  const list = (files && files.length > 0 ? files : [evalPaths(ctx.io).labels]).map((f) => resolveFrom(ctx.io, f));
  const labels = list.flatMap((f) => readJsonlStrict(f, LabelSchema, "label/1"));
  if (labels.length === 0) throw badInput("no labels", "label/1 rows (errata eval label import, or an importer's labels.jsonl)", `0 in ${list.join(", ")}`);
  return { files: list, labels };
}

export function readGoldItems(ctx: CommandContext, file: string | undefined) {
  const path = file ? resolveFrom(ctx.io, file) : evalPaths(ctx.io).gold;
  return { path, rows: readJsonlStrict(path, GoldItemSchema, "gold-item/1") };
}
