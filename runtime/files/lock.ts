/**
 * The run lock: one job at a time that writes derived files (daily, weekly, the v4 pass,
 * exchanges, rotate, the rules jobs) over one state folder. Two daily runs at once (cron
 * plus a hand run) otherwise both read the ledger, both decide the same patches and both
 * append them: duplicated errata, illegal status patches, duplicate exchanges and answers.
 * Appends by the hook and `errata add` take no lock (they are one O_APPEND write each).
 *
 * The lock is a file `<stateDir>/run.lock`, created whole (its text written to a temp file and
 * hard-linked into place, which fails when the lock exists), holding the holder's pid,
 * host, job, start time and the kernel's start time of that pid (Linux `/proc/<pid>/stat`),
 * so a pid reused by another program after the holder died is not mistaken for the holder.
 * A lock whose holder is dead (same host, no such process, or another process under that
 * pid) is stale and is taken over; the take-over is done under a second, short-lived file
 * made the same way (`run.lock.break`) so that two runs finding the same stale lock cannot
 * both take it. A lock file without a readable holder (another writer's, or an O_EXCL write
 * where the file system has no hard links) is waited out for a few seconds, then taken over.
 *
 * Written here rather than with proper-lockfile (installed): that library decides
 * staleness by the lock's mtime, kept fresh by a timer, so a SIGKILLed holder blocks every
 * run for the stale period, and it keeps no holder to name in the refusal; a pid check
 * recovers at once and says who holds the lock.
 *
 * Example: `await withRunLock(stateDir, { job: "errata daily", waitMs: 0 }, () => run())`
 * runs `run`; while another process holds the lock it throws `RunLockError` (code
 * RUN_LOCKED, exit 2): "another run holds the lock …/run.lock (errata daily, pid 4242 on
 * host-a, started 2026-11-30T12:00:00.000Z; expected no other run; pass --wait SECONDS to
 * wait for it)".
 */
import { closeSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { badInput, CodedError } from "../../core/errors.js";

export const LOCK_FILE = "run.lock";
/** A lock file with no readable holder younger than this is being written, not stale. */
const UNREADABLE_GRACE_MS = 5_000;
const POLL_MS = 100;

export interface LockHolder {
  schema: "run-lock/1";
  pid: number;
  host: string;
  job: string;
  started_at: string;
  /** The kernel's start time of `pid` (clock ticks since boot), or null where unknown. */
  proc_start: string | null;
}

export class RunLockError extends CodedError {
  declare readonly code: "RUN_LOCKED";
  readonly holder: LockHolder | null;
  constructor(file: string, holder: LockHolder | null, waitedMs: number) {
    const who = holder === null ? "a run whose lock file is still being written" : `${holder.job}, pid ${holder.pid} on ${holder.host}, started ${holder.started_at}`;
    const waited = waitedMs > 0 ? `; waited ${waitedMs < 10_000 ? (waitedMs / 1000).toFixed(1) : Math.round(waitedMs / 1000)} s` : "";
    super("io", "RUN_LOCKED", `another run holds the lock ${file} (${who}; expected no other run${waited}; pass --wait SECONDS to wait for it)`, {
      expected: "no other run",
      found: who,
    });
    this.name = "RunLockError";
    this.holder = holder;
  }
}

export interface RunLockOptions {
  /** What this run is, for the holder record and the refusal, e.g. "errata daily". */
  job: string;
  /** How long to wait for the holder to finish (default 0: refuse at once). */
  waitMs?: number;
  /** Injected for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RunLock {
  readonly file: string;
  release(): void;
}

/** The kernel's start time of a pid (field 22 of /proc/<pid>/stat), or null off Linux or when gone. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the holder's process is still the one that took the lock. */
export function holderAlive(h: LockHolder): boolean {
  if (h.host !== hostname()) return true; // another machine's run: cannot be checked, so respected
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (h.proc_start === null) return true;
  const now = processStart(h.pid);
  return now === null || now === h.proc_start;
}

function readHolder(file: string): { holder: LockHolder | null; text: string; ageMs: number } | null {
  let text: string;
  let mtimeMs: number;
  try {
    text = readFileSync(file, "utf8");
    mtimeMs = statSync(file).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  let holder: LockHolder | null = null;
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (v.schema === "run-lock/1" && typeof v.pid === "number" && typeof v.host === "string") holder = v as LockHolder;
  } catch {
    holder = null;
  }
  return { holder, text, ageMs: Date.now() - mtimeMs };
}

/**
 * Creates `file` holding `text`, or returns false when it exists. The text is written to a
 * temp file of this process first and hard-linked into place (link fails when the target
 * exists), so the lock appears whole: a run killed while writing it leaves at most its temp
 * file, never a lock without a holder (which a run could only wait out). Where the file
 * system has no hard links, an O_EXCL create and write.
 */
function createExclusive(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeWhole(tmp, text, "w");
  } catch (err) {
    unlinkQuiet(tmp);
    throw err;
  }
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") return createByOpen(file, text);
    throw err;
  } finally {
    unlinkQuiet(tmp);
  }
}

