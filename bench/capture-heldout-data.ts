/**
 * The capture's held-out set: coding corrections, standing directives and ordinary coding
 * prompts in nine languages (`test/classifier/heldout/<lang>.jsonl`), written before the rules
 * they measure, each marked `split: "dev"` (seen while the rules were written) or `"test"`
 * (only ever reported); and the typed prompts of real Claude Code sessions in
 * `../shared/datasets/claude-transcripts` (mostly ordinary prompts: false positives), labelled
 * by hand in `transcripts.labels.json` (the prompts that are corrections or directives, by the
 * first 16 hex of the SHA-256 of their text; every other typed prompt is a negative).
 *
 * Scored as "the capture writes a correction or directive row": a hit is a verdict of kind
 * correction or directive on an item labelled either.
 *
 * Example: `scoreHeldout(items, verdicts).get("en/test")` ->
 * `{ items: 31, positives: 20, flagged: 19, tp: 19, precision: 1, recall: .95, ... }`.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { CaptureVerdict } from "../runtime/classifier/classify.js";
import { typedPrompts } from "../runtime/transcripts/index.js";

export type HeldoutKind = "correction" | "directive" | "none";

export interface HeldoutItem {
  /** "en", ..., or "transcripts:<folder>". */
  set: string;
  split: "dev" | "test";
  text: string;
  reply: string | null;
  kind: HeldoutKind;
  repeat: boolean;
}

// This module runs from dist/bench (the bench) and from bench/ (the tests, through vitest).
const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = resolve(here, here.includes(`${sep}dist${sep}`) ? "../.." : "..");
export const HELDOUT_DIR = join(repoRoot, "test", "classifier", "heldout");
export const sharedDatasets = (): string => process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");

/**
 * What the held-out prompts answer: an ordinary report of work done, not ending in a question
 * (the hook always has a reply; a weak "no" needs one to count).
 */
export const HELDOUT_REPLY = "Done: I made the change and the build passes.";

/** The written items of every language, in file order. */
export function writtenItems(dir = HELDOUT_DIR): HeldoutItem[] {
  const out: HeldoutItem[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
    const lang = file.slice(0, -".jsonl".length);
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const o = JSON.parse(line) as { text: string; kind: HeldoutKind; split: "dev" | "test"; repeat?: boolean };
      out.push({ set: lang, split: o.split, text: o.text, reply: HELDOUT_REPLY, kind: o.kind, repeat: o.repeat === true });
    }
  }
  return out;
}

export const textKey = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16);

interface TranscriptLabels {
  /** Folders read, each with whether its sessions are real or written as fixtures. */
  folders: Record<string, "real" | "synthetic">;
  /** text key -> label, for the prompts that are not ordinary. */
  labels: Record<string, { kind: Exclude<HeldoutKind, "none">; repeat?: boolean; note: string }>;
}

/**
 * The typed prompts of the labelled transcript folders (each with the end of the reply it
 * answered), or null when the shared datasets are absent. All are split "test".
 */
export async function transcriptItems(shared = sharedDatasets()): Promise<HeldoutItem[] | null> {
  const root = join(shared, "claude-transcripts");
  if (!existsSync(root)) return null;
  const labels = JSON.parse(readFileSync(join(HELDOUT_DIR, "transcripts.labels.json"), "utf8")) as TranscriptLabels;
  const out: HeldoutItem[] = [];
  for (const [folder, origin] of Object.entries(labels.folders)) {
    const dir = join(root, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
      const { prompts } = await typedPrompts(join(dir, file));
      for (const p of prompts) {
        const label = labels.labels[textKey(p.text)];
        out.push({ set: `transcripts:${origin}`, split: "test", text: p.text, reply: p.replyEnd, kind: label?.kind ?? "none", repeat: label?.repeat === true });
      }
    }
  }
  return out;
}

export interface HeldoutScore {
  items: number;
  positives: number;
  flagged: number;
  tp: number;
  precision: number | null;
  recall: number | null;
  /** Positives whose kind (correction or directive) the verdict got right. */
  kindRight: number;
  /** Items labelled a repeat, and those the verdict marked `repeat`. */
  repeats: number;
  repeatsMarked: number;
}

const captured = (v: CaptureVerdict): boolean => v.kind === "correction" || v.kind === "directive";

/** Scores by "<set>/<split>", plus "all/<split>" over every written language. */
export function scoreHeldout(items: readonly HeldoutItem[], verdicts: readonly CaptureVerdict[]): Map<string, HeldoutScore> {
  const scores = new Map<string, HeldoutScore>();
  const add = (key: string, item: HeldoutItem, v: CaptureVerdict): void => {
    const s = scores.get(key) ?? { items: 0, positives: 0, flagged: 0, tp: 0, precision: null, recall: null, kindRight: 0, repeats: 0, repeatsMarked: 0 };
    const pos = item.kind !== "none";
    s.items++;
    if (pos) s.positives++;
    if (captured(v)) s.flagged++;
    if (pos && captured(v)) s.tp++;
    if (pos && v.kind === item.kind) s.kindRight++;
    if (item.repeat) s.repeats++;
    if (item.repeat && v.repeat === true) s.repeatsMarked++;
    scores.set(key, s);
  };
  items.forEach((item, i) => {
    const v = verdicts[i]!;
    add(`${item.set}/${item.split}`, item, v);
    if (!item.set.startsWith("transcripts:")) add(`all/${item.split}`, item, v);
  });
  for (const s of scores.values()) {
    s.precision = s.flagged === 0 ? null : s.tp / s.flagged;
    s.recall = s.positives === 0 ? null : s.tp / s.positives;
  }
  return scores;
}
