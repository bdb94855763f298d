import { canonicalJson, sha256Hex } from "../base/hash.js";
import { WeightsFileSchema, type QuestionWeights, type WeightsFile } from "../base/schemas.js";
import { EngineInputError } from "./files.js";

/**
 * The embedded lane's weights: parse, serialise byte-for-byte deterministically, and compile
 * into a scorer laid out for speed (one slot table over the hashed space, one row of weights
 * per used feature across all questions).
 *
 * Example: `serialiseWeights(w) === serialiseWeights(parseWeights(serialiseWeights(w)))` -> true.
 */

/** Numbers written with 7 significant digits (a margin moves by ~1e-7 relative), so re-serialising a parsed file is stable. */
export function roundWeight(x: number): number {
  const r = Number(x.toPrecision(7));
  return Object.is(r, -0) ? 0 : r;
}

/**
 * One line per top-level key and one line per question, keys sorted, numbers rounded:
 * the same weights always give the same bytes.
 */
export function serialiseWeights(w: WeightsFile): string {
  const top = Object.keys(w).sort() as (keyof WeightsFile)[];
  const lines: string[] = [];
  for (const key of top) {
    if (key === "questions") {
      const qs = Object.keys(w.questions).sort();
      const inner = qs.map((q) => {
        const v = w.questions[q]!;
        const rounded: QuestionWeights = { ...v, intercept: roundWeight(v.intercept), w: v.w.map(roundWeight), positives: roundWeight(v.positives), cut: roundWeight(v.cut) };
        return `  ${JSON.stringify(q)}: ${canonicalJson(rounded)}`;
      });
      lines.push(`${JSON.stringify(key)}: {${inner.length ? `\n${inner.join(",\n")}\n` : ""}}`);
    } else {
      lines.push(`${JSON.stringify(key)}: ${canonicalJson(w[key])}`);
    }
  }
  return `{\n${lines.join(",\n")}\n}\n`;
}

/** A weights file's text, checked: one that is not JSON or not the schema is bad input (exit 2), never an internal error. */
export function parseWeights(text: string, name = "the weights file"): WeightsFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new EngineInputError(`${name} is not JSON`, "a weights file written by `errata engine train`", (err as Error).message.slice(0, 160));
  }
  const r = WeightsFileSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new EngineInputError(`${name} is not an embedded weights file`, "a weights file written by `errata engine train`", `${issue?.path.join(".") || "(top level)"}: ${issue?.message ?? "?"}`);
  }
  return r.data;
}

/** A short id of a weights file's content, used as the embedded lane's model name. */
const ids = new WeakMap<WeightsFile, string>();

export function weightsId(w: WeightsFile): string {
  let id = ids.get(w);
  if (id === undefined) ids.set(w, (id = `hashed-logreg/${sha256Hex(serialiseWeights(w), 12)}`));
  return id;
}

/** Weights laid out for scoring many questions per exchange in one pass. */
export interface CompiledWeights {
  /** "<id>@<version>" -> column. */
  columns: ReadonlyMap<string, number>;
  intercepts: Float64Array;
  /** Hashed feature -> slot, or -1. */
  slotOf: Int32Array;
  /** Row-major [slot][column]. */
  table: Float64Array;
  nQuestions: number;
}

export function compileWeights(w: WeightsFile): CompiledWeights {
  const keys = Object.keys(w.questions).sort();
  const columns = new Map(keys.map((k, i) => [k, i]));
  const size = 1 << w.features.bits;
  const slotOf = new Int32Array(size).fill(-1);
  let slots = 0;
  for (const k of keys) {
    for (const j of (w.questions[k]!).idx) {
      if (j >= size) throw new EngineInputError(`weights for ${k} index ${j} outside the 2^${w.features.bits} space`, `indices below ${size}`, String(j));
      if (slotOf[j] === -1) slotOf[j] = slots++;
    }
  }
  const nQ = keys.length;
  const table = new Float64Array(slots * nQ);
  const intercepts = new Float64Array(nQ);
  keys.forEach((k, c) => {
    const q = w.questions[k]!;
    intercepts[c] = q.intercept;
    q.idx.forEach((j, t) => (table[(slotOf[j]!) * nQ + c] = q.w[t]!));
  });
  return { columns, intercepts, slotOf, table, nQuestions: nQ };
}

/** Margins of every question for one feature vector, into `out` (length nQuestions). */
export function scoreAll(cw: CompiledWeights, idx: Int32Array, val: Float64Array, out: Float64Array): void {
  const nQ = cw.nQuestions;
  out.set(cw.intercepts);
  const { slotOf, table } = cw;
  for (let k = 0; k < idx.length; k++) {
    const slot = slotOf[idx[k]!]!;
    if (slot < 0) continue;
    const v = val[k]!;
    const base = slot * nQ;
    for (let c = 0; c < nQ; c++) out[c] = (out[c]!) + v * (table[base + c]!);
  }
}
