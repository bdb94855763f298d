/**
 * The ladder's cause model as shipped data (`datasets/weights/ladder-causes.json`): the five
 * cause classes, the cue features as patterns (which side they read: the owner's prompt, the
 * reply before it, or the capture classifier's verdict), and a softmax's coefficients. The
 * Stop hook's reflection and the nightly auditor both score corrections from this one file,
 * so the quick sort and the audit agree; runtime/ladder/causes.ts fits it from the synthetic
 * phrasings (cause-data.ts) and a test proves the shipped file equal to a refit.
 *
 * In the hook path (zod-free, no fitting): the file is read only when there is a capture to
 * sort, and the capture classifier is passed in by the caller (the main hook bundle already
 * holds it, so this part does not carry a second copy).
 *
 * Example: compileCauseModel(parseCauseWeights(text, file)).classify("their server is down again",
 * "The API returned 503.", "none") -> "environment".
 */
import { existsSync, readFileSync } from "node:fs";
import { predictSoftmax } from "../../learn/softmax.js";

export const CAUSE_WEIGHTS_SCHEMA = "errata-ladder-causes/1";

export type CueSide = "prompt" | "reply";
export type CauseFeature = { name: string; on: CueSide; pattern: string; flags: string } | { name: string; on: "verdict"; kind: string };

export interface CauseWeights {
  schema: typeof CAUSE_WEIGHTS_SCHEMA;
  /** The classes in the softmax's order (the cause nouls' order). */
  classes: string[];
  features: CauseFeature[];
  /** classes x features, rounded as shipped. */
  W: number[][];
  b: number[];
  record: { data: string; seed: number; items: number; l2: number };
}

export interface CompiledCauseModel {
  classes: readonly string[];
  /** The feature row for a prompt, the reply it answers and the classifier's verdict kind on them. */
  features(prompt: string, reply: string | null, verdictKind: string): number[];
  probabilities(prompt: string, reply: string | null, verdictKind: string): number[];
  classify(prompt: string, reply: string | null, verdictKind: string): string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const numbers = (v: unknown, n: number): v is number[] => Array.isArray(v) && v.length === n && v.every((x) => typeof x === "number" && Number.isFinite(x));

/** Checks the file by hand (the hook cannot afford zod's start-up); throws an Error naming what it expected and found. */
export function parseCauseWeights(text: string, file: string): CauseWeights {
  const bad = (expected: string, found: string): never => {
    throw new Error(`${file} is not a cause model (expected ${expected}; found ${found})`);
  };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return bad("JSON", err instanceof Error ? err.message : String(err));
  }
  if (!isObj(v) || v["schema"] !== CAUSE_WEIGHTS_SCHEMA) return bad(`an object with schema ${CAUSE_WEIGHTS_SCHEMA}`, isObj(v) ? String(v["schema"]) : typeof v);
  const classes = v["classes"];
  const features = v["features"];
  if (!Array.isArray(classes) || classes.length < 2 || !classes.every((c) => typeof c === "string")) return bad("classes: two or more names", JSON.stringify(classes));
  if (!Array.isArray(features) || features.length === 0) return bad("features: a non-empty list", JSON.stringify(features));
  for (const f of features as unknown[]) {
    const ok = isObj(f) && typeof f["name"] === "string" && ((f["on"] === "verdict" && typeof f["kind"] === "string") || ((f["on"] === "prompt" || f["on"] === "reply") && typeof f["pattern"] === "string" && typeof f["flags"] === "string"));
    if (!ok) return bad('each feature {name, on: "prompt"|"reply", pattern, flags} or {name, on: "verdict", kind}', JSON.stringify(f).slice(0, 80));
  }
  const W = v["W"];
  if (!Array.isArray(W) || W.length !== classes.length || !W.every((row) => numbers(row, features.length))) return bad(`W: ${classes.length} rows of ${features.length} finite numbers`, "another shape");
  if (!numbers(v["b"], classes.length)) return bad(`b: ${classes.length} finite numbers`, JSON.stringify(v["b"]).slice(0, 80));
  const r = v["record"];
  if (!isObj(r) || typeof r["data"] !== "string" || typeof r["seed"] !== "number" || typeof r["items"] !== "number" || typeof r["l2"] !== "number") return bad("record: {data, seed, items, l2}", JSON.stringify(r).slice(0, 80));
  return v as unknown as CauseWeights;
}

/** The feature row function of a feature list: 1 where a cue matches its side (or the verdict is its kind), else 0. */
export function cueFeatures(spec: readonly CauseFeature[]): (prompt: string, reply: string | null, verdictKind: string) => number[] {
  const cues = spec.map((f) => (f.on === "verdict" ? { on: f.on, kind: f.kind } : { on: f.on, re: new RegExp(f.pattern, f.flags) }));
  return (prompt, reply, verdictKind) => cues.map((c) => ("kind" in c ? (verdictKind === c.kind ? 1 : 0) : c.re.test(c.on === "reply" ? (reply ?? "") : prompt) ? 1 : 0));
}

export function compileCauseModel(w: CauseWeights): CompiledCauseModel {
  const model = { W: w.W, b: w.b, dim: w.features.length };
  const features = cueFeatures(w.features);
  const probabilities = (prompt: string, reply: string | null, verdictKind: string) => predictSoftmax(model, features(prompt, reply, verdictKind));
  return {
    classes: w.classes,
    features,
    probabilities,
    classify: (prompt, reply, verdictKind) => {
      const p = probabilities(prompt, reply, verdictKind);
      return w.classes[p.indexOf(Math.max(...p))]!;
    },
  };
}

/**
 * The shipped file, found from this module upward (runtime/hooks in the sources,
 * dist/runtime/hooks in a build: the package ships datasets/ beside dist/), or null when the
 * build has none. URLs, not paths: node:url is not loaded for it.
 */
export function causeWeightsUrl(): URL | null {
  for (const up of ["../../", "../../../"]) {
    const u = new URL(`${up}datasets/weights/ladder-causes.json`, import.meta.url);
    if (existsSync(u)) return u;
  }
  return null;
}

export function loadCauseWeights(): CauseWeights | null {
  const u = causeWeightsUrl();
  return u === null ? null : parseCauseWeights(readFileSync(u, "utf8"), decodeURIComponent(u.pathname));
}
