/**
 * `errata sync --from <url>`: pulls a tenant's errata from a server or app that implements
 * the intake contract's read side (`GET /v1/errata?after=<cursor>`), with the token in
 * ERRATA_SYNC_TOKEN (never a flag: a flag shows in the process list). Each erratum is checked
 * against the ledger's schema and rules and appended to your ledger (ERRATA_DIR), or with
 * `--dir`/`--database` to a server's store under `--tenant`. Resumable: the cursor is saved
 * after each page (state folder, one file per source URL); idempotent: an erratum already
 * there (by id, or by its sync key in a store) is not written again.
 *
 * Example: `ERRATA_SYNC_TOKEN=et_… errata sync --from http://127.0.0.1:8787` -> `pulled 240 errata (238 new, 2 already here), cursor 240`.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { badInput, ErrataError } from "../../core/errors.js";
import { printJson, println, warn } from "../shared/io.js";
import { examples } from "../shared/help.js";
import { ledgerFor, pathsFor } from "../shared/ledger.js";
import { storeFor, type StoreFlags } from "../shared/server-store.js";
import { appendWhole, loadCursorFile, readJsonl, saveCursorFile } from "../../runtime/files/index.js";
import { RULE_LEDGER_FILE } from "../../runtime/ladder/index.js";
import { redactForWrite } from "../../runtime/privacy/index.js";
import { LADDER_DIR } from "../../runtime/ladder-formats/index.js";
import { HOOK_INPUTS, HOOK_LOGS } from "../../runtime/server/index.js";
import { RuleLedgerLineSchema } from "../../schemas/rule-ledger.js";
import { checkErratumRules, issuesToProblems } from "../../runtime/store/index.js";
import { TENANT_PATTERN } from "../../runtime/stores/index.js";
import { ErratumSchema, type Erratum } from "../../schemas/erratum.js";
import { SyncCursorSchema } from "../../schemas/cursor.js";

interface SyncOpts extends StoreFlags {
  from: string;
  hooks?: boolean;
  tenant?: string;
  limit: string;
  json?: boolean;
}

/** One JSON call to the source; a refused token, an error status or a body that is not JSON is said as such. */
async function callJson(url: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    throw new ErrataError("IO", "cannot reach the source", { expected: `a server answering ${init.method ?? "GET"} ${new URL(url).pathname}`, found: (err as Error).message });
  }
  const text = await res.text();
  if (res.status === 401) throw new ErrataError("BAD_CONFIG", "the source refused the token", { expected: "ERRATA_SYNC_TOKEN holding a live token of the source", found: "401" });
  if (!res.ok) throw new ErrataError("IO", "the source answered an error", { expected: "200", found: `${res.status} ${text.slice(0, 200)}` });
  try {
    return JSON.parse(text);
  } catch {
    throw new ErrataError("BAD_INPUT", "the source's answer is not JSON", { expected: "a JSON answer", found: JSON.stringify(text.slice(0, 60)) });
  }
}

