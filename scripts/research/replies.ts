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

export type { V4Report as V4ReportReply } from "../../runtime/jobs/v4/index.js";

/** `errata import ab-redial|synthetic --json` (cli/commands/import.ts). */
export interface ImportReply {
  format: string;
  corpus: string;
  exchanges: number;
  labels: number;
  stats: Record<string, number>;
  out: { exchanges: string; labels: string } | null;
  dryRun: boolean;
}

/** `errata exchanges --root DIR --json`. */
export type ExchangesReply = SweepReport;

/** `errata v4 detect|diagnose|v3 --json`. */
export type V4StageReply = V4PassResult & { v4_dir: string; bank_hash: string };

/** `errata eval predictions --json`. */
export interface PredictionsReply {
  out: string;
  written: boolean;
  rows: number;
  detectors: string[];
  judge: V4PassResult["judge"] | null;
  exchanges: number;
  skipped_lines: number;
  counts: PredictionsResult["counts"];
}

/** `errata eval sample --json`: the manifest, and where the gold set and manifest went. */
export type SampleReply = GoldManifest & { written: boolean; gold: string; manifest: string };

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
  leftEmptyWithNote: number;
  replaced: number;
  labelsFile: string;
  written: boolean;
}

/** `errata eval agreement --json`. */
export interface AgreementReply {
  labels: string[];
  gold: string | null;
  questions: QuestionAgreement[];
}

/** `errata calibrate cuts --json`. */
export interface CutsReply {
  file: string | null;
  candidate: CutsCandidate;
}

/** `errata combiner fit --json`. */
export interface CombinerFitReply {
  file: string | null;
  combiner: CombinerRecord;
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
  record: ClassTierLevel;
}

/** `errata eval score --check --json`: the score report without its flat figure list, and the bars. */
export type ScoreReply = Omit<ScoreReport, "figures"> & {
  gold: string;
  check: { source: string; pass: boolean; bars: BarResult[] } | null;
};

/** `errata promote --json`: refused (a bar failed) or promoted. */
export type PromoteReply =
  | { promoted: false; failed: Pick<BarResult, "id" | "description" | "figure" | "lower" | "threshold" | "rule" | "reason">[]; bars: BarResult[] }
  | { promoted: boolean; file: string | null; configuration: Promoted };
