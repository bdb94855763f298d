import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { openLedger, newErratum } from "../../runtime/store/index.js";
import { rotateLedger, type RotateStep } from "../../runtime/store/rotate.js";
import type { ErrataPaths } from "../../runtime/paths.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { compileForChild } from "./compile-for-child.js";
import { assertAllRecordsUnder } from "./record-guard.js";

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir("errata-rotate-");
});
afterEach(() => {
  assertAllRecordsUnder(t.dir);
  t.cleanup();
});

const reporter = { id: "rp-0123456789abcdef", role: "owner" };
const NOW = Date.parse("2026-11-30T12:00:00Z");

function pathsAt(ledgerDir: string): ErrataPaths {
  return { ledgerDir, stateDir: join(ledgerDir, ".state"), v4Dir: join(ledgerDir, "v4"), attachmentsDir: join(ledgerDir, ".att"), isDefaultLedger: false };
}

/** A ledger with errata in Aug, Sep, Oct and Nov 2026 and patches crossing months. */
function seed(ledgerDir: string, perMonth = 5): string[] {
  const ledger = openLedger(pathsAt(ledgerDir), { systems: new Set(["assistant"]), now: () => NOW, warn: () => {} });
  const ids: string[] = [];
  for (const month of ["08", "09", "10", "11"]) {
    for (let i = 0; i < perMonth; i++) {
      const e = ledger.append(newErratum({ nowMs: NOW, ts: `2026-${month}-${String(1 + (i % 28)).padStart(2, "0")}T${String(i % 24).padStart(2, "0")}:00:00.000Z`, complaint: `month ${month} #${i}`, reporter })).erratum;
      ids.push(e.id);
    }
  }
  ledger.patch(ids[0]!, { links: { issue: "https://example.org/1" } }, { ts: "2026-09-01T00:00:00.000Z" });
  return ids;
}

function snapshot(ledgerDir: string) {
  const read = openLedger(pathsAt(ledgerDir), { systems: new Set(["assistant"]), warn: () => {} }).readAll();
  return {
    errata: read.errata.map((f) => f.erratum).sort((a, b) => a.id.localeCompare(b.id)),
    errors: read.problems.filter((p) => p.severity === "error"),
  };
}