function createByOpen(file: string, text: string): boolean {
  try {
    writeWhole(file, text, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  return true;
}

/** Writes `text` to a new file (flags "w" or "wx"); a file that could not be written whole (a full disk) is removed. */
function writeWhole(file: string, text: string, flags: "w" | "wx"): void {
  const fd = openSync(file, flags, 0o644);
  let ok = false;
  try {
    writeSync(fd, text);
    ok = true;
  } finally {
    closeSync(fd);
    if (!ok) unlinkQuiet(file);
  }
}

/** Removes the temp files of runs that died between writing a lock's text and linking it. */
function removeDeadTemps(stateDir: string): void {
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^run\.lock(?:\.break)?\.(\d+)\.tmp$/.exec(name);
    if (m === null || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ESRCH") unlinkQuiet(join(stateDir, name));
    }
  }
}

function unlinkQuiet(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

/** Removes `file` if it still holds `staleText`, under the break file (see the module comment). */
function breakStale(file: string, staleText: string): void {
  const breaker = `${file}.break`;
  const mine = JSON.stringify({ pid: process.pid, proc_start: processStart(process.pid), host: hostname() });
  if (!createExclusive(breaker, mine)) {
    // Another run is breaking it; a breaker that died mid-way is itself stale.
    const b = readHolder(breaker);
    if (b !== null && b.ageMs > UNREADABLE_GRACE_MS) unlinkQuiet(breaker);
    return;
  }
  try {
    const now = readHolder(file);
    if (now !== null && now.text === staleText) unlinkQuiet(file);
  } finally {
    unlinkQuiet(breaker);
  }
}

/** Locks held by this process, so a job nested in another (daily's v4 pass) does not wait for itself. */
const held = new Map<string, number>();
let exitHook = false;

function installExitHook(): void {
  if (exitHook) return;
  exitHook = true;
  process.on("exit", () => {
    for (const file of held.keys()) unlinkQuiet(file);
  });
}

/** Takes the run lock of `stateDir`, waiting up to `waitMs` for a live holder; throws RunLockError when it cannot. */
export async function acquireRunLock(stateDir: string, opts: RunLockOptions): Promise<RunLock> {
  const file = join(stateDir, LOCK_FILE);
  const depth = held.get(file);
  if (depth !== undefined) {
    held.set(file, depth + 1);
    return { file, release: () => releaseHeld(file) };
  }
  mkdirSync(stateDir, { recursive: true });
  const now = opts.now ?? (() => Date.now());
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const start = now();
  const me: LockHolder = { schema: "run-lock/1", pid: process.pid, host: hostname(), job: opts.job, started_at: new Date(start).toISOString(), proc_start: processStart(process.pid) };
  const text = `${JSON.stringify(me)}\n`;
  for (;;) {
    if (createExclusive(file, text)) {
      held.set(file, 1);
      installExitHook();
      removeDeadTemps(stateDir);
      return { file, release: () => releaseHeld(file) };
    }
    const found = readHolder(file);
    if (found === null) continue; // released between our attempt and the read: try again at once
    const stale = found.holder === null ? found.ageMs > UNREADABLE_GRACE_MS : !holderAlive(found.holder);
    if (stale) {
      breakStale(file, found.text);
      continue;
    }
    const waited = now() - start;
    if (waited >= (opts.waitMs ?? 0)) throw new RunLockError(file, found.holder, waited);
    await sleep(Math.min(POLL_MS, (opts.waitMs ?? 0) - waited));
  }
}

function releaseHeld(file: string): void {
  const depth = held.get(file);
  if (depth === undefined) return;
  if (depth > 1) {
    held.set(file, depth - 1);
    return;
  }
  held.delete(file);
  // Only our own lock is removed: a lock broken as stale and retaken by another run is theirs.
  const found = readHolder(file);
  if (found?.holder?.pid === process.pid && found.holder.host === hostname()) unlinkQuiet(file);
}

/** Runs `fn` holding the run lock of `stateDir`, and releases it however `fn` ends. */
export async function withRunLock<T>(stateDir: string, opts: RunLockOptions, fn: () => Promise<T>): Promise<T> {
  const lock = await acquireRunLock(stateDir, opts);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** Reads `--wait SECONDS` as milliseconds; undefined is 0 (refuse at once). */
export function waitMsFromFlag(seconds: string | undefined): number {
  if (seconds === undefined) return 0;
  const n = Number(seconds);
  if (seconds.trim() === "" || !Number.isFinite(n) || n < 0) throw badInput("bad --wait", "a number of seconds >= 0", JSON.stringify(seconds));
  return Math.round(n * 1000);
}
