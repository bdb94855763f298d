/**
 * The registry of cuts: per question, the P(yes) at or above which an answer counts as yes.
 * Default 0.5; calibration overrides per question. Pure: parsing validates a value already
 * read from disk by the caller.
 *
 * Example: `cutFor("detect.unhappy", {"detect.unhappy": 0.35})` → 0.35;
 * `cutFor("blame.world", {})` → 0.5.
 */
export type Cuts = Readonly<Record<string, number>>;

export const DEFAULT_CUT = 0.5;

export function cutFor(questionId: string, cuts: Cuts): number {
  const c = cuts[questionId];
  return c === undefined ? DEFAULT_CUT : c;
}

/** Yes when p reaches the cut. `p` is a probability in [0, 1]. */
export function isYes(p: number, cut: number): boolean {
  return p >= cut;
}

export type ParsedCuts = { ok: true; cuts: Cuts } | { ok: false; expected: string; found: string };

/**
 * Validates a cuts value: either `{"detect.unhappy": 0.4, ...}` or `{"cuts": {...}}` (with any
 * other fields, e.g. a schema tag, ignored). Every key must be a known question id and every
 * value a number in [0, 1].
 *
 * Example: `parseCuts({cuts: {"detect.unhappy": 0.4}}, ["detect.unhappy"])` →
 * `{ok: true, cuts: {"detect.unhappy": 0.4}}`.
 */
export function parseCuts(value: unknown, knownIds: readonly string[]): ParsedCuts {
  const obj = isRecord(value) && isRecord(value["cuts"]) ? value["cuts"] : value;
  if (!isRecord(obj)) return { ok: false, expected: "a JSON object of question id -> cut", found: typeof value };
  const known = new Set(knownIds);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (!known.has(k)) return { ok: false, expected: "a question id of the bank", found: JSON.stringify(k) };
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1)
      return { ok: false, expected: `a number in [0, 1] for ${k}`, found: JSON.stringify(v) };
    out[k] = v;
  }
  return { ok: true, cuts: out };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
