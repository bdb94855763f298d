// The loop's summary (`<out>/summary.json`): every figure as the CLI printed it, per track,
// plus the corpora, the engine and the command lines. report.ts renders the page from it
// alone, so `--render summary.json` rebuilds the page without running the loop.
import type { JudgeId, V4Report } from "../../runtime/judgments/index.js";
import type { ComposedCounts, RegexCounts } from "../../runtime/jobs/v4/predictions.js";
import type { CutsCandidate } from "../../schemas/calibration.js";
import type { ClassTierLevel } from "../../schemas/classtier.js";
import type { CombinerRecord } from "../../schemas/combiner.js";
import type { AgreementReply, ClassTierAskReply, CombinerEvalReply, PromoteReply, SampleReply, ScoreReply, SnakeKeys } from "./replies.js";

/** What the loop's figures depend on; `meta.options` records them (a summary.json is the run's record). */
export interface ResearchOptions {
  seed: number;
  corpora: string[];
  syntheticSeed: number;
  syntheticSessions: number;
  /** Keep only the first N sessions of each corpus; 0 keeps all. */
  sessions: number;
  items: number;
  failureItems: number;
  perSession: number;
  holdoutShare: number;
  resamples: number;
  monteCarlo: number;
  engine: "train" | "shipped";
  engineShare: number;
}

export interface StepTime {
  n: number;
  name: string;
  seconds: number;
}

export interface CorpusSummary {
  exchanges: number;
  sessions: number;
  labels: number;
  labelers: string[];
  source: string;
  notes: string[];
  subset?: string;
}

/** The engine as the summary keeps it (without the session filter and the engine config). */
export type EngineSummary =
  | {
      mode: "train";
      file: string;
      model: string;
      cuts: Record<string, number>;
      trained: string[];
      skipped: Record<string, string>;
      noLabels: string[];
      captureSignals: boolean;
      trainingExchanges: number;
      trainingLabels: number;
      detectFromHumans: boolean;
    }
  | { mode: "shipped"; file: string; model: string; cuts: Record<string, number>; trainedOn: string[]; trained: string[]; skipped: Record<string, string> };

export interface StageCounts {
  eligible: number;
  asked: number;
  scored: number;
  unscored: number;
  judge: JudgeId;
}

/** The v4 report's counts the page quotes. */
export interface ReportSummary {
  exchanges: number;
  sessions: number;
  composed: number;
  failures: number;
  classes: V4Report["classes"];
  unscoredAnswers: number;
  unscoredReasons: string[];
  synthetic: { exchanges: number; planted: number; found: number; missed: number; unplanted_flagged: number } | null;
}

export interface SampleSummary {
  manifest: SampleReply;
  items: number;
  fitItems: number;
  holdoutItems: number;
  minPi: number;
  maxPi: number;
  fitSessions: number;
  holdoutSessions: number;
  overlap: number;
}

export interface SheetCounts {
  rows: number;
  answers: number;
  imported: number;
  blankRows: number;
}

/** On how many holdout gold items two detectors' detection verdicts differ. */
export interface VerdictOverlap {
  a: string;
  b: string;
  items: number;
  differ: number;
}

export interface ClassTierCounts {
  detected: number;
  secondLookFlags: number;
  named: number;
  none: number;
  unscored: number;
}

export interface ScoreStep {
  exitCode: number;
  value: ScoreReply & { check: NonNullable<ScoreReply["check"]> };
  text: string;
}

export interface PromoteStep {
  exitCode: number;
  matchesCheck: boolean;
  value: PromoteReply;
  text: string;
}

export interface TrackFiles {
  ledger: string;
  exchanges: string;
  gold: string;
  labels: string;
  predictions: string[];
  cuts: string;
  combiner: string | null;
  classtierLevel: string;
  brief: string;
  promoted: string;
  returned: string;
}

export interface Track {
  corpus: string;
  v4pass: { detect: StageCounts; diagnose: StageCounts; v3: StageCounts; report: ReportSummary };
  regex: RegexCounts;
  sample: SampleSummary;
  labels: Record<string, SheetCounts>;
  agreement: AgreementReply;
  cuts: SnakeKeys<CutsCandidate>;
  composed: SnakeKeys<{ v3: ComposedCounts["v3"]; v4: ComposedCounts["v4"] }>;
  combiner: { skipped: string } | { fit: SnakeKeys<CombinerRecord>; eval: CombinerEvalReply };
  classtier: { ask: ClassTierAskReply; record: ClassTierLevel };
  classtierPredictions: ClassTierCounts;
  detectors: string[];
  sameVerdicts: VerdictOverlap[];
  score: ScoreStep;
  promote: PromoteStep;
  files: TrackFiles;
}

/** What the loop returns; the driver adds `meta`. */
export interface LoopSummary {
  steps: StepTime[];
  leftOut: Record<string, string>;
  tracks: Record<string, Track>;
  commands: string[];
  engine: EngineSummary;
  corpora: Record<string, CorpusSummary>;
}

export interface SummaryMeta {
  /** The command line as run (`node dist/scripts/research.js …`). */
  command: string;
  seed: number;
  /** ISO time the run started. */
  date: string;
  seconds: number;
  node: string;
  /** The options, the loop's folder and where the report went. */
  options: ResearchOptions & { dir: string; out: string; writeDocs: boolean };
}

export interface Summary extends LoopSummary {
  meta: SummaryMeta;
}
