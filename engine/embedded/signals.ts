/**
 * The capture classifier's verdict as features: its stable signal names, its frustration
 * level and its kind. The classifier (`runtime/capture/classify.ts`, `classify(text)`) is
 * loaded when it is present; the weights file records whether signals were used in training,
 * and a model trained with them refuses to run without them (see `embeddedLane`).
 *
 * Example: `(await loadCaptureSignals())?.("No, that's wrong!!")`
 * -> `{signals: ["correction.en.no_opener", …], frustration: 1, kind: "correction"}`.
 */
export interface CaptureSignals {
  signals: readonly string[];
  frustration: number | null;
  kind: string;
}

export type SignalSource = (text: string) => CaptureSignals;

interface ClassifyModule {
  classify?: (text: string) => { kind: string; frustration: number | null; signals: string[] };
}

let loaded: Promise<SignalSource | null> | undefined;

/** The capture classifier as a signal source, or null when it is not built. Memoised. */
export function loadCaptureSignals(): Promise<SignalSource | null> {
  loaded ??= (async () => {
    // A computed specifier, so the engine builds before the capture room lands.
    const specifier = ["..", "..", "runtime", "capture", "classify.js"].join("/");
    try {
      const mod = (await import(specifier)) as ClassifyModule;
      const classify = mod.classify;
      if (typeof classify !== "function") return null;
      return (text: string): CaptureSignals => {
        const v = classify(text);
        return { signals: v.signals, frustration: v.frustration, kind: v.kind };
      };
    } catch {
      return null;
    }
  })();
  return loaded;
}
