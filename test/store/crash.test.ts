/**
 * Crash and concurrency guarantees of the append path, with real processes:
 * - a child appending in a loop, killed with SIGKILL at random moments (>= 50 times): every
 *   line it acknowledged (printed its id after `appendLine` returned) reads back intact;
 * - 8 processes x 500 lines into one month: 4,000 intact lines, none interleaved, no blank line.
 */
import { mulberry32 } from "../../eval/prng.js";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLedger } from "../../runtime/store/index.js";
import type { ErrataPaths } from "../../runtime/paths.js";
import { tempDir } from "../helpers/io.js";
import { RAW_WRITE_FILES, compileForChild } from "./compile-for-child.js";
import { assertRecordHasNoText } from "./record-guard.js";

let t: { dir: string; cleanup: () => void };
let childScript: string;

// The child appends full erratum lines through the hook's zod-free write path. Each line's
// complaint encodes (proc, seq) and a padding whose length derives from them, so the parent
// can check every byte. Sizes vary from ~300 B to ~40 KB so a kill can land mid-write.
const CHILD = `
import { appendErratumRaw } from "./runtime/store/raw-append.js";
const [ledgerDir, stateDir, proc, count, start, padMax] = process.argv.slice(2);
const n = Number(count);
for (let i = Number(start); i < Number(start) + n; i++) {
  const pad = "x".repeat(((Number(proc) * 7919 + i * 104729) % Number(padMax)));
  const hex = ((Number(proc) << 16) + i).toString(16).padStart(6, "0").slice(-6);
  const id = "er-20261130-" + hex;
  const e = {
    schema: "erratum/1", id, ts: "2026-11-30T12:00:00.000Z", system: "assistant", instance: "i-0123456789ab",
    target: "instance", source: "hook", channel: "hook", kind: "complaint", rating: null, frustration: null,
    complaint: "proc " + proc + " seq " + i + " " + pad,
    context: { requested: null, doing: null, response_preview: null, response_hash: null, session_id: "s" + proc,
      output_ids: [], component: null, cwd: null, version: null, model: null },
    reporter: { id: "rp-0123456789abcdef", role: "hook" }, enrichment: null, status: "new", links: {} };
  appendErratumRaw({ ledgerDir, stateDir }, e, (l) => process.stderr.write(l + "\\n"));
  process.stdout.write(id + "\\n");
}
`;

const KILL_PAD = 40000;
const CONCURRENT_PAD = 12000;

function expectedComplaint(proc: number, i: number, padMax: number): string {
  return `proc ${proc} seq ${i} ${"x".repeat((proc * 7919 + i * 104729) % padMax)}`;
}

beforeAll(() => {
  t = tempDir("errata-crash-");
  compileForChild(join(t.dir, "code"), RAW_WRITE_FILES);
  childScript = join(t.dir, "code", "child.mjs");
  writeFileSync(childScript, CHILD);
});
afterAll(() => t.cleanup());

function paths(ledgerDir: string): ErrataPaths {
  return { ledgerDir, stateDir: join(ledgerDir, ".state"), v4Dir: join(ledgerDir, "v4"), attachmentsDir: join(ledgerDir, ".state", "att"), isDefaultLedger: false };
}

/** Runs a child; kills it with SIGKILL after `killAfterMs` (if given). Resolves with the ids it acknowledged. */
function runChild(ledgerDir: string, proc: number, count: number, start: number, padMax: number, killAfterMs?: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, ledgerDir, join(ledgerDir, ".state"), String(proc), String(count), String(start), String(padMax)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    let timer: NodeJS.Timeout | undefined;
    // Arm the kill once the child has acknowledged its first line, so kills land mid-loop.
    if (killAfterMs !== undefined) {
      child.stdout.once("data", () => {
        timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
      });
    }
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      if (killAfterMs === undefined && code !== 0) return reject(new Error(`child failed (${code}): ${err}`));
      if (signal !== null && signal !== "SIGKILL") return reject(new Error(`child died of ${signal}`));
      // Only whole lines count as acknowledged.
      resolve(out.split("\n").slice(0, -1));
    });
  });
}

