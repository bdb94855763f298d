#!/usr/bin/env node
// Issue 34 walked as a user: Errata packed and installed as the README says, the real Claude Code
// client against a scripted model, seeded synthetic secrets planted in the owner's prompts and
// corrections, the project's files, tool outputs, the model's replies and CLAUDE.md; then what an
// owner runs (captures, `errata add`, `secrets learn`, `daily`, the rules wing and an approval,
// reports, the mod, exports, the intake server on JSONL and on PostgreSQL after `secrets push`),
// every model lane
// pointed at a loopback server that records each request; then every file under the scratch
// HOME, the project, the install prefix (what changed during the walk), the server's folder and
// a dump of the database, and every request body, is searched for each secret and each
// 8-character fragment of it. Files the owner planted and files the client writes itself (its
// transcripts, its settings) are listed apart: they are not Errata's. docs/privacy.md, "Walked
// as a user".
//
// Usage: node scripts/walk-privacy.mjs [--seed N] [--keep] [--no-pg] [--no-server]
// Needs `npm run build` (the walk imports the e2e helpers from dist/test/) and the pinned client
// (`node scripts/claude-code.mjs install`); PostgreSQL's binaries for the database part.
// Exit 0: no secret of the walk in clear in a file Errata wrote or a request to a model; 1: each leak listed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { gunzipSync, inflateRawSync } from "node:zlib";

const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const seed = Number(args[args.indexOf("--seed") + 1] ?? 0) || 20261207;
const client = await import("../dist/test/e2e/client.js");
const { startModelServer } = await import("../dist/test/e2e/model-server.js");
const started = Date.now();
const log = (s) => process.stdout.write(`walk: [${((Date.now() - started) / 1000).toFixed(0)} s] ${s}\n`);

