/**
 * The randomised holdout's assignment: a check the owner opted in (`holdout: {one_in, seed}`)
 * is held out, in a seeded 1-in-N of sessions, from acting: in such a session it runs in
 * shadow (the hook records what it would have done and does nothing), so its sessions can be
 * compared with the ones it acted in (runtime/ladder/holdout.ts, docs/causal.md). The draw is
 * FNV-1a of the seed, the check's id and the session id, so every call of one session gets
 * the same answer, in the hook and in the ladder's report, with no state kept. Zod-free: the
 * hook path imports it. A call with no session id is never held out (no unit to randomise).
 *
 * Example: heldOut({id: "ladder-pnpm", holdout: {one_in: 5, seed: 1}, ...}, "s-1") -> a fixed
 * true or false; over many session ids about one in five is true.
 */
import { fnv1a32Utf16 } from "../../core/fnv1a.js";

export interface Holdout {
  /** One session in `one_in` is held out (2..1000). */
  one_in: number;
  /** The assignment's seed: another seed draws other sessions. */
  seed: number;
}

/** Whether this session is held out from the check's action. */
export function heldOut(check: { id: string; holdout?: Holdout | undefined }, sessionId: string | null): boolean {
  const h = check.holdout;
  if (h === undefined || sessionId === null || sessionId === "") return false;
  return fnv1a32Utf16(`${h.seed}\u0000${check.id}\u0000${sessionId}`) % h.one_in === 0;
}

/** The shape problem of a holdout field, or null when it is one. */
export function holdoutProblem(v: unknown): string | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "holdout, an object {one_in, seed}";
  const o = v as Record<string, unknown>;
  if (typeof o["one_in"] !== "number" || !Number.isInteger(o["one_in"]) || o["one_in"] < 2 || o["one_in"] > 1000) return "holdout.one_in, a whole number in 2..1000";
  if (typeof o["seed"] !== "number" || !Number.isInteger(o["seed"])) return "holdout.seed, a whole number";
  return null;
}

/**
 * A rung-1/2 rule line the owner opted into the holdout (`<ladder>/line-holdouts.json`,
 * written by `errata rules holdout <rule-id> --one-in N`): in a held-out session the Errata
 * mod leaves the line out of what the model is sent (docs/causal.md says where that is
 * possible). `text` is the rule's text as the ledger holds it; `file` the instruction file it
 * lives in, as an absolute path when known.
 */
export interface LineHoldout {
  rule_id: string;
  text: string;
  file: string | null;
  one_in: number;
  seed: number;
}

/** The line holdouts of a `line-holdouts.json` text; throws an Error naming the first bad entry. */
export function parseLineHoldouts(text: string): LineHoldout[] {
  const raw = JSON.parse(text) as unknown;
  const rules = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>)["rules"] : undefined;
  if (!Array.isArray(rules)) throw new Error("expected {version: 1, rules: [...]}");
  return rules.map((r: unknown, i) => {
    const o = (typeof r === "object" && r !== null ? r : {}) as Record<string, unknown>;
    const bad = holdoutProblem(o);
    if (bad !== null) throw new Error(`rules[${i}]: expected ${bad}`);
    if (typeof o["rule_id"] !== "string" || o["rule_id"] === "") throw new Error(`rules[${i}]: expected rule_id, a non-empty string`);
    if (typeof o["text"] !== "string" || o["text"].trim() === "") throw new Error(`rules[${i}]: expected text, a non-empty string`);
    if (o["file"] !== null && typeof o["file"] !== "string") throw new Error(`rules[${i}]: expected file, a string or null`);
    return { rule_id: o["rule_id"], text: o["text"], file: (o["file"] as string | null) ?? null, one_in: o["one_in"] as number, seed: o["seed"] as number };
  });
}

/** The line holdouts the draw holds out of this session. */
export function heldOutLines(holdouts: readonly LineHoldout[], sessionId: string | null): LineHoldout[] {
  return holdouts.filter((h) => heldOut({ id: h.rule_id, holdout: h }, sessionId));
}

/** Spaces folded: a rule's text matches its line whatever the wrapping of blanks. */
const fold = (s: string): string => s.replace(/\s+/g, " ").trim();

/**
 * An instruction file's text with the held-out rules' lines left out: every line whose text
 * (blanks folded) contains a line of a rule's text (its list marker dropped). Returns the text and the ids of the rules that were
 * in it (empty: the text is returned unchanged).
 *
 * Example: withholdLines("# P\n- Use pnpm, never npm.\n- Pin versions.\n", [{rule_id: "r1", text: "Use pnpm, never npm.", ...}])
 * -> {text: "# P\n- Pin versions.\n", withheld: ["r1"]}.
 */
export function withholdLines(text: string, rules: readonly Pick<LineHoldout, "rule_id" | "text">[]): { text: string; withheld: string[] } {
  const withheld = new Set<string>();
  // A rule of several lines (a paragraph unit) leaves each of its lines out.
  const parts = rules.map((r) => ({ id: r.rule_id, lines: r.text.split("\n").map((x) => fold(x).replace(/^(?:[-*+]|\d+[.)])\s+/, "")).filter((x) => x.length >= 3) }));
  const keep = text.split("\n").filter((line) => {
    const l = fold(line);
    const hit = parts.filter((r) => r.lines.some((x) => l.includes(x)));
    for (const r of hit) withheld.add(r.id);
    return hit.length === 0;
  });
  return withheld.size === 0 ? { text, withheld: [] } : { text: keep.join("\n"), withheld: [...withheld].sort() };
}

/** The file a `nested_memory` attachment carries ("Contents of <path>:" on its first line), or null. */
export function attachmentFile(text: string): string | null {
  const m = /^Contents of (.+?)(?: \([^)]*\))?:\s*$/m.exec(text.split("\n", 1)[0] ?? "");
  return m?.[1] ?? null;
}