async function cli(ledgerDir: string, argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: ledgerDir, HOME: t.dir }, now: NOW });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata rotate", () => {
  it("archives older months after a round-trip check; archived months read as live", async () => {
    const dir = join(t.dir, "l");
    seed(dir);
    const before = snapshot(dir);
    const dry = await cli(dir, ["rotate", "--before", "2026-10", "--dry-run", "--json"]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.out).months.map((m: { action: string }) => m.action)).toEqual(["would-archive", "would-archive"]);
    expect(existsSync(join(dir, "archive"))).toBe(false);

    const r = await cli(dir, ["rotate", "--before", "2026-10", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.months.map((m: { month: string; action: string }) => [m.month, m.action])).toEqual([["2026-08", "archived"], ["2026-09", "archived"]]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()).toEqual(["errata-2026-10.jsonl", "errata-2026-11.jsonl"]);
    expect(readdirSync(join(dir, "archive")).sort()).toEqual(["errata-2026-08.jsonl.gz", "errata-2026-09.jsonl.gz"]);
    expect(snapshot(dir)).toEqual(before);
    expect((await cli(dir, ["validate"])).code).toBe(0);
    // Re-running has nothing to do.
    expect(JSON.parse((await cli(dir, ["rotate", "--before", "2026-10", "--json"])).out).months).toEqual([]);
  });

  it("refuses the month being written and bad months, with exit 2", async () => {
    const dir = join(t.dir, "l");
    seed(dir);
    expect((await cli(dir, ["rotate", "--before", "2026-12"])).code).toBe(2);
    expect((await cli(dir, ["rotate", "--before", "2026-13"])).code).toBe(2);
    expect((await cli(dir, ["rotate"])).code).toBe(2);
    expect(existsSync(join(dir, "archive"))).toBe(false);
  });

  it("late lines for an archived month are merged into its archive", () => {
    const dir = join(t.dir, "l");
    seed(dir);
    rotateLedger(dir, { before: "2026-10", currentMonth: "2026-11" });
    const ledger = openLedger(pathsAt(dir), { systems: new Set(["assistant"]), now: () => NOW, warn: () => {} });
    ledger.append(newErratum({ nowMs: NOW, ts: "2026-08-20T09:00:00.000Z", complaint: "backfilled late", reporter }));
    const before = snapshot(dir);
    expect(before.errata).toHaveLength(21);
    const res = rotateLedger(dir, { before: "2026-10", currentMonth: "2026-11" });
    expect(res.months.map((m) => [m.month, m.action])).toEqual([["2026-08", "merged"]]);
    expect(snapshot(dir)).toEqual(before);
  });

  const steps: RotateStep[] = ["read", "temp-written", "verified", "renamed", "unlinked"];
  for (const late of [false, true]) {
    for (const step of steps) {
      it(`a crash after "${step}"${late ? " (merging late lines)" : ""} loses nothing, duplicates nothing, and a re-run finishes`, () => {
        const dir = join(t.dir, "l");
        seed(dir);
        if (late) {
          rotateLedger(dir, { before: "2026-10", currentMonth: "2026-11" });
          const ledger = openLedger(pathsAt(dir), { systems: new Set(["assistant"]), now: () => NOW, warn: () => {} });
          ledger.append(newErratum({ nowMs: NOW, ts: "2026-08-21T09:00:00.000Z", complaint: "late", reporter }));
        }
        const before = snapshot(dir);
        const res = rotateLedger(dir, {
          before: "2026-10",
          currentMonth: "2026-11",
          onStep: (s) => {
            if (s === step) throw new Error("crash");
          },
        });
        expect(res.months[0]!.action).toBe("failed");
        expect(snapshot(dir)).toEqual(before);
        rotateLedger(dir, { before: "2026-10", currentMonth: "2026-11" });
        expect(snapshot(dir)).toEqual(before);
        expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()).toEqual(["errata-2026-10.jsonl", "errata-2026-11.jsonl"]);
        expect(readdirSync(join(dir, "archive")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
      });
    }
  }

  it("a failed round trip keeps the live file and writes no archive", () => {
    const dir = join(t.dir, "l");
    seed(dir);
    const before = snapshot(dir);
    const res = rotateLedger(dir, {
      before: "2026-09",
      currentMonth: "2026-11",
      onStep: (s) => {
        if (s !== "temp-written") return;
        const tmp = readdirSync(join(dir, "archive")).find((f) => f.endsWith(".tmp"))!;
        const bytes = readFileSync(join(dir, "archive", tmp));
        bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0xff; // flip bits in the gzip trailer
        writeFileSync(join(dir, "archive", tmp), bytes);
      },
    });
    expect(res.months[0]).toMatchObject({ month: "2026-08", action: "failed" });
    expect(existsSync(join(dir, "errata-2026-08.jsonl"))).toBe(true);
    expect(readdirSync(join(dir, "archive"))).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  });

  it("a line appended while rotating is kept, read once, and archived by a re-run", () => {
    const dir = join(t.dir, "l");
    seed(dir);
    const ledger = openLedger(pathsAt(dir), { systems: new Set(["assistant"]), now: () => NOW, warn: () => {} });
    const res = rotateLedger(dir, {
      before: "2026-09",
      currentMonth: "2026-11",
      onStep: (s) => {
        if (s === "verified") ledger.append(newErratum({ nowMs: NOW, ts: "2026-08-25T09:00:00.000Z", complaint: "raced", reporter }));
      },
    });
    expect(res.months[0]!.action).toBe("kept");
    const mid = snapshot(dir);
    expect(mid.errata).toHaveLength(21);
    expect(mid.errors).toEqual([]);
    expect(rotateLedger(dir, { before: "2026-09", currentMonth: "2026-11" }).months[0]!.action).toBe("merged");
    expect(snapshot(dir)).toEqual(mid);
    expect(existsSync(join(dir, "errata-2026-08.jsonl"))).toBe(false);
  });

  it("killed with SIGKILL at every step, in a real process, loses nothing and can be re-run", async () => {
    const code = join(t.dir, "code");
    compileForChild(code, ["runtime/store/rotate.ts", "runtime/store/ids.ts", "core/node-crypto.ts", "core/node-crypto-load.ts", "runtime/store/read-files.ts", "core/errors.ts"]);
    const child = join(code, "child.mjs");
    writeFileSync(
      child,
      `import { rotateLedger } from "./runtime/store/rotate.js";
const [dir, killAt] = process.argv.slice(2);
rotateLedger(dir, { before: "2026-11", currentMonth: "2026-11", onStep: (s, m) => { if (s + "@" + m === killAt) process.kill(process.pid, "SIGKILL"); } });
`,
    );
    const dir = join(t.dir, "l");
    seed(dir, 40);
    const before = snapshot(dir);
    let kills = 0;
    for (const month of ["2026-08", "2026-09", "2026-10"]) {
      for (const step of steps) {
        const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
          spawn(process.execPath, [child, dir, `${step}@${month}`], { stdio: "ignore" }).on("close", (_c, s) => resolve(s));
        });
        expect(signal).toBe("SIGKILL");
        kills += 1;
        expect(snapshot(dir)).toEqual(before);
      }
    }
    expect(kills).toBe(15);
    rotateLedger(dir, { before: "2026-11", currentMonth: "2026-11" });
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toEqual(["errata-2026-11.jsonl"]);
  });
});
