// What each `errata … --json` command the loop runs prints: one JSON value, typed here from
// the types the command builds it from (the records' zod types, the reports' interfaces), so
// a change to a command's output is a type error in the loop rather than a "—" in the page.
// The loop reads these replies from the same build that printed them (`run` in process),
// so they are typed at that one boundary (`cli.json<T>`) instead of being parsed again.
import type { BarResult } from "../../eval/check-gate.js";
import type { QuestionAgreement } from "../../eval/agreement-report.js";
import type { ScoreReport } from "../../eval/score-report.js";
import type { SweepReport } from "../../runtime/transcripts/sweep.js";
import type { PredictionsResult, V4PassResult } from "../../runtime/jobs/v4/index.js";
import type { CutsCandidate } from "../../schemas/calibration.js";
import type { ClassTierLevel } from "../../schemas/classtier.js";
import type { CombinerRecord } from "../../schemas/combiner.js";
import type { GoldManifest } from "../../schemas/gold.js";
import type { Promoted } from "../../schemas/promoted.js";

import type { V4Report } from "../../runtime/judgments/index.js";

/** `fooBar` -> `foo_bar`, as `snakeKey` in cli/shared/io.ts renames keys at the `--json` boundary. */
type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;

/**
 * A type as its `--json` output spells it: every key snake_case (cli/shared/io.ts `printJson`).
 * Only camelCase identifiers change there, and those are the only keys the types name.
 */
export type SnakeKeys<T> = T extends readonly (infer U)[] ? SnakeKeys<U>[] : T extends object ? { [K in keyof T as K extends string ? Snake<K> : K]: SnakeKeys<T[K]> } : T;

export type V4ReportReply = SnakeKeys<V4Report>;

/** `errata import ab-redial|synthetic --json` (cli/commands/import.ts). */
export interface ImportReply {
  format: string;
  corpus: string;
  exchanges: number;
  labels: number;
  stats: Record<string, number>;
  out: { exchanges: string; labels: string } | null;
  dry_run: boolean;
}

/** `errata exchanges --root DIR --json`. */
export type ExchangesReply = SnakeKeys<SweepReport>;

/** `errata v4 detect|diagnose|v3 --json`. */
export type V4StageReply = SnakeKeys<V4PassResult> & { v4_dir: string; bank_hash: string };

/** `errata eval predictions --json`. */
export interface PredictionsReply {
  out: string;
  written: boolean;
  rows: number;
  detectors: string[];
  judge: SnakeKeys<V4PassResult["judge"]> | null;
  exchanges: number;
  skipped_lines: number;
  counts: SnakeKeys<PredictionsResult["counts"]>;
}

/** `errata eval sample --json`: the manifest, and where the gold set and manifest went. */
export type SampleReply = SnakeKeys<GoldManifest> & { written: boolean; gold: string; manifest: string };

/** `errata eval brief --json` (and any generated page: cli/commands/v4.ts writeDoc). */
export interface DocReply {
  out: string | null;
  bytes: number;
  written: boolean;
}

/** `errata eval label export --json`. */
export interface LabelExportReply {
  written: boolean;
  out: string;
  labeler: string;
  items: number;
  questions: string[];
}

/** `errata eval label import --json`. */
export interface LabelImportReply {
  imported: number;
  labels: number;
  labeler: string;
  rows: number;
  questions: string[];
  left_empty_with_note: number;
  replaced: number;
  labels_file: string;
  written: boolean;
}

/** `errata eval agreement --json`. */
export interface AgreementReply {
  labels: string[];
  gold: string | null;
  questions: SnakeKeys<QuestionAgreement>[];
}

/** `errata calibrate cuts --json`. */
export interface CutsReply {
  file: string | null;
  candidate: SnakeKeys<CutsCandidate>;
}

/** `errata combiner fit --json`. */
export interface CombinerFitReply {
  file: string | null;
  combiner: SnakeKeys<CombinerRecord>;
}

/** `errata combiner eval --json` (cli/commands/combiner.ts): the heads on the holdout. */
export interface CombinerEvalReply {
  evaluated_on: string;
  items: number;
  /** `at_cut`: the precision, recall and kappa at the head's cut (not read here). */
  detect?: { n: number; cut: number; at_cut: unknown; log_loss: number; brier: number; ece: number };
  class?: { n: number; accuracy_given_gold_failure: number | null };
  predictions?: string;
}

/** `errata classtier ask --json`. */
export interface ClassTierAskReply {
  exchanges: number;
  asked: number;
  from_cache: number;
  verdicts: { named: number; none: number; unscored: number };
  lane: string;
  model: string;
  prompt_hash: string;
  cache: string;
}

/** `errata classtier eval --write --json`. */
export interface ClassTierEvalReply {
  written: string | null;
  record: SnakeKeys<ClassTierLevel>;
}

/** `errata eval score --check --json`: the score report without its flat figure list, and the bars. */
export type ScoreReply = SnakeKeys<Omit<ScoreReport, "figures">> & {
  gold: string;
  check: { source: string; pass: boolean; bars: SnakeKeys<BarResult>[] } | null;
};

/** `errata promote --json`: refused (a bar failed) or promoted. */
export type PromoteReply =
  | { promoted: false; failed: SnakeKeys<Pick<BarResult, "id" | "description" | "figure" | "lower" | "threshold" | "rule" | "reason">>[]; bars: SnakeKeys<BarResult>[] }
  | { promoted: boolean; file: string | null; configuration: SnakeKeys<Promoted> };