async function fetchPage(url: string, token: string): Promise<{ errata: Array<{ seq: number; erratum: unknown }>; next: number | null }> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" }, signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    throw new ErrataError("IO", "cannot reach the source", { expected: "a server answering GET /v1/errata", found: (err as Error).message });
  }
  const text = await res.text();
  if (res.status === 401) throw new ErrataError("BAD_CONFIG", "the source refused the token", { expected: "ERRATA_SYNC_TOKEN holding a live token of the source", found: "401" });
  if (!res.ok) throw new ErrataError("IO", "the source answered an error", { expected: "200", found: `${res.status} ${text.slice(0, 120)}` });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ErrataError("BAD_INPUT", "the source's answer is not JSON", { expected: "the intake contract's page {errata, next}", found: JSON.stringify(text.slice(0, 60)) });
  }
  const b = body as { errata?: unknown; next?: unknown };
  if (!Array.isArray(b.errata) || !(b.next === null || typeof b.next === "number")) throw new ErrataError("BAD_INPUT", "the source's page has the wrong shape", { expected: "{errata: [...], next: number | null}", found: JSON.stringify(text.slice(0, 60)) });
  return { errata: b.errata as Array<{ seq: number; erratum: unknown }>, next: b.next as number | null };
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("sync")
    .description("Pull errata from an app or server that keeps its own (the intake contract's read side); resumable and idempotent")
    .requiredOption("--from <url>", "the source's base URL (it serves GET /v1/errata)")
    .option("--dir <folder>", "write to this server folder's store instead of your ledger (with --tenant)")
    .option("--database <url>", "write to this Postgres store instead of your ledger (with --tenant)")
    .option("--tenant <tenant>", "the tenant to write under, in a store")
    .option("--limit <n>", "errata a page", "500")
    .option("--hooks", "your http hooks' folder on an errata server instead: pull what they captured and logged for you, push your ladder's checks and rule lines (docs/intake.md)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata sync --from http://127.0.0.1:9 # exit 2", "errata sync --hooks --from http://127.0.0.1:9 # exit 2"], { before: "The token is read from ERRATA_SYNC_TOKEN.", after: "A run that stops part-way resumes from the last page it saved." }))
    .action(async (opts: SyncOpts) => {
      let base: URL;
      try {
        base = new URL(opts.from);
        if (base.protocol !== "http:" && base.protocol !== "https:") throw new Error(base.protocol);
      } catch {
        throw badInput("bad --from", "an http(s) URL", JSON.stringify(opts.from));
      }
      const token = ctx.io.env["ERRATA_SYNC_TOKEN"];
      if (token === undefined || token === "") throw badInput("no token", "ERRATA_SYNC_TOKEN set to the source's tenant token", "it unset");
      const limit = Number(opts.limit);
      if (!/^\d+$/.test(opts.limit) || limit < 1 || limit > 500) throw badInput("bad --limit", "an integer 1-500", JSON.stringify(opts.limit));
      const toStore = opts.dir !== undefined || opts.database !== undefined;
      if (opts.hooks && toStore) throw badInput("--hooks with a store", "--hooks alone (it syncs your own ledger, ERRATA_DIR, with your hooks' folder on the server)", opts.dir !== undefined ? "--dir" : "--database");
      if (toStore && (opts.tenant === undefined || !TENANT_PATTERN.test(opts.tenant))) throw badInput("bad --tenant", "a tenant (lowercase letters, digits, '-') with --dir or --database", JSON.stringify(opts.tenant ?? null));
      const source = `${base.origin}${base.pathname.replace(/\/$/, "")}`;
      const paths = pathsFor(ctx);
      const cursorName = (what: string): string => join(paths.stateDir, "sync", `${createHash("sha256").update(`${source}\u0000${what}`).digest("hex").slice(0, 16)}.json`);
      const cursorFile = cursorName(toStore ? `${opts.database ?? opts.dir}\u0000${opts.tenant}` : opts.hooks ? "hooks" : "ledger");
      let cursor = loadCursorFile(cursorFile, SyncCursorSchema, () => ({ schema: "sync-cursor/1" as const, source, after: 0 })).after;
      const store = toStore ? await storeFor(ctx, opts) : null;
      const ledger = toStore ? null : ledgerFor(ctx);
      const taken = ledger ? new Set(ledger.readAll().errata.map((f) => f.erratum.id)) : null;
      const systems = ledger ? ledger.systems : null;
      let pulled = 0;
      let written = 0;
      let present = 0;
      const refused: string[] = [];
      try {
        for (;;) {
          const page = await fetchPage(`${source}${opts.hooks ? "/v1/hooks/errata" : "/v1/errata"}?after=${cursor}&limit=${limit}`, token);
          for (const item of page.errata) {
            pulled++;
            const parsed = ErratumSchema.safeParse(item.erratum);
            const rules = parsed.success && systems ? checkErratumRules(parsed.data, systems) : [];
            if (!parsed.success || rules.length > 0) {
              const p = parsed.success ? rules[0]! : issuesToProblems(parsed.error.issues, item.erratum)[0]!;
              refused.push(`seq ${item.seq}: ${p.code}: ${p.message}`);
              continue;
            }
            const e: Erratum = parsed.data;
            if (store) {
              const r = await store.append(opts.tenant!, e, `sync:${source}:${e.id}`);
              if (r.created) written++;
              else present++;
            } else if (taken!.has(e.id)) present++;
            else {
              ledger!.append(e, { takenIds: taken! });
              taken!.add(e.id);
              written++;
            }
          }
          if (page.errata.length > 0) cursor = Math.max(cursor, ...page.errata.map((i) => i.seq));
          saveCursorFile(cursorFile, { schema: "sync-cursor/1", source, after: cursor });
          if (!opts.json) warn(ctx.io, `errata sync: ${pulled} pulled, cursor ${cursor}`);
          if (page.next === null || page.errata.length === 0) break;
        }
      } finally {
        await store?.close();
      }
      for (const r of refused.slice(0, 10)) warn(ctx.io, `errata sync: refused ${r}`);
      if (refused.length > 0) ctx.exitCode = 1;
      const ladder = opts.hooks ? await syncLadder(source, token, join(paths.ledgerDir, LADDER_DIR), cursorName) : null;
      if (opts.json) printJson(ctx.io, { source, pulled, written, already_here: present, refused: refused.length, cursor, ...(ladder ? { ladder } : {}) });
      else {
        println(ctx.io, `pulled ${pulled} errata (${written} new, ${present} already here${refused.length ? `, ${refused.length} refused` : ""}), cursor ${cursor}`);
        if (ladder) {
          println(ctx.io, `ladder: pulled ${Object.entries(ladder.logs).map(([f, n]) => `${n} line(s) of ${f}`).join(", ")}`);
          println(ctx.io, `ladder: pushed ${ladder.inputs.length > 0 ? ladder.inputs.map((i) => `${i.file} (${i.entries})`).join(", ") : "no checks file"}${ladder.removed.length > 0 ? `, removed ${ladder.removed.join(", ")} there` : ""}; rule lines ${ladder.rule_lines.written} new, ${ladder.rule_lines.already_here} already there`);
        }
      }
    });
}

