import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { bin, runErrata } from "./helpers.js";
import { ledgerLines } from "../hooks/hook-helpers.js";
import { built } from "../helpers/built.js";

/**
 * The hook runs in the host's typing path: nothing it is handed may hold it. A FIFO nobody
 * writes to, /dev/zero (never ends) or a directory as transcript_path, and a stdin far over
 * the 16 MB cap, all return at once with one line on stderr and exit 0.
 */
let t = tempDir("errata-hookblock-");
afterEach(() => {
  t.cleanup();
  t = tempDir("errata-hookblock-");
});

const env = () => ({ ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir });
/** Killed after this long: a hook still running then was blocked. */
const HANG_MS = 2000;

function fifo(): string {
  const p = join(t.dir, "transcript.fifo");
  const r = spawnSync("mkfifo", [p]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
  return p;
}

describe.skipIf(!built)("a hook that cannot be blocked", () => {
  it("a FIFO as transcript_path: the prompt hook returns in under 2 s, still captures, and says why it skipped the transcript", async () => {
    const r = await runErrata(["hook", "user-prompt-submit"], { env: env(), input: JSON.stringify({ session_id: "s1", prompt: "No, that is wrong.", transcript_path: fifo() }), killAfterMs: HANG_MS });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/captured this prompt as a correction/);
    expect(r.stderr).toMatch(/transcript unreadable \(.*transcript\.fifo is not a regular file \(expected a transcript \.jsonl file; found a FIFO\)\)/);
    expect(ledgerLines(join(t.dir, "ledger"))).toHaveLength(1);
  });

  it("a FIFO as transcript_path: the stop hook returns in under 2 s", async () => {
    const r = await runErrata(["hook", "stop"], { env: env(), input: JSON.stringify({ session_id: "s1", transcript_path: fifo() }), killAfterMs: HANG_MS });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/found a FIFO/);
  });

  it("/dev/zero and a directory as transcript_path are refused by what they are, not read", async () => {
    const dir = join(t.dir, "a-folder");
    mkdirSync(dir);
    for (const [path, what] of [["/dev/zero", "a character device"], [dir, "a directory"]] as const) {
      const r = await runErrata(["hook", "user-prompt-submit"], { env: env(), input: JSON.stringify({ session_id: "s1", prompt: "No, that is wrong.", transcript_path: path }), killAfterMs: HANG_MS });
      expect(r.signal, path).toBeNull();
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`found ${what}`);
    }
  });

  it("100 MB of stdin: refused as over the cap, read and dropped as it comes (peak memory under 64 MB)", async () => {
    // A wrapper that runs the package bin and prints the process's peak RSS as it exits.
    const wrap = join(t.dir, "wrap.cjs");
    writeFileSync(wrap, `process.on("exit", () => require("fs").writeSync(2, "maxrss_kb " + process.resourceUsage().maxRSS + "\\n"));\nrequire(${JSON.stringify(bin)}).main(process.argv.slice(2));\n`);
    const run = (feed: (w: NodeJS.WritableStream) => void) =>
      new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [wrap, "hook", "user-prompt-submit"], { env: { PATH: process.env["PATH"] ?? "", ...env() }, stdio: ["pipe", "ignore", "pipe"] });
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.stdin.on("error", () => undefined);
        child.on("close", (code) => done({ code, stderr }));
        feed(child.stdin);
      });
    const mb = Buffer.alloc(1024 * 1024, 0x61);
    const big = await run((w) => {
      let sent = 0;
      const more = (): void => {
        while (sent < 100) {
          sent++;
          if (!w.write(mb)) return void w.once("drain", more);
        }
        w.end();
      };
      more();
    });
    expect(big.code).toBe(0);
    expect(big.stderr).toContain("stdin over 16777216 bytes (expected the hook's JSON under the cap); nothing captured");
    const peakKb = Number(/maxrss_kb (\d+)/.exec(big.stderr)?.[1]);
    const small = await run((w) => w.end(JSON.stringify({ session_id: "s1", prompt: "ok thanks" })));
    const baseKb = Number(/maxrss_kb (\d+)/.exec(small.stderr)?.[1]);
    console.log(`hook peak RSS: ${Math.round(peakKb / 1024)} MB with 100 MB of stdin, ${Math.round(baseKb / 1024)} MB with a one-line prompt`);
    expect(peakKb).toBeGreaterThan(0);
    expect(peakKb).toBeLessThan(64 * 1024);
  });
});
