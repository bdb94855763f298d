import { spawn } from "node:child_process";
import { readdirSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { repoRoot, runErrata, spotter } from "./helpers.js";
import { built } from "../helpers/built.js";
import { callInProcess } from "../cli/in-process.js";
import type { Io } from "../../cli/shared/io.js";

/**
 * Five `errata daily` runs at once on the same folders (cron plus a hand run is enough)
 * must leave what one run leaves: the same errata with the same statuses, the same
 * exchanges, the same answers. Ids are random per run, so errata are compared by their
 * words and origin; exchanges and answers by their ids and keys.
 */
function snapshot(ledgerDir: string) {
  const rows = readdirSync(ledgerDir)
    .filter((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f))
    .sort()
    .flatMap((f) => readFileSync(join(ledgerDir, f), "utf8").split("\n").filter((l) => l.trim() !== ""))
    .map((l) => JSON.parse(l) as { schema: string; id: string; complaint?: string; kind?: string; source?: string; set?: { status?: string } });
  const status = new Map<string, string>();
  for (const r of rows) if (r.schema === "erratum-patch/1" && r.set?.status) status.set(r.id, r.set.status);
  const errata = rows
    .filter((r) => r.schema === "erratum/1")
    .map((r) => `${r.source}\t${r.kind}\t${r.complaint}\t${status.get(r.id) ?? "new"}`)
    .sort();
  const patches = rows.filter((r) => r.schema === "erratum-patch/1").length;
  const lines = (f: string) => (existsSync(f) ? readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, unknown>) : []);
  const exchanges = lines(join(ledgerDir, "v4", "exchanges.jsonl")).map((e) => String(e["id"])).sort();
  const answers = lines(join(ledgerDir, "v4", "answers.jsonl")).map((a) => `${a["exchange_id"]}\t${a["question_id"]}\t${a["status"]}`).sort();
  return { errata, patches, exchanges, answers };
}

let t = tempDir("errata-5daily-");
afterEach(() => {
  t.cleanup();
  t = tempDir("errata-5daily-");
});

const envFor = (dir: string) => ({ ERRATA_DIR: join(dir, "ledger"), HOME: dir });

/** `errata ARGS` through the compiled CLI's `run(argv, io)` in this process, with a child's environment and folder (test/cli/in-process.ts). */
async function compiledCli(): Promise<(args: string[], env: Record<string, string>) => Promise<{ code: number; stdout: string; stderr: string }>> {
  const { run } = (await import(join(repoRoot, "dist", "cli", "main.js"))) as { run: (argv: string[], io: Io) => Promise<number> };
  return async (args, env) => {
    let stdout = "";
    let stderr = "";
    const io: Io = {
      stdout: { write: (s: string | Uint8Array) => ((stdout += String(s)), true) },
      stderr: { write: (s: string | Uint8Array) => ((stderr += String(s)), true) },
      env: { PATH: process.env["PATH"] ?? "", ...env },
      cwd: repoRoot,
      now: () => Date.now(),
      readStdin: async () => "",
      isTTY: false,
    };
    const r = await callInProcess(run, args, io);
    expect(r.leaks, args.join(" ")).toEqual([]);
    return { code: r.code, stdout, stderr };
  };
}

describe.skipIf(!built)("concurrent daily runs (the run lock)", () => {
  it("five at once with --wait leave the same ledger, exchanges and answers as one run; errata validate passes", async () => {
    const one = join(t.dir, "one");
    const five = join(t.dir, "five");
    const single = await runErrata(["daily", "--root", spotter, "--json"], { env: envFor(one) });
    expect(single.code, single.stderr).toBe(0);
    const runs = await Promise.all(Array.from({ length: 5 }, () => runErrata(["daily", "--root", spotter, "--json", "--wait", "120"], { env: envFor(five) })));
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { ok: boolean }).ok).toBe(true);
    }
    const a = snapshot(join(one, "ledger"));
    const b = snapshot(join(five, "ledger"));
    expect(a.errata.length).toBeGreaterThan(0);
    expect(a.answers.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    // errata validate reads what the processes left (in this process: test 3 says why).
    const v = await (await compiledCli())(["validate"], envFor(five));
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it("without --wait the others exit 2 at once, naming the holder, and write nothing", async () => {
    const runs = await Promise.all(Array.from({ length: 5 }, () => runErrata(["daily", "--root", spotter, "--json"], { env: envFor(t.dir) })));
    const ok = runs.filter((r) => r.code === 0);
    const refused = runs.filter((r) => r.code === 2);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length + refused.length).toBe(5);
    for (const r of refused) {
      expect(r.stderr).toMatch(/another run holds the lock .*run\.lock \(errata daily, pid \d+ on .*, started \d{4}-\d\d-\d\dT/);
      // --json: the refusal is one JSON value on stdout (the CLI contract), and nothing else.
      const err = JSON.parse(r.stdout) as { ok: boolean; error: { code: string } };
      expect(err.ok).toBe(false);
      expect(err.error.code).toBe("RUN_LOCKED");
    }
    const v = await (await compiledCli())(["validate"], envFor(t.dir));
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it("every writing job takes the same lock: weekly, exchanges, rotate, v4 detect, enrich and mine refuse while another run holds it; dry runs do not wait", async () => {
    const env = envFor(t.dir);
    const stateDir = join(t.dir, "ledger", ".state");
    const src = `import("${join(repoRoot, "dist", "runtime", "files", "lock.js")}").then(async (m) => { await m.acquireRunLock(${JSON.stringify(stateDir)}, { job: "errata daily" }); process.stdout.write("held\\n"); setTimeout(() => process.exit(0), 900000); });`;
    // The holder keeps the lock until killed below (15 minutes at most): a minute was tripped on
    // a loaded machine, where the six commands took longer than that to start and answer.
    const holder = spawn(process.execPath, ["--input-type=module", "-e", src], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((r) => holder.stdout.on("data", (d: Buffer) => d.toString().includes("held") && r()));
    try {
      writeFileSync(join(t.dir, "exchanges.jsonl"), "");
      // The holder is another process; the jobs asking for the lock run through the compiled CLI in
      // this one (each a process start of about 1.9 CPU-s otherwise; the tests above start theirs).
      const inProcess = await compiledCli();
      for (const args of [["weekly", "--wait", "0.3"], ["exchanges", "--root", spotter], ["rotate", "--before", "2026-10"], ["v4", "detect", "--exchanges", join(t.dir, "exchanges.jsonl")], ["enrich"], ["mine", "--root", spotter]]) {
        const r = await inProcess(args, env);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.stderr, args.join(" ")).toMatch(new RegExp(`another run holds the lock .*\\(errata daily, pid ${holder.pid} on `));
      }
      expect((await inProcess(["weekly", "--wait", "0.3"], env)).stderr).toMatch(/waited (0\.[3-9]|[1-9]\.\d) s/);
      const dry = await inProcess(["rotate", "--before", "2026-10", "--dry-run"], env);
      expect(dry.code, dry.stderr).toBe(0);
      // The refused runs wrote nothing: the folder holds the lock's state and the empty exchanges file only.
      expect(existsSync(join(t.dir, "ledger", "v4"))).toBe(false);
    } finally {
      holder.kill("SIGKILL");
    }
  });
});
