import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendJsonl, setAppendSeams } from "../../runtime/files/index.js";
import { hookIdentity, identityFile } from "../../runtime/hooks/hook-identity.js";
import { saveLastReply } from "../../runtime/hooks/hook-state.js";
import { appendLine } from "../../runtime/store/append-line.js";
import { tempDir } from "../helpers/io.js";
import { runErrata } from "./helpers.js";
import { built } from "../helpers/built.js";

/**
 * A full disk: an append never leaves a fragment (the file is cut back to its size before
 * the append) and says truly what happened. The seam tests make the device fail in process
 * (a short write, ENOSPC, a failed fsync); the tmpfs tests fill a real 256 KB file system
 * (they need root to mount one, and say so in one line when they cannot).
 */
let t = tempDir("errata-full-");
afterEach(() => {
  setAppendSeams(null);
  t.cleanup();
  t = tempDir("errata-full-");
});

const enospc = (): never => {
  throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
};

describe("appends on a failing device (injected through the append seams)", () => {
  it("a short write is cut back: the file is byte for byte as before, and DISK_FULL (kind io) says nothing was left", () => {
    const f = join(t.dir, "errata-2026-11.jsonl");
    writeFileSync(f, '{"a":1}\n');
    // The device takes the first 5 bytes, then has no room.
    setAppendSeams({ write: (fd, buf) => spawnWrite(fd, buf.subarray(0, 5)) });
    let err: unknown;
    try {
      appendLine(f, JSON.stringify({ b: "x".repeat(8000) }));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: expect.stringMatching(/^(DISK_FULL|SHORT_WRITE)$/), kind: "io" });
    expect((err as Error).message).toContain("nothing was left in the file");
    expect(readFileSync(f, "utf8")).toBe('{"a":1}\n');
  });

  it("ENOSPC on the write: nothing written, DISK_FULL; a later append (room again) is whole and on its own line", () => {
    const f = join(t.dir, "answers.jsonl");
    writeFileSync(f, '{"a":1}\n');
    setAppendSeams({ write: enospc });
    expect(() => appendJsonl(f, [{ a: 2 }, { a: 3 }])).toThrow(/disk full: line not written to .*answers\.jsonl \(expected room for 16 bytes; found ENOSPC\); nothing was left in the file/);
    setAppendSeams(null);
    appendJsonl(f, [{ a: 4 }]);
    expect(readFileSync(f, "utf8")).toBe('{"a":1}\n{"a":4}\n');
  });

  it("a failed fsync cuts the line back too: the caller was told it is not kept, so it is not", () => {
    const f = join(t.dir, "errata-2026-11.jsonl");
    setAppendSeams({ fsync: enospc });
    expect(() => appendLine(f, '{"a":1}', { fsync: true })).toThrow(/disk full/);
    expect(statSync(f).size).toBe(0);
  });

  it("a fragment another writer has appended after is left (never cut under someone else's line), and said so", () => {
    const f = join(t.dir, "errata-2026-11.jsonl");
    writeFileSync(f, '{"a":1}\n');
    setAppendSeams({
      write: (fd, buf) => {
        const n = spawnWrite(fd, buf.subarray(0, 4));
        spawnWrite(fd, Buffer.from('{"other":1}\n'));
        return n;
      },
    });
    expect(() => appendLine(f, '{"mine":"xxxxxxxx"}')).toThrow(/a fragment of 4 bytes could not be cut back/);
    expect(readFileSync(f, "utf8")).toBe('{"a":1}\n{"mi{"other":1}\n');
  });
});

/** Writes through the real descriptor (the seam's stand-in for the device taking some bytes). */
function spawnWrite(fd: number, buf: Buffer): number {
  return writeSync(fd, buf, 0, buf.length);
}

// ---- a real full file system -------------------------------------------------------------

function mountTmpfs(dir: string, size: string): boolean {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  mkdirSync(dir, { recursive: true });
  return spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]).status === 0;
}

const probeDir = tempDir("errata-tmpfs-probe-");
const canMount = mountTmpfs(join(probeDir.dir, "m"), "64k");
if (canMount) spawnSync("umount", [join(probeDir.dir, "m")]);
rmSync(probeDir.dir, { recursive: true, force: true });
if (!canMount) console.log("SKIP full disk on a real tmpfs: mounting one needs root on Linux (the injected-failure tests above still ran)");

