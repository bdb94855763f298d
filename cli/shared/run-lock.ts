/**
 * The run lock for a command that writes derived files (the rules and ladder jobs): the
 * action runs while this process holds `<state dir>/run.lock` (runtime/files/lock.ts); a
 * second run exits 2 at once naming the holder, or waits up to `--wait SECONDS`. A dry run
 * writes nothing, so it takes no lock. Commander passes an action its arguments, then the
 * options, then the command: the options are the second from last.
 *
 * Example: `cmd.option(...WAIT_OPTION).action(lockedAction(ctx, "errata rules build", (flags) => ...))`:
 * while `errata daily` runs, `errata rules build` exits 2 with "errata daily (pid 4242, ...) holds the run lock".
 */
import { waitMsFromFlag, withRunLock } from "../../runtime/files/index.js";
import type { CommandContext } from "./command.js";
import { pathsFor } from "./ledger.js";

export const WAIT_OPTION = ["--wait <seconds>", "when another run holds the lock, wait up to this long for it (default: exit 2 at once, naming it)"] as const;

export function lockedAction<A extends unknown[]>(ctx: CommandContext, job: string, action: (...args: A) => unknown): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const flags = (args[args.length - 2] ?? {}) as { dryRun?: boolean; wait?: string };
    // Checked before anything else, so a bad --wait exits 2 having taken and written nothing.
    const waitMs = waitMsFromFlag(flags.wait);
    if (flags.dryRun === true) {
      await action(...args);
      return;
    }
    await withRunLock(pathsFor(ctx).stateDir, { job, waitMs }, async () => {
      await action(...args);
    });
  };
}
