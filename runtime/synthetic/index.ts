import type { ImportResult } from "../importers/types.js";

export interface SyntheticOptions {
  seed: number;
  sessions: number;
  transcriptsDir: string | null;
}

/** Placeholder until the generator lands. */
export async function importSynthetic(_opts: SyntheticOptions): Promise<ImportResult> {
  throw new Error("synthetic generator not built yet");
}