const seeded = mulberry32;

describe("append survives SIGKILL", () => {
  it("every acknowledged line reads back intact after 50 kills at random moments", async () => {
    // 5 streams of 10 kills each, in parallel on their own ledgers (process start dominates).
    const streams = await Promise.all(
      Array.from({ length: 5 }, async (_, s) => {
        const ledgerDir = join(t.dir, `kill-${s}`);
        const rand = seeded(20261130 + s);
        const acknowledged: string[] = [];
        let start = 0;
        let killedMidLoop = 0;
        for (let k = 0; k < 10; k++) {
          const ids = await runChild(ledgerDir, s, 100000, start, KILL_PAD, Math.floor(rand() * 40));
          acknowledged.push(...ids);
          if (ids.length < 100000) killedMidLoop += 1;
          start += 100000; // a fresh seq range per run, so ids never repeat
        }
        return { ledgerDir, acknowledged, killedMidLoop };
      }),
    );
    for (const { ledgerDir, acknowledged, killedMidLoop } of streams) {
      expect(killedMidLoop).toBe(10);
      expect(acknowledged.length).toBeGreaterThan(10);
      const { errata, problems } = openLedger(paths(ledgerDir), { systems: new Set(["assistant"]) }).readAll();
      const byId = new Map(errata.map((f) => [f.erratum.id, f.erratum]));
      for (const id of acknowledged) {
        const e = byId.get(id);
        expect(e, `acknowledged ${id} missing`).toBeDefined();
        const m = /^proc (\d+) seq (\d+) /.exec(e!.complaint);
        expect(e!.complaint).toBe(expectedComplaint(Number(m![1]), Number(m![2]), KILL_PAD));
      }
      // A problem can only be a line the kill cut short, never an acknowledged one.
      for (const p of problems) expect(["torn-tail", "malformed-json"]).toContain(p.code);
      for (const e of errata) {
        const m = /^proc (\d+) seq (\d+) /.exec(e.erratum.complaint);
        expect(e.erratum.complaint).toBe(expectedComplaint(Number(m![1]), Number(m![2]), KILL_PAD));
      }
      assertRecordHasNoText(join(ledgerDir, ".state", "record.jsonl"), ledgerDir);
    }
  });
});

describe("concurrent appenders", () => {
  it("8 processes x 500 lines into one month: 4,000 intact lines, none interleaved", async () => {
    const ledgerDir = join(t.dir, "concurrent");
    const results = await Promise.all(Array.from({ length: 8 }, (_, p) => runChild(ledgerDir, p, 500, 0, CONCURRENT_PAD)));
    expect(results.map((r) => r.length)).toEqual(Array(8).fill(500));
    const raw = readFileSync(join(ledgerDir, "errata-2026-11.jsonl"), "utf8");
    const all = raw.split("\n");
    expect(all.pop()).toBe("");
    // No extras at all: an appender that sees another's line half-written waits for that
    // write to end before deciding whether the tail is torn, so no blank line is left.
    expect(all.filter((l) => l === "")).toHaveLength(0);
    const lines = all.filter((l) => l !== "");
    expect(lines).toHaveLength(4000);
    const seen = new Map<number, number[]>();
    for (const line of lines) {
      const e = JSON.parse(line); // an interleaved line would not parse
      const m = /^proc (\d+) seq (\d+) /.exec(e.complaint)!;
      const proc = Number(m[1]);
      const seq = Number(m[2]);
      expect(e.complaint).toBe(expectedComplaint(proc, seq, CONCURRENT_PAD));
      seen.set(proc, [...(seen.get(proc) ?? []), seq]);
    }
    // Each process's lines are all there, in its own order.
    for (let p = 0; p < 8; p++) expect(seen.get(p)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    const { errata, problems } = openLedger(paths(ledgerDir), { systems: new Set(["assistant"]) }).readAll();
    expect(errata).toHaveLength(4000);
    expect(problems).toEqual([]);
    expect(assertRecordHasNoText(join(ledgerDir, ".state", "record.jsonl"), ledgerDir)).toBe(4000);
  });
});