/** Fills the file system of `dir` until fewer than `leave` bytes are free. */
function fill(dir: string, leave: number): void {
  const free = (): number => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  let i = 0;
  while (free() > leave) {
    const n = Math.max(1, Math.min(64 * 1024, free() - leave));
    try {
      writeFileSync(join(dir, `filler-${i++}`), Buffer.alloc(n, 0x20));
    } catch {
      break;
    }
  }
}

function tempFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/\.tmp$|\.tmp\./.test(e.name)) out.push(join(d, e.name));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

describe.skipIf(!canMount || !built)("a real full disk (a 256 KB tmpfs)", () => {
  let mnt = "";
  afterEach(() => {
    if (mnt !== "") spawnSync("umount", [mnt]);
    mnt = "";
  });

  it("the hook: one stderr line 'not captured: disk full', exit 0, no fragment, no temp file; add: a coded error, exit 2, no stack; validate still passes", async () => {
    mnt = join(t.dir, "mnt");
    expect(mountTmpfs(mnt, "256k")).toBe(true);
    const ledger = join(mnt, "ledger");
    const env = { ERRATA_DIR: ledger, HOME: t.dir };
    // One capture and one add while there is room: the identity, the reporter key and the month file exist.
    const first = await runErrata(["hook", "user-prompt-submit"], { env, input: JSON.stringify({ session_id: "s1", prompt: "No, that is wrong." }) });
    expect(first.stdout).toMatch(/captured/);
    expect((await runErrata(["add", "it pushed to main"], { env })).code).toBe(0);
    const month = readdirSync(ledger).find((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f))!;
    const before = readFileSync(join(ledger, month));
    fill(mnt, 2048);

    const big = `No, that is wrong. ${"the config loader again ".repeat(400)}`;
    const hook = await runErrata(["hook", "user-prompt-submit"], { env, input: JSON.stringify({ session_id: "s1", prompt: big }) });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toBe("");
    expect(hook.stderr).toBe("errata hook: not captured: disk full\n");

    const add = await runErrata(["add", `bug: ${"it deleted the wrong branch ".repeat(400)}`], { env });
    expect(add.code).toBe(2);
    expect(add.stderr).toMatch(/^errata: disk full: line not written to .*errata-\d{4}-\d\d\.jsonl \(expected room for \d+ bytes; found (ENOSPC|room for \d+)\); nothing was left in the file\n$/);
    expect(add.stderr).not.toMatch(/\n\s+at /);

    expect(readFileSync(join(ledger, month)).equals(before)).toBe(true);
    expect(tempFiles(mnt)).toEqual([]);
    const v = await runErrata(["validate"], { env });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it("the hook's state files: the Stop hook's kept reply and the identity cache leave no temp file on a full disk", async () => {
    mnt = join(t.dir, "mnt");
    expect(mountTmpfs(mnt, "256k")).toBe(true);
    const ledger = join(mnt, "ledger");
    const stateDir = join(ledger, ".state");
    const env = { ERRATA_DIR: ledger, HOME: t.dir };
    // While there is room: a capture makes the reporter key and the identity cache.
    const first = await runErrata(["hook", "user-prompt-submit"], { env, input: JSON.stringify({ session_id: "s1", prompt: "No, that is wrong." }) });
    expect(first.stdout).toMatch(/captured/);
    expect(existsSync(identityFile(stateDir))).toBe(true);
    fill(mnt, 2048);

    // The Stop hook keeps a reply larger than the room left: one stderr line, exit 0, no temp file.
    const stop = await runErrata(["hook", "stop"], { env, input: JSON.stringify({ session_id: "s2", last_assistant_message: "Done. ".repeat(4000) }) });
    expect(stop.code).toBe(0);
    expect(stop.stderr).toMatch(/disk full/);
    expect(tempFiles(mnt)).toEqual([]);
    // In process: the write fails truly (ENOSPC) and leaves nothing.
    expect(() => saveLastReply(stateDir, { session_id: "s3", ts: new Date(0).toISOString(), reply: "x".repeat(64 * 1024), model: null }, 0, null)).toThrow(/ENOSPC/);
    expect(tempFiles(mnt)).toEqual([]);
    // The identity cache of another user cannot be rewritten: the identity is still returned, no temp file left.
    const id = hookIdentity(stateDir, "another-user", "laptop");
    expect(id.reporter).toMatch(/^rp-[0-9a-f]{16}$/);
    expect(tempFiles(mnt)).toEqual([]);
  });
});
