import { classify } from "../../classifier/index.js";

/**
 * The capture classifier's verdict as features: its stable signal names, its frustration
 * level and its kind, read with the reply the person answered (two of its rules need it).
 * The weights file records whether signals were used in training, and a model trained with
 * them refuses to run without them (see `createScorer`).
 *
 * Example: `captureSignals("No, that is wrong!!", "Here is the file.")`
 * -> `{signals: ["correction.en.thats_wrong", "frustration.punctuation"], frustration: 1, kind: "correction"}`.
 */
export interface CaptureSignals {
  signals: readonly string[];
  frustration: number | null;
  kind: string;
}

export type SignalSource = (text: string, previousReply: string | null) => CaptureSignals;

export const captureSignals: SignalSource = (text, previousReply) => {
  const v = classify(text, { previousReply });
  return { signals: v.signals, frustration: v.frustration, kind: v.kind };
};

/** The capture classifier as a signal source (kept async for callers written before it landed). */
export function loadCaptureSignals(): Promise<SignalSource | null> {
  return Promise.resolve(captureSignals);
}
