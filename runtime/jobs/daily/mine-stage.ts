import { existsSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { ErrataError } from "../../../core/errors.js";
import { mineTranscripts } from "../mine/mine.js";
import type { ErrataPaths } from "../../paths.js";
import { loadOrCreateReporterKey, pseudonymize, readReporterKey } from "../../privacy/index.js";
import { CapturedIndex } from "../../transcripts/index.js";
import { ledgerTurns } from "../../transcripts/index.js";
import type { Erratum } from "../../../schemas/erratum.js";
import type { LedgerPort } from "./context.js";
import type { MineRequest } from "./daily.js";

/**
 * The daily run's mine stage: helper B's `mineTranscripts` in process, with the ledger view
 * the run already holds (the turns it has captured) and appends through the same port, so
 * one run reads the ledger once. The reporter is the owner's keyed pseudonym, as `errata
 * mine` makes it. A transcripts folder that does not exist fails the stage (the owner's
 * configuration is wrong, and a night that mined nothing must not look like a quiet one).
 *
 * Example counts: `{root_files: 63, files_read: 63, prompts: 482, written: 12, already_captured: 3, ...}`.
 */
export async function runMine(req: MineRequest, deps: { paths: ErrataPaths; ledger: LedgerPort; env: Record<string, string | undefined>; nowMs: () => number }): Promise<{ counts: Record<string, number>; notes: string[] }> {
  if (!existsSync(req.root) || !statSync(req.root).isDirectory()) {
    throw new ErrataError("BAD_CONFIG", "transcripts folder not found (give --root DIR, set ERRATA_TRANSCRIPTS_ROOT or transcripts_root in daily.json, or run with --skip-mine)", { expected: "a folder of Claude Code transcripts", found: req.root });
  }
  const view = await deps.ledger.readAll();
  // Built only when an id collides (rare): the erratum already holding it, from the run's one read.
  let byId: Map<string, Erratum> | null = null;
  const stateDir = deps.paths.stateDir;
  const key = req.dryRun ? (readReporterKey(stateDir) ?? Buffer.alloc(32)) : loadOrCreateReporterKey(stateDir);
  const owner = deps.env["USER"] ?? ownerName();
  const report = await mineTranscripts({
    root: req.root,
    stateDir,
    nowMs: deps.nowMs(),
    reporter: { id: pseudonymize(owner, key), role: "owner" },
    ...(req.limitFiles !== null ? { limitFiles: req.limitFiles } : {}),
    dryRun: req.dryRun,
    captured: new CapturedIndex(ledgerTurns(view.errata)),
    append: (e) => void deps.ledger.append(e),
    heldBy: (id) => (byId ??= new Map(view.errata.map((e) => [e.id, e]))).get(id) ?? null,
  });
  // A server's store writes appends asynchronously: a failed one fails this stage.
  await deps.ledger.flush?.();
  const counts: Record<string, number> = {};
  for (const [k, v] of Object.entries(report)) if (typeof v === "number") counts[k] = v;
  for (const [k, v] of Object.entries(report.by_kind)) counts[`kind_${k}`] = v;
  return { counts, notes: report.files_left > 0 ? [`${report.files_left} files left for the next run`] : [] };
}

function ownerName(): string {
  try {
    return userInfo().username;
  } catch {
    return "owner";
  }
}