// ---- the secrets, drawn from a seeded generator (mulberry32: small and reproducible) ----
let st = seed >>> 0;
const rnd = () => {
  st = (st + 0x6d2b79f5) >>> 0;
  let t = st;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const draw = (alpha, n) => Array.from({ length: n }, () => alpha[Math.floor(rnd() * alpha.length)]).join("");
// Mixed case and a digit, so the known-value scrubber remembers it (one-case words it does not).
const mixed = (n) => {
  for (;;) {
    const s = draw(B62, n);
    if (/[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s)) return s;
  }
};
const keyBody = Array.from({ length: 6 }, () => draw(`${B62}+/`, 70)).join("\n");
const S = {
  github_pat: `ghp_${mixed(36)}`,
  anthropic_key: `sk-ant-api03-${draw(`${B62}-_`, 93)}AA`,
  aws_access_key_id: `AKIA${draw("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`,
  aws_secret: draw(`${B62}+/`, 40),
  slack_bot: `xoxb-${draw("0123456789", 12)}-${draw("0123456789", 13)}-${mixed(24)}`,
  stripe_live: `sk_live_${mixed(24)}`,
  pg_password: mixed(18),
  bearer: mixed(40),
  env_signing_secret: mixed(32), // PAYMENTS_SIGNING_SECRET in the owner's environment and .env
  private_key_body: keyBody,
  known_env_bare: mixed(20), // VENDOR_SESSION_TOKEN in the environment; typed bare in prose
  known_dotenv_bare: mixed(22), // ORDERS_DB_PASS in the project's .env; typed bare in prose
  known_dotenv_reply: mixed(24), // REPORTS_API_KEY in the project's .env; in the model's reply, bare
  npm_token: `npm_${mixed(36)}`,
};
const privateKey = `-----BEGIN OPENSSH PRIVATE KEY-----\n${S.private_key_body}\n-----END OPENSSH PRIVATE KEY-----`;
const pgUrl = `postgresql://orders:${S.pg_password}@db.internal:5432/orders`;
const secretEnv = {
  GITHUB_TOKEN: S.github_pat,
  PAYMENTS_SIGNING_SECRET: S.env_signing_secret,
  VENDOR_SESSION_TOKEN: S.known_env_bare,
};

// ---- the install and the workspace ----
// --search DIR: search a kept walk's folder again (the secrets come from the seed), run nothing.
const searchOnly = flag("--search") ? args[args.indexOf("--search") + 1] : null;
const root = searchOnly ?? mkdtempSync(join(tmpdir(), "errata-walk-"));
const bin = await client.installErrata();
const prefix = dirname(dirname(bin));
const t0 = Date.now();
log(`errata installed (${prefix}); walk folder ${root}; seed ${seed}`);
const hooks = client.readmeHooks();
hooks.PostToolUse = [{ matcher: "*", hooks: [{ type: "command", command: "errata-tool-hook post-tool-use" }] }];
const CLAUDE_MD = `# Shop\n\n## Tools\n\n- Use pnpm, never npm.\n- Never print a secret in a reply.\n\n## Deploy\n\n- Deploy with \`STRIPE_SECRET_KEY=${S.stripe_live} ./deploy.sh\`.\n`;
const ws = searchOnly ? { home: join(root, "home"), project: join(root, "project"), bin } : client.workspace(root, bin, { hooks, claudeMd: CLAUDE_MD });
const planted = new Map(); // path -> why (the owner's own files: expected to hold secrets)
const plant = (rel, text) => {
  const p = join(ws.project, rel);
  mkdirSync(dirname(p), { recursive: true });
  if (!searchOnly) writeFileSync(p, text);
  planted.set(p, "planted by the walk");
};
planted.set(join(ws.project, "CLAUDE.md"), "planted by the walk (CLAUDE.md)");
plant(".env", `PAYMENTS_SIGNING_SECRET=${S.env_signing_secret}\nORDERS_DB_PASS=${S.known_dotenv_bare}\nREPORTS_API_KEY=${S.known_dotenv_reply}\nDATABASE_URL=${pgUrl}\n`);
plant("config/database.yml", `production:\n  url: ${pgUrl}\n  aws_access_key_id: ${S.aws_access_key_id}\n  aws_secret_access_key: ${S.aws_secret}\n`);
plant("deploy/id_ed25519", `${privateKey}\n`);
plant("package.json", `{"name":"shop","version":"1.0.0"}\n`);
const env = { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: ws.home, ...secretEnv };
const errata = (argv, opts = {}) => {
  const r = spawnSync(join(bin, "errata"), argv, { cwd: opts.cwd ?? ws.project, env: { ...env, ...(opts.env ?? {}) }, encoding: "utf8", input: opts.input });
  log(`errata ${argv.join(" ")}: exit ${r.status}${r.status !== 0 ? `: ${r.stderr.slice(0, 300)}` : ""}`);
  return r;
};
const keep = (what, r) => outputs.push({ what, text: `${r.stdout ?? ""}\n${r.stderr ?? ""}` });

const outputs = []; // what the commands printed (not files; searched and reported apart)
const heldBack = new Map(); // variable name -> why `secrets push` did not send it (its output: names, never values)
const srv = join(root, "srv");
const project2 = join(root, "project2");
let pg = null;
let lane = null; // the loopback model server (below)
const laneRecord = join(root, "model-lane", "requests.jsonl"); // the walk's own record: not searched as a file
const LANE_SERVER = `
const { appendFileSync } = require("node:fs");
const server = require("node:http").createServer((req, res) => {
  const chunks = [];
  req.on("data", (d) => chunks.push(d));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    appendFileSync(process.argv[1], JSON.stringify({ path: req.url, body }) + "\\n");
    // A judge's question is answered yes (so the v4 pass finds failures and asks its diagnose
    // questions too). The enrichment and the reviewer are answered in their shapes, quoting a
    // planted token (a model that echoes a secret: what Errata writes of a reply must hold none);
    // any other prompt gets an empty object.
    const tok = process.argv[2];
    const content = body.includes("You judge one moment")
      ? JSON.stringify({ answer: "yes", confidence: 0.9 })
      : body.includes("You read one complaint")
        ? JSON.stringify({ how_upset: 2, which_part: "the reply", what_upset: "it printed " + tok, reporter_right: true, reporter_right_reason: "the key " + tok + " was shown", root_cause_hypothesis: "it echoed " + tok, class: null, proposed_fix: "never print " + tok, confidence: 0.8 })
        : body.includes("You review changes")
          ? JSON.stringify({ against: "the evidence quotes " + tok + " and is thin" })
          : "{}";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: "chatcmpl-walk", object: "chat.completion", created: 0, model: "walk", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
// Ends with the walk, even one that failed half-way: its stdin closes when the walk's process exits.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
`;
let pgDump = existsSync(join(root, "pg-dump.sql")) ? join(root, "pg-dump.sql") : null;
planted.set(join(project2, ".env"), "planted by the walk");
planted.set(join(root, "notes-to-attach.txt"), "planted by the walk (an attachment's source)");
if (!searchOnly) await walk();
async function walk() {
// The model lanes pointed at a loopback OpenAI-compatible server that records every request
// body (what would leave the machine) and answers it (below): the engine
// config names it as the enrichment, generative and reviewer lane for every command of the walk
// (mode structured: no probe, every question sent), and `v4 detect`/`v4 diagnose --lane openai`
// below judge the exchanges on it (the daily's v4 pass keeps the embedded lane, so the reports
// after it have diagnosed failures to show). It runs in a process of
// its own: the walk's commands run with spawnSync, which holds this process's event loop.
mkdirSync(dirname(laneRecord), { recursive: true });
lane = spawn(process.execPath, ["-e", LANE_SERVER, laneRecord, S.github_pat], { stdio: ["pipe", "pipe", "inherit"] });
const lanePort = await new Promise((done) => lane.stdout.once("data", (d) => done(Number(String(d).trim()))));
const ledgerDir = join(ws.home, ".local", "share", "errata");
mkdirSync(ledgerDir, { recursive: true });
writeFileSync(join(ledgerDir, "errata-engine.json"), JSON.stringify({ schema: "engine-config/1", lanes: { openai: { kind: "openai", baseURL: `http://127.0.0.1:${lanePort}/v1`, model: "walk", mode: "structured" } }, generative: "openai", reviewer: "openai" }));
planted.set(join(ledgerDir, "errata-engine.json"), "planted by the walk (the engine config)");
// The owner, as the README's install paragraph says, remembers their secrets first.
keep("secrets learn (first)", errata(["secrets", "learn", "--json"]));
keep("rules build", errata(["rules", "build", "--json"]));

// ---- the sessions ----
const server = await startModelServer();
const sessionArgs = { args: ["--allowedTools", "Read"], env: secretEnv };
async function session(turns, prompts, w = ws, opts = sessionArgs) {
  server.script(turns);
  const s = client.clientSession(w, server.url, opts);
  for (const p of prompts) {
    const r = await s.turn(p);
    if (r.is_error) log(`turn error: ${r.result.slice(0, 200)}`);
  }
  const end = await s.end();
  if (end.code !== 0) log(`client exit ${end.code}: ${end.stderr.slice(-300)}`);
  if (server.pending() !== 0) log(`script left ${server.pending()} turns`);
}
// Session 1: the model reads the project's files and prints the environment; the owner corrects it.
await session(
  [
    { tool: "Read", input: { file_path: join(ws.project, "config", "database.yml") } },
    { tool: "Bash", input: { command: "cat .env", description: "Show the env file" } },
    { tool: "Bash", input: { command: "env | grep -E 'TOKEN|SECRET' | sort", description: "Show the secret env" } },
    { tool: "Bash", input: { command: `curl -sS -f -H "Authorization: Bearer ${S.bearer}" http://127.0.0.1:9/deploy || echo "curl failed with Authorization: Bearer ${S.bearer}"`, description: "Try the deploy hook" } },
    { text: `The deploy failed. I found the database password ${S.pg_password} and the reports key ${S.known_dotenv_reply}; I ran npm install to fix it. Your Anthropic key is ${S.anthropic_key}.` },
    { tool: "Bash", input: { command: "cat deploy/id_ed25519", description: "Show the deploy key" } },
    { text: `Here is the key:\n${privateKey}` },
  ],
  [
    `Why does the deploy fail? The staging password is ${S.known_dotenv_bare} if you need it.`,
    `No, that's wrong. I told you to use pnpm, not npm, and never to print secrets like ${S.known_env_bare} or ${S.github_pat} in a reply.`,
  ],
);
log("session 1 done");
// Session 2: secrets in the owner's correction itself.
await session(
  [
    { tool: "Bash", input: { command: "npm ls --depth=0", description: "List the packages" } },
    { text: `Listed with npm. The Slack token ${S.slack_bot} is in the CI config.` },
  ],
  [
    "Which packages does the project have?",
    `No, wrong again, use pnpm not npm! And rotate AWS ${S.aws_access_key_id} / ${S.aws_secret}, the db url is ${pgUrl}, the value ${S.known_dotenv_bare} too. Also this is the key you printed: ${privateKey}`,
  ],
);
log("session 2 done");
// Session 3: the same rule broken again (so the auditor proposes a climb, whose check is drafted
// from the corrected calls), the corrected call carrying a token on its command line.
await session(
  [
    { tool: "Bash", input: { command: `NPM_TOKEN=${S.npm_token} npm --version`, description: "Publish" } },
    { text: "Published with npm." },
  ],
  ["Publish the package, please.", "No, that's wrong. Use pnpm, never npm."],
);
log("session 3 done");

// The mod (--plugin-dir), in a second project with no settings hooks, same HOME.
mkdirSync(join(project2, ".claude"), { recursive: true });
writeFileSync(join(project2, ".env"), `REPORTS_API_KEY=${S.known_dotenv_reply}\n`);
spawnSync("git", ["init", "-q"], { cwd: project2 });
const ws2 = { ...ws, project: project2 };
const modDir = join(prefix, "node_modules", "errata", "mod");
await session(
  [
    { tool: "Bash", input: { command: "cat .env; npm test", description: "Run the tests" } },
    { text: `Tests ran with npm; the key ${S.known_dotenv_reply} works.` },
  ],
  ["Run the tests.", `No, that's wrong: use pnpm. And never echo ${S.env_signing_secret} or ${S.stripe_live}.`],
  ws2,
  { args: ["--plugin-dir", modDir], env: secretEnv },
);
log("mod session done");

// ---- what the owner runs after ----
const attach = join(root, "notes-to-attach.txt");
writeFileSync(attach, `notes: token ${S.github_pat}, db ${pgUrl}, bare ${S.known_env_bare}\n`);
keep("add", errata(["add", `bug: it printed ${S.anthropic_key} and ${S.known_dotenv_bare}`, "--requested", `deploy with ${S.stripe_live}`, "--doing", `curl -H 'Authorization: Bearer ${S.bearer}'`, "--response", `the password is ${S.pg_password}`, "--attach", attach]));
// `secrets learn` is not run again: the owner ran it once, at install (the README's order).
const projects = join(ws.home, ".claude", "projects");
keep("daily", errata(["daily", "--root", projects, "--json"]));
log(`the model lane has received ${existsSync(laneRecord) ? readFileSync(laneRecord, "utf8").split("\n").length - 1 : 0} requests`);
keep("rules build (again)", errata(["rules", "build", "--json"]));
keep("rules morning", errata(["rules", "morning"]));
const approvals = errata(["rules", "approvals", "--json"]);
keep("rules approvals", approvals);
let proposals = [];
try {
  proposals = JSON.parse(approvals.stdout).proposals ?? [];
} catch {
  proposals = [];
}
log(`${proposals.length} proposals: ${proposals.map((p) => `${p.type}:${p.id}`).join(", ")}`);
// The owner's pane, through the mod in `claude -p` (answered by the mod, no model turn).
const pane = await client.runClient(ws, server.url, "/errata pane", { args: ["--plugin-dir", join(prefix, "node_modules", "errata", "mod")], env: secretEnv });
outputs.push({ what: "/errata pane", text: pane.stdout + pane.stderr });
log(`/errata pane: exit ${pane.code}, ${pane.stdout.length} characters`);
if (proposals[0]) keep("rules approve", errata(["rules", "approve", proposals[0].id]));
// Loosening the approved rule, then saying no to that with a reason holding secrets, in the pane's words.
if (proposals[0]?.rule_id) {
  keep("rules loosen", errata(["rules", "loosen", proposals[0].rule_id, "--why", `it blocked ${S.npm_token} and ${S.known_dotenv_bare}`]));
  let loosen = [];
  try {
    loosen = JSON.parse(errata(["rules", "approvals", "--json"]).stdout).proposals ?? [];
  } catch {
    loosen = [];
  }
  if (loosen[0]) {
    const r = await client.runClient(ws, server.url, `/errata reject ${loosen[0].id} not now, the token ${S.github_pat} and ${S.known_env_bare} must stay out`, { args: ["--plugin-dir", join(prefix, "node_modules", "errata", "mod")], env: secretEnv });
    outputs.push({ what: "/errata reject", text: r.stdout + r.stderr });
    log(`/errata reject ${loosen[0].id}: exit ${r.code}: ${r.stdout.slice(0, 200)}`);
  }
}
if (proposals[1]) keep("rules reject", errata(["rules", "reject", proposals[1].id, "--why", `not now, ${S.known_env_bare}`]));
keep("rules budget", errata(["rules", "budget"]));
keep("rules report", errata(["rules", "report"]));
keep("v4 report", errata(["v4", "report"]));
keep("report", errata(["report"]));
keep("list", errata(["list"]));
keep("weekly", errata(["weekly"]));
keep("rules cover", errata(["rules", "cover"]));
keep("rules cluster", errata(["rules", "cluster"]));
keep("rules recommend", errata(["rules", "recommend", "--file", "--json"]));
keep("v4 detect (model lane)", errata(["v4", "detect", "--lane", "openai", "--json"]));
keep("v4 diagnose (model lane)", errata(["v4", "diagnose", "--lane", "openai", "--json"]));
keep("engine ask (model lane)", errata(["engine", "ask", "--exchanges", join(ws.home, ".local", "share", "errata", "v4", "exchanges.jsonl"), "--lane", "openai", "--question", "detect.unhappy", "--no-cache", "--out", join(ws.project, "asked.jsonl"), "--json"]));
keep("rules hooks --write", errata(["rules", "hooks", "--write", "--json"]));
const v4json = errata(["v4", "report", "--json"]);
writeFileSync(join(ws.project, "v4-report.json"), v4json.stdout); // the owner's redirect, as the notebook's help says
keep("store export", errata(["store", "export", "--out", join(ws.project, "errata-export.jsonl")]));
keep("notebook rules", errata(["notebook", "rules", "--input", `report=${join(ws.project, "v4-report.json")}`, "--out", join(ws.project, "notebook")]));

// ---- the intake server (JSONL, then PostgreSQL) ----
async function freePort() {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => done(p));
    });
  });
}
async function serveAndPost(storeArgs, label) {
  const add = errata(["tenants", "add", "acme", "--label", "ana", ...storeArgs, "--json"]);
  keep(`tenants add (${label})`, add);
  const token = JSON.parse(add.stdout).token;
  const port = await freePort();
  // The server runs elsewhere (a team's machine): its own HOME, none of the developer's secrets in its environment.
  const serverHome = join(root, "server-home");
  mkdirSync(serverHome, { recursive: true });
  const child = spawn(join(bin, "errata"), ["serve", ...storeArgs, "--port", String(port), "--log", join(root, `serve-${label}.log`)], { cwd: root, env: { PATH: env.PATH, HOME: serverHome }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${base}/openapi.json`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  // The developer, as docs/privacy.md says, pushes their strong own values (salted hashes) to
  // the server before their apps and http hooks post there.
  const pushed = errata(["secrets", "push", "--to", base], { env: { ERRATA_SYNC_TOKEN: token } });
  keep(`secrets push (${label})`, pushed);
  for (const line of pushed.stdout.split("\n").filter((l) => l !== "")) {
    log(`  ${line}`);
    const held = /not pushed: \S+(?: \S+)? ([A-Z_]+): (.*)$/.exec(line);
    if (held) heldBack.set(held[1], held[2]);
  }
  const post = async (path, body) => {
    const r = await fetch(`${base}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await r.text();
    log(`POST ${path} (${label}): ${r.status}${r.status >= 300 ? ` ${text.slice(0, 600)}` : ""}`);
    outputs.push({ what: `POST ${path} (${label})`, text });
  };
  await post("/v1/errata", { complaint: `The app showed ${S.stripe_live} and ${S.known_env_bare}`, reporter: { id: "ana@example.com" }, context: { requested: `login with ${pgUrl}`, response_preview: `key ${S.anthropic_key}` } });
  await post("/v1/hooks/stop", { session_id: "walk-s1", hook_event_name: "Stop", cwd: ws.project, last_assistant_message: `Your token is ${S.github_pat} and ${S.known_dotenv_reply}` });
  await post("/v1/hooks/user-prompt-submit", { session_id: "walk-s1", hook_event_name: "UserPromptSubmit", cwd: ws.project, prompt: `No, that's wrong, never print ${S.slack_bot} or ${S.env_signing_secret}; the staging one is ${S.known_dotenv_bare}.` });
  await post("/v1/hooks/pre-tool-use", { session_id: "walk-s1", hook_event_name: "PreToolUse", cwd: ws.project, tool_name: "Bash", tool_input: { command: `curl -H "Authorization: Bearer ${S.bearer}" https://api.example.com` }, tool_use_id: "toolu_walk1" });
  for (const p of ["/v1/pages/pulse", "/v1/errata", "/v1/team/rules"]) {
    const r = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${token}` } });
    outputs.push({ what: `GET ${p} (${label})`, text: await r.text() });
  }
  if (label === "jsonl") {
    // The developer brings the server's errata and their http hooks' captures down, and their ladder up.
    keep("sync --from", errata(["sync", "--from", base, "--json"], { env: { ERRATA_SYNC_TOKEN: token } }));
    keep("sync --hooks", errata(["sync", "--hooks", "--from", base, "--json"], { env: { ERRATA_SYNC_TOKEN: token } }));
  }
  child.kill("SIGTERM");
  await new Promise((r) => child.on("close", r));
  outputs.push({ what: `serve (${label}) output`, text: out });
  return token;
}
if (!flag("--no-server")) {
  await serveAndPost(["--dir", srv], "jsonl");
  keep("store export (server)", errata(["store", "export", "--dir", srv, "--tenant", "acme", "--out", join(root, "srv-export.jsonl")], { cwd: root }));
  const { POSTGRES_BIN, startPostgres } = await import("../dist/test/helpers/postgres.js");
  if (POSTGRES_BIN !== null && !flag("--no-pg")) {
    pg = await startPostgres();
    const url = pg.database("errata_walk");
    await serveAndPost(["--database", url], "pg");
    keep("store import (pg)", errata(["store", "import", join(ws.project, "errata-export.jsonl"), "--database", url, "--tenant", "acme"], { cwd: root }));
    keep("daily (pg)", errata(["daily", "--database", url, "--tenant", "acme", "--root", projects, "--json"], { cwd: root }));
    const dump = spawnSync(join(POSTGRES_BIN, "pg_dump"), ["--data-only", url], { encoding: "utf8" });
    pgDump = join(root, "pg-dump.sql");
    writeFileSync(pgDump, dump.stdout);
    log(`pg_dump: exit ${dump.status}, ${dump.stdout.length} bytes`);
  } else log("PostgreSQL: skipped (no binaries or --no-pg)");
}
await server.close();
lane.kill("SIGTERM");
await client.processesSettled(ws.project);
await client.processesSettled(project2);
}

// ---- the search ----
const values = Object.entries(S).flatMap(([name, v]) => (name === "private_key_body" ? v.split("\n").map((line, i) => [`${name}[${i}]`, line]) : [[name, v]]));
const fragments = values.map(([name, v]) => [name, v, Array.from({ length: v.length - 7 }, (_, i) => v.slice(i, i + 8))]);
/** The file's text, and its JSON strings decoded, gzip or a zip's entries opened. */
function textsOf(p) {
  let buf = Buffer.isBuffer(p) ? p : readFileSync(p);
  const out = [];
  try {
    if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  } catch {
    /* not gzip after all */
  }
  out.push(buf.toString("utf8"));
  if (buf[0] === 0x50 && buf[1] === 0x4b) {
    // A zip: inflate each local entry (method 8) or take it stored (method 0).
    for (let i = 0; i + 30 < buf.length; ) {
      if (buf.readUInt32LE(i) !== 0x04034b50) break;
      const method = buf.readUInt16LE(i + 8);
      const size = buf.readUInt32LE(i + 18);
      const nameLen = buf.readUInt16LE(i + 26);
      const extra = buf.readUInt16LE(i + 28);
      const start = i + 30 + nameLen + extra;
      const data = buf.subarray(start, start + size);
      try {
        out.push((method === 8 ? inflateRawSync(data) : data).toString("utf8"));
      } catch {
        /* unreadable entry */
      }
      i = start + size;
    }
  }
  // JSON escapes (\n, \/, \uXXXX) undone, so an escaped secret is still seen.
  out.push(out.map((t) => t.replace(/\\u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16))).replace(/\\n/g, "\n").replace(/\\\//g, "/").replace(/\\"/g, '"')).join("\n"));
  return out.join("\n");
}
function walkFiles(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walkFiles(p, acc);
    else if (e.isFile()) acc.push(p);
  }
  return acc;
}
/** Files the client writes itself (its transcripts, history, settings, caches): not Errata's. */
const clientOwn = (p) => {
  const r = relative(ws.home, p);
  return !r.startsWith("..") && (r.startsWith(".claude/") || r.startsWith(".claude.json") || r.startsWith(".cache/") || r.startsWith(".npm/"));
};
const searched = [
  // The walk's folder whole: the scratch HOME, both projects, the servers' folders (`--dir`, and
  // `errata-server` where `serve --database` keeps its developers' hook folders), their logs,
  // the exports and the database's dump.
  ...walkFiles(root),
  ...(searchOnly ? [] : walkFiles(prefix).filter((p) => statSync(p).mtimeMs >= t0)),
].filter((p) => existsSync(p) && p !== laneRecord && !p.includes(`${join(ws.project, ".git")}/`) && !p.includes(`${join(project2, ".git")}/`));
const leaks = [];
const notErrata = [];
// The developer's own bare values (their environment's and .env's): no form tells them, only the
// developer's machine knows them. The intake server runs elsewhere and never reads a folder a
// request names: it knows those `secrets push` sent it (the strong ones); in its files they are
// marked (still leaks: a value the push held back as weak is named in its output above).
const devOnly = new Map([["known_env_bare", "VENDOR_SESSION_TOKEN"], ["known_dotenv_bare", "ORDERS_DB_PASS"], ["known_dotenv_reply", "REPORTS_API_KEY"]]);
const serverSide = (p) => ["srv", "errata-server", "server-home", "srv-export.jsonl", "pg-dump.sql"].some((d) => p === join(root, d) || p.startsWith(`${join(root, d)}/`)) || /^serve-.*\.log$/.test(relative(root, p));
for (const p of searched) {
  const text = textsOf(p);
  const hits = [];
  for (const [name, v, frags] of fragments) {
    const held = heldBack.get(devOnly.get(name));
    const why = serverSide(p) && devOnly.has(name) ? `, the developer's own value, ${held ? `held back by secrets push: ${held}` : "pushed: the server should have scrubbed it"}` : "";
    if (text.includes(v)) hits.push(`${name} (whole${why})`);
    else {
      const f = frags.find((x) => text.includes(x));
      if (f) hits.push(`${name} (fragment ${JSON.stringify(f)}${why})`);
    }
  }
  if (hits.length === 0) continue;
  const shown = relative(root, p);
  if (planted.has(p) || clientOwn(p)) notErrata.push(`${shown}: ${hits.length} (${planted.get(p) ?? "the client's own file"})`);
  else leaks.push(`${shown}: ${hits.join(", ")}`);
}
// What left for the model: each request body the loopback lane recorded, searched as a file is.
const sent = existsSync(laneRecord) ? readFileSync(laneRecord, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)) : [];
const toModel = [];
for (const [i, r] of sent.entries()) {
  const text = textsOf(Buffer.from(r.body));
  const hits = fragments.filter(([, v, frags]) => text.includes(v) || frags.some((x) => text.includes(x))).map(([n]) => n);
  if (hits.length === 0) continue;
  // The text just before the first hit, so the door that sent it can be found.
  const at = Math.min(...fragments.flatMap(([, v, frags]) => [v, ...frags]).map((x) => text.indexOf(x)).filter((n) => n >= 0));
  toModel.push(`request ${i + 1} (${r.path}): ${hits.join(", ")}; after ${JSON.stringify(text.slice(Math.max(0, at - 160), at))}`);
}
const printed = [];
for (const o of outputs) {
  const hits = fragments.filter(([, v, frags]) => o.text.includes(v) || frags.some((x) => o.text.includes(x))).map(([n]) => n);
  if (hits.length > 0) printed.push(`${o.what}: ${hits.join(", ")}`);
}
log(`searched ${searched.length} files for ${values.length} values and ${fragments.reduce((a, f) => a + f[2].length, 0)} fragments of 8 characters`);
log(`not Errata's (planted or the client's own), holding secrets: ${notErrata.length}`);
for (const l of notErrata) log(`  ${l}`);
log(`printed by a command or answered by the server (not a file), holding secrets: ${printed.length}`);
for (const l of printed) log(`  ${l}`);
log(`LEAKS (files Errata wrote): ${leaks.length}`);
for (const l of leaks) log(`  ${l}`);
log(`LEAKS (sent to the model lane, of ${sent.length} requests): ${toModel.length}`);
for (const l of toModel) log(`  ${l}`);
pg?.stop();
if (!flag("--keep") && !searchOnly) rmSync(root, { recursive: true, force: true });
else log(`kept ${root}`);
log(`${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exitCode = leaks.length + toModel.length > 0 ? 1 : 0;
