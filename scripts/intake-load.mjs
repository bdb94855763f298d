#!/usr/bin/env node
// The intake server's loopback load test (docs/scale.md): many concurrent clients post
// errata (each with its own idempotency key) and http hook calls to `errata serve` on
// 127.0.0.1, the server is SIGKILLed part-way and started again on the same port, and every
// client retries what was not acknowledged with the same key. At the end every erratum a
// client posted must be in the store exactly once: 0 lost, 0 duplicated. Bounded in count
// (--requests) and time (--max-seconds); it stops by itself and kills what it started.
//
// Usage: npm run build && node scripts/intake-load.mjs [--requests 4000] [--concurrency 32]
//          [--hook-share 0.3] [--kill-at 0.4] [--database postgres://...] [--seed 1] [--json]
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(repo, "bin", "errata.cjs");
const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const REQUESTS = Number(flag("requests", "4000"));
const CONCURRENCY = Number(flag("concurrency", "32"));
const HOOK_SHARE = Number(flag("hook-share", "0.3"));
const KILL_AT = Number(flag("kill-at", "0.4"));
const MAX_SECONDS = Number(flag("max-seconds", "300"));
const DATABASE = flag("database", undefined);
const SEED = Number(flag("seed", "1"));
const JSON_OUT = args.includes("--json");
for (const [k, v] of Object.entries({ REQUESTS, CONCURRENCY, HOOK_SHARE, KILL_AT, MAX_SECONDS, SEED })) {
  if (!Number.isFinite(v) || v < 0) {
    process.stderr.write(`intake-load: bad ${k} (expected a number >= 0; found ${v})\n`);
    process.exit(2);
  }
}

// mulberry32: the same draws for the same --seed.
let s = SEED >>> 0;
const rand = () => {
  s = (s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const dir = mkdtempSync(join(tmpdir(), "errata-load-"));
const env = { ...process.env, ...(DATABASE ? { ERRATA_DATABASE_URL: DATABASE } : {}) };
const deadline = Date.now() + MAX_SECONDS * 1000;
const say = (line) => process.stderr.write(`intake-load: ${line}\n`);

const port = await new Promise((res) => {
  const srv = createServer();
  srv.listen(0, "127.0.0.1", () => {
    const p = srv.address().port;
    srv.close(() => res(p));
  });
});
const base = `http://127.0.0.1:${port}`;
const tenantFlags = ["--dir", join(dir, "srv")];
const token = /: (et_\S+)$/m.exec(execFileSync(process.execPath, [bin, "tenants", "add", "load", "--label", "app", ...tenantFlags], { env, encoding: "utf8" }))[1];
const devToken = /: (et_\S+)$/m.exec(execFileSync(process.execPath, [bin, "tenants", "add", "load", "--label", "dev1", ...tenantFlags], { env, encoding: "utf8" }))[1];

let server = null;
function startServer() {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [bin, "serve", ...tenantFlags, "--port", String(port), "--rate", "10000000"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b) => {
      out += b;
      if (out.includes("listening")) res(child);
    });
    child.stderr.on("data", (b) => (out += b));
    child.on("exit", (code) => rej(new Error(`server exited ${code} before listening: ${out.slice(-300)}`)));
  });
}

const lat = { intake: [], hook: [] };
let phase = "steady";
let acked = 0;
let retries = 0;
let sent = 0;
const ackedIds = new Map(); // key -> id
let killedAt = null;
let restartMs = null;

async function post(path, body, headers, kind) {
  for (;;) {
    if (Date.now() > deadline) throw new Error("time limit reached");
    const t0 = performance.now();
    try {
      sent++;
      const r = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
      const text = await r.text();
      if (r.status >= 500 || r.status === 429) throw new Error(`status ${r.status}`);
      if (r.status >= 400) throw Object.assign(new Error(`refused ${r.status}: ${text.slice(0, 200)}`), { fatal: true });
      if (phase === "steady") lat[kind].push(performance.now() - t0);
      return JSON.parse(text);
    } catch (err) {
      if (err.fatal) throw err;
      retries++;
      await new Promise((r) => setTimeout(r, 20 + rand() * 80));
    }
  }
}

