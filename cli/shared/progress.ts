/**
 * Progress on long work: a bar redrawn on stderr, only when stderr is a terminal and the run
 * was not given `--quiet`; otherwise nothing at all, so piped output and logs stay exactly
 * as they were (stdout never carries progress).
 *
 * Drawn by cli-progress rather than by hand: it is small (no dependencies of its own beyond
 * string width), well kept and widely used, throttles redraws, computes the ETA and clears
 * its line properly on a real terminal; listr2 was the other candidate, but it is a task-list
 * renderer (it wants to own the run's flow and output), where these commands only need a bar
 * beside their own work.
 *
 * Example: `const bar = progress(io, "engine train", 400); bar.tick(); ...; bar.done();`
 * draws `engine train [=====-----] 50% 200/400 eta 12s` on a terminal, nothing in a pipe.
 */
import cliProgress from "cli-progress";
import type { Io } from "./io.js";

export interface Progress {
  /** `n` more items done (default 1). */
  tick: (n?: number) => void;
  /** Sets the count done (and the total, when it is learned late). */
  update: (done: number, total?: number) => void;
  /** The label shown after the bar (a stage's name, a file). */
  note: (text: string) => void;
  /** Stops redrawing and leaves the last state on its line. */
  done: () => void;
}

/** Bars still drawing: `stopAll` (called by `run()` when a command ends, even by throwing) stops them, so no redraw timer outlives the command. */
const live = new Set<{ stop: () => void }>();

export function stopAll(): void {
  for (const b of [...live]) b.stop();
}

const NONE: Progress = { tick: () => {}, update: () => {}, note: () => {}, done: () => {} };

/** True when progress may be drawn: stderr is a terminal and `--quiet` was not given. */
export function showsProgress(io: Pick<Io, "isTTY" | "quiet">): boolean {
  return io.isTTY && io.quiet !== true;
}

export function progress(io: Io, label: string, total: number): Progress {
  if (!showsProgress(io)) return NONE;
  const bar = new cliProgress.SingleBar(
    {
      // io.stderr is the process's stderr on a terminal; cli-progress needs its cursor methods.
      stream: io.stderr as NodeJS.WritableStream,
      format: `${label} [{bar}] {percentage}% {value}/{total} eta {eta_formatted} {note}`,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.legacy,
  );
  bar.start(Math.max(total, 0), 0, { note: "" });
  let stopped = false;
  const handle = { stop: () => finish() };
  live.add(handle);
  const finish = (): void => {
    if (stopped) return;
    stopped = true;
    live.delete(handle);
    bar.stop();
  };
  return {
    tick: (n = 1) => void (stopped || bar.increment(n)),
    update: (done, t) => {
      if (stopped) return;
      if (t !== undefined && t !== bar.getTotal()) bar.setTotal(t);
      bar.update(done);
    },
    note: (text) => void (stopped || bar.update({ note: text })),
    done: finish,
  };
}
