import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireRunLock, LOCK_FILE, processStart, RunLockError, waitMsFromFlag, withRunLock, type LockHolder } from "../../runtime/files/lock.js";
import { tempDir } from "../helpers/io.js";
import { repoRoot } from "../faults/helpers.js";
import { built } from "../helpers/built.js";

let t = tempDir("errata-lock-");
afterEach(() => {
  t.cleanup();
  t = tempDir("errata-lock-");
});

/** A pid no process has: one that ran and exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

function holderFile(dir: string, h: Partial<LockHolder>): void {
  const full: LockHolder = { schema: "run-lock/1", pid: process.pid, host: hostname(), job: "errata daily", started_at: "2026-11-30T12:00:00.000Z", proc_start: null, ...h };
  writeFileSync(join(dir, LOCK_FILE), `${JSON.stringify(full)}\n`);
}

/** A child that takes the lock, prints "held", and keeps it until killed or `holdMs` passes. */
function holderChild(dir: string, holdMs: number) {
  const src = `import("${join(repoRoot, "dist", "runtime", "files", "lock.js")}").then(async (m) => {
    const l = await m.acquireRunLock(${JSON.stringify(dir)}, { job: "errata daily" });
    process.stdout.write("held\\n");
    setTimeout(() => { l.release(); process.exit(0); }, ${holdMs});
  });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", src], { stdio: ["ignore", "pipe", "inherit"] });
  const held = new Promise<void>((r) => child.stdout.on("data", (d: Buffer) => d.toString().includes("held") && r()));
  return { child, held, exited: new Promise<void>((r) => child.on("exit", () => r())) };
}

describe.skipIf(!built)("the run lock (runtime/files/lock.ts)", () => {
  it("writes the holder (pid, host, job, start, the pid's kernel start time) and removes it on release", async () => {
    const lock = await acquireRunLock(t.dir, { job: "errata daily", now: () => Date.parse("2026-11-30T12:00:00Z") });
    const h = JSON.parse(readFileSync(join(t.dir, LOCK_FILE), "utf8")) as LockHolder;
    expect(h).toMatchObject({ schema: "run-lock/1", pid: process.pid, host: hostname(), job: "errata daily", started_at: "2026-11-30T12:00:00.000Z" });
    if (process.platform === "linux") expect(h.proc_start).toBe(processStart(process.pid));
    lock.release();
    expect(existsSync(join(t.dir, LOCK_FILE))).toBe(false);
  });

  it("is re-entrant within one process (daily's v4 pass does not wait for daily itself)", async () => {
    const order: string[] = [];
    await withRunLock(t.dir, { job: "outer" }, async () => {
      await withRunLock(t.dir, { job: "inner" }, async () => void order.push("inner"));
      expect(existsSync(join(t.dir, LOCK_FILE))).toBe(true); // the inner release keeps the outer's lock
      order.push("outer");
    });
    expect(order).toEqual(["inner", "outer"]);
    expect(existsSync(join(t.dir, LOCK_FILE))).toBe(false);
  });

  it("refuses at once, naming the holder, while a live process holds it; exit kind io (exit 2)", async () => {
    const c = holderChild(t.dir, 30_000);
    await c.held;
    try {
      const err = await acquireRunLock(t.dir, { job: "errata daily" }).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(RunLockError);
      const e = err as RunLockError;
      expect(e.code).toBe("RUN_LOCKED");
      expect(e.exitCode).toBe(2);
      expect(e.holder?.pid).toBe(c.child.pid);
      expect(e.message).toContain(`pid ${c.child.pid} on ${hostname()}`);
      expect(e.message).toContain("--wait SECONDS");
    } finally {
      c.child.kill("SIGKILL");
      await c.exited;
    }
  });

  it("waits (--wait) for a holder that finishes, then takes the lock", async () => {
    const c = holderChild(t.dir, 400);
    await c.held;
    const lock = await acquireRunLock(t.dir, { job: "errata daily", waitMs: 20_000 });
    const h = JSON.parse(readFileSync(join(t.dir, LOCK_FILE), "utf8")) as LockHolder;
    expect(h.pid).toBe(process.pid);
    lock.release();
    await c.exited;
  });

  it("gives up after --wait when the holder stays, saying how long it waited", async () => {
    const c = holderChild(t.dir, 30_000);
    await c.held;
    try {
      let clock = 0;
      const err = (await acquireRunLock(t.dir, { job: "x", waitMs: 3000, now: () => clock, sleep: async (ms) => void (clock += ms) }).catch((e: unknown) => e)) as RunLockError;
      expect(err.code).toBe("RUN_LOCKED");
      expect(err.message).toMatch(/waited 3\.0 s/);
    } finally {
      c.child.kill("SIGKILL");
      await c.exited;
    }
  });

  it("takes over the lock of a holder killed with SIGKILL, at once", async () => {
    const c = holderChild(t.dir, 30_000);
    await c.held;
    c.child.kill("SIGKILL");
    await c.exited;
    expect(existsSync(join(t.dir, LOCK_FILE))).toBe(true); // a SIGKILL runs no clean-up
    const lock = await acquireRunLock(t.dir, { job: "errata daily" });
    expect((JSON.parse(readFileSync(join(t.dir, LOCK_FILE), "utf8")) as LockHolder).pid).toBe(process.pid);
    lock.release();
  });

  it("treats a lock of a dead pid, or of a reused pid (another kernel start time), as stale", async () => {
    holderFile(t.dir, { pid: deadPid() });
    (await acquireRunLock(t.dir, { job: "a" })).release();
    // Our own pid, but recorded with another start time: the holder that wrote it is gone.
    holderFile(t.dir, { pid: process.ppid, proc_start: "1" });
    if (process.platform === "linux") (await acquireRunLock(t.dir, { job: "b" })).release();
    expect(existsSync(join(t.dir, LOCK_FILE))).toBe(false);
  });

  it("respects a live holder on another host (it cannot be checked) and a young unreadable lock (being written)", async () => {
    holderFile(t.dir, { pid: deadPid(), host: "another-host" });
    await expect(acquireRunLock(t.dir, { job: "a" })).rejects.toThrow(/another run holds the lock .* on another-host/);
    writeFileSync(join(t.dir, LOCK_FILE), "");
    await expect(acquireRunLock(t.dir, { job: "a" })).rejects.toThrow(/lock file is still being written/);
  });

  it("appears whole: a lock is never a file without its holder, and a dead run's temp file is removed by the next run", async () => {
    // A run killed after writing its temp file and before linking it: no lock, a temp file.
    const dead = deadPid();
    writeFileSync(join(t.dir, `${LOCK_FILE}.${dead}.tmp`), "{\"schema\":\"run-lock/1\"");
    const lock = await acquireRunLock(t.dir, { job: "errata exchanges" });
    expect((JSON.parse(readFileSync(join(t.dir, LOCK_FILE), "utf8")) as LockHolder).job).toBe("errata exchanges");
    lock.release();
    expect(readdirSync(t.dir)).toEqual([]);
    // Runs SIGKILLed at every moment of taking the lock: whatever is left is a whole holder or nothing.
    for (let i = 0; i < 12; i++) {
      const child = spawn(process.execPath, ["--input-type=module", "-e", `import(${JSON.stringify(join(repoRoot, "dist", "runtime", "files", "lock.js"))}).then((m) => m.acquireRunLock(${JSON.stringify(t.dir)}, { job: "errata daily" }))`], { stdio: "ignore" });
      const exited = new Promise<void>((r) => child.on("exit", () => r()));
      await new Promise((r) => setTimeout(r, 25 + i * 7));
      child.kill("SIGKILL");
      await exited;
      if (existsSync(join(t.dir, LOCK_FILE))) expect((JSON.parse(readFileSync(join(t.dir, LOCK_FILE), "utf8")) as LockHolder).schema).toBe("run-lock/1");
      (await acquireRunLock(t.dir, { job: "errata daily" })).release();
      expect(readdirSync(t.dir)).toEqual([]);
    }
  });

  it("lets one process at a time through: 6 processes x 15 read-modify-write rounds on one counter lose no increment", async () => {
    const counter = join(t.dir, "counter");
    writeFileSync(counter, "0");
    const src = `import("${join(repoRoot, "dist", "runtime", "files", "lock.js")}").then(async (m) => {
      const fs = await import("node:fs");
      for (let i = 0; i < 15; i++) {
        await m.withRunLock(${JSON.stringify(t.dir)}, { job: "count", waitMs: 60000 }, async () => {
          const n = Number(fs.readFileSync(${JSON.stringify(counter)}, "utf8"));
          await new Promise((r) => setTimeout(r, 2));
          fs.writeFileSync(${JSON.stringify(counter)}, String(n + 1));
        });
      }
    });`;
    const kids = Array.from({ length: 6 }, () => spawn(process.execPath, ["--input-type=module", "-e", src], { stdio: "inherit" }));
    await Promise.all(kids.map((k) => new Promise((r) => k.on("exit", r))));
    expect(Number(readFileSync(counter, "utf8"))).toBe(90);
  });

  it("reads --wait as seconds; refuses a negative or non-numeric value", () => {
    expect(waitMsFromFlag(undefined)).toBe(0);
    expect(waitMsFromFlag("1.5")).toBe(1500);
    expect(() => waitMsFromFlag("-1")).toThrow(/bad --wait \(expected a number of seconds >= 0; found "-1"\)/);
    expect(() => waitMsFromFlag("soon")).toThrow(/bad --wait/);
  });
});