const prompts = ["add a test for the parser", "now rename the module", "No, that is wrong. Use pnpm, not npm.", "run the linter", "thanks, that works"];
let next = 0;
async function worker(w) {
  for (;;) {
    const i = next++;
    if (i >= REQUESTS) return;
    if (killedAt === null && i >= REQUESTS * KILL_AT && KILL_AT > 0) {
      killedAt = i;
      phase = "restart";
      const t0 = performance.now();
      server.kill("SIGKILL");
      await new Promise((r) => server.once("exit", r));
      server = await startServer();
      restartMs = performance.now() - t0;
      phase = "steady";
    }
    if (rand() < HOOK_SHARE) {
      const prompt = prompts[Math.floor(rand() * prompts.length)];
      const route = rand() < 0.5 ? "user-prompt-submit" : "pre-tool-use";
      const body = route === "user-prompt-submit" ? { session_id: `w${w}`, prompt } : { session_id: `w${w}`, tool_name: "Bash", tool_input: { command: "ls" } };
      await post(`/v1/hooks/${route}`, body, { authorization: `Bearer ${devToken}` }, "hook");
    } else {
      const key = `load-${SEED}-${i}`;
      const r = await post("/v1/errata", { complaint: `load test complaint ${i}: the export dropped a column`, reporter: { id: `user${i % 97}@example.com` }, rating: 1 + (i % 10) }, { authorization: `Bearer ${token}`, "idempotency-key": key }, "intake");
      ackedIds.set(key, r.errata[0].id);
      acked++;
    }
  }
}

const pct = (xs, p) => {
  if (xs.length === 0) return null;
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.ceil((p / 100) * a.length) - 1)];
};

let result;
try {
  server = await startServer();
  say(`server on ${base} (${DATABASE ? "postgres" : "jsonl"} store); ${REQUESTS} requests, ${CONCURRENCY} clients`);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const seconds = (performance.now() - t0) / 1000;
  // Read everything back.
  const seen = new Map();
  let after = 0;
  for (;;) {
    const r = await (await fetch(`${base}/v1/errata?after=${after}&limit=500`, { headers: { authorization: `Bearer ${token}` } })).json();
    for (const item of r.errata) seen.set(item.erratum.id, (seen.get(item.erratum.id) ?? 0) + 1);
    if (r.next === null) break;
    after = r.next;
  }
  const lost = [...ackedIds.values()].filter((id) => !seen.has(id)).length;
  const duplicated = [...seen.values()].filter((n) => n > 1).length + Math.max(0, seen.size - ackedIds.size);
  result = {
    store: DATABASE ? "postgres" : "jsonl",
    requests: REQUESTS, concurrency: CONCURRENCY, seed: SEED,
    intake_acknowledged: acked, hook_calls: lat.hook.length, sent, retries,
    killed_at_request: killedAt, restart_ms: restartMs === null ? null : Math.round(restartMs),
    stored: seen.size, lost, duplicated,
    seconds: Number(seconds.toFixed(2)), throughput_rps: Number((REQUESTS / seconds).toFixed(1)),
    intake_ms: { p50: Number(pct(lat.intake, 50)?.toFixed(2)), p99: Number(pct(lat.intake, 99)?.toFixed(2)) },
    hook_ms: { p50: Number(pct(lat.hook, 50)?.toFixed(2)), p99: Number(pct(lat.hook, 99)?.toFixed(2)) },
  };
} finally {
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
if (JSON_OUT) process.stdout.write(`${JSON.stringify(result)}\n`);
else for (const [k, v] of Object.entries(result)) process.stdout.write(`${k}: ${typeof v === "object" && v !== null ? JSON.stringify(v) : v}\n`);
process.exit(result.lost === 0 && result.duplicated === 0 ? 0 : 1);