interface LadderSync {
  /** Lines appended to each local log (lines already there not counted). */
  logs: Record<string, number>;
  /** The files pushed for the hooks to read, with their entry counts. */
  inputs: Array<{ file: string; entries: number }>;
  /** The files the server had that the ladder no longer has, removed there. */
  removed: string[];
  rule_lines: { written: number; already_here: number };
}

/**
 * The ladder half of `errata sync --hooks` (runtime/server/developer.ts is the server's half):
 * the logs the http hooks append on the server (tool events, instruction loads, the Stop
 * hook's sort) appended to your ladder folder, from a saved byte cursor, a line already there
 * skipped (so a lost cursor re-reads, never doubles); then your checks and line holdouts put
 * whole, so the http PreToolUse hook enforces what you approved; then your rule ledger's
 * lines pushed for the team's most-broken rules (held once each by content).
 */
async function syncLadder(source: string, token: string, ladder: string, cursorName: (what: string) => string): Promise<LadderSync> {
  const logs: Record<string, number> = {};
  for (const name of HOOK_LOGS) {
    const file = cursorName(`hooks-log\u0000${name}`);
    let after = loadCursorFile(file, SyncCursorSchema, () => ({ schema: "sync-cursor/1" as const, source, after: 0 })).after;
    const local = join(ladder, name);
    const here = new Set(existsSync(local) ? readFileSync(local, "utf8").split("\n").filter((l) => l !== "") : []);
    let added = 0;
    for (;;) {
      const r = (await callJson(`${source}/v1/hooks/ladder/${name}?after=${after}`, token)) as { lines?: unknown; next?: unknown; size?: unknown };
      if (!Array.isArray(r.lines) || typeof r.next !== "number" || typeof r.size !== "number") throw new ErrataError("BAD_INPUT", "the source's log answer has the wrong shape", { expected: "{lines: [...], next, size}", found: JSON.stringify(r).slice(0, 80) });
      const fresh = (r.lines as unknown[]).filter((l): l is string => typeof l === "string" && !here.has(l));
      if (fresh.length > 0) {
        mkdirSync(ladder, { recursive: true });
        appendWhole(local, Buffer.from(`${fresh.join("\n")}\n`, "utf8"));
        for (const l of fresh) here.add(l);
        added += fresh.length;
      }
      const moved = r.next !== after;
      after = r.next;
      saveCursorFile(file, { schema: "sync-cursor/1", source, after });
      if (!moved || after >= r.size) break;
    }
    logs[name] = added;
  }
  const inputs: Array<{ file: string; entries: number }> = [];
  const removed: string[] = [];
  for (const name of HOOK_INPUTS) {
    const local = join(ladder, name);
    if (!existsSync(local)) {
      // Gone from the ladder (the last check undone): gone from the server too, so it stops there.
      const r = (await callJson(`${source}/v1/hooks/ladder/${name}`, token, { method: "DELETE" })) as { removed?: unknown };
      if (r.removed === true) removed.push(name);
      continue;
    }
    let body: unknown;
    try {
      body = JSON.parse(readFileSync(local, "utf8"));
    } catch (err) {
      throw badInput(`${local} is not JSON`, `the ${name} your ladder writes`, (err as Error).message);
    }
    const r = (await callJson(`${source}/v1/hooks/ladder/${name}`, token, { method: "PUT", body })) as { entries?: unknown };
    inputs.push({ file: name, entries: typeof r.entries === "number" ? r.entries : 0 });
  }
  const read = readJsonl(join(ladder, RULE_LEDGER_FILE), RuleLedgerLineSchema, { what: "a rule-ledger line" });
  const problems = read.problems;
  if (problems.length > 0) throw badInput(`${problems.length} unreadable line(s) in your rule ledger`, "rule-ledger lines (docs/ladder.md)", `line ${problems[0]!.line}: ${problems[0]!.code}`);
  // Redacted again as they leave, with this machine's known values: a line written before
  // `secrets learn` knew a value holds it, and the server knows only the values pushed to it.
  const rows = read.rows.map((l) => RuleLedgerLineSchema.parse(redactForWrite(l).value));
  let written = 0;
  let already = 0;
  for (let i = 0; i < rows.length; i += 2000) {
    const r = (await callJson(`${source}/v1/team/rule-lines`, token, { method: "POST", body: { lines: rows.slice(i, i + 2000) } })) as { written?: unknown; already_here?: unknown };
    written += typeof r.written === "number" ? r.written : 0;
    already += typeof r.already_here === "number" ? r.already_here : 0;
  }
  return { logs, inputs, removed, rule_lines: { written, already_here: already } };
}
