/**
 * A developer's own folder on the server, over HTTP, for the developer whose hooks are http
 * hooks: their ladder runs on their own machine (it needs their transcripts, which never
 * reach the server), while the hooks run here, so what each side writes has to reach the
 * other. All routes act on the token's own (tenant, label) folder, `<dir>/hooks/<t>/<label>/`;
 * `errata sync --hooks` (cli/commands/sync.ts) is the client.
 *
 * - `GET /v1/hooks/errata?after&limit`: the errata the prompt hook captured for them, in file
 *   order with patches folded on, the intake contract's page shape (the cursor is the 1-based
 *   position in the ledger's reading order; the hooks only append, so positions hold).
 * - `GET /v1/hooks/ladder/<log>?after=<byte>`: whole lines the hooks appended to a ladder log
 *   (`tool-events.jsonl`, `instructions-loaded.jsonl`, `sorted.jsonl`) after a byte offset:
 *   the audit's shadow judging and its "was the file loaded" read them.
 * - `PUT /v1/hooks/ladder/<file>`: the files the hooks read, as the developer's own ladder has
 *   them after `errata rules approve` (`checks.json`, `line-holdouts.json`), checked with the
 *   hooks' own parsers and written whole (atomic rename), so an approved check is enforced by
 *   the http PreToolUse hook from its next call; `DELETE` the same when the ladder no longer
 *   has the file (`errata rules undo` of the last check), so an undone check stops too.
 * - `POST /v1/team/rule-lines`: the developer's rule-ledger lines, held once each by content
 *   (as rows on the Postgres store, else in the folder's `ladder/rules.jsonl`), which the
 *   team's most-broken rules read (team.ts), each incident keeping the project its correction
 *   happened in on the developer's machine.
 *
 * Example: `developerErrataPage("./srv", "acme", "ana", 0, 100)` -> `{ items: [{ seq: 1, ... }], next: null }`.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CodedError } from "../../core/errors.js";
import { appendJsonl, readJsonl, writeFileAtomic } from "../files/index.js";
import { RULE_LEDGER_FILE } from "../ladder/index.js";
import { CHECKS_FILE, INSTRUCTIONS_LOADED_FILE, LINE_HOLDOUTS_FILE, SORTED_FILE, TOOL_EVENTS_FILE, parseChecksFile, parseLineHoldouts } from "../ladder-formats/index.js";
import { resolvePaths } from "../paths.js";
import { redactForWrite } from "../privacy/index.js";
import { openLedger } from "../store/index.js";
import type { ErrataStore, Page } from "../stores/index.js";
import { RuleLedgerLineSchema, type RuleLedgerLine } from "../../schemas/rule-ledger.js";
import { developerDir } from "./hooks.js";

/** The logs the hooks append on the server that the developer's audit reads. */
export const HOOK_LOGS = [TOOL_EVENTS_FILE, INSTRUCTIONS_LOADED_FILE, SORTED_FILE] as const;
/** The files the developer's ladder writes that the hooks read. */
export const HOOK_INPUTS = [CHECKS_FILE, LINE_HOLDOUTS_FILE] as const;
/** Largest slice of a log one answer carries (the client asks again from `next`). */
const LOG_SLICE = 512 * 1024;

function ledgerDirOf(dir: string, tenant: string, label: string): string {
  return join(developerDir(dir, tenant, label), "ledger");
}

export function developerLadderDir(dir: string, tenant: string, label: string): string {
  return join(ledgerDirOf(dir, tenant, label), "ladder");
}

export function developerErrataPage(dir: string, tenant: string, label: string, after: number, limit: number): Page {
  const ledgerDir = ledgerDirOf(dir, tenant, label);
  if (!existsSync(ledgerDir)) return { items: [], next: null };
  const all = openLedger(resolvePaths({ ERRATA_DIR: ledgerDir }, ledgerDir), { warn: () => undefined }).readAll().errata;
  const slice = all.slice(after, after + limit);
  const items = slice.map((f, i) => ({ seq: after + i + 1, erratum: f.erratum, updated: f.updated }));
  return { items, next: after + slice.length < all.length ? after + slice.length : null };
}

/** Whole lines of a hook log after a byte offset; `next` is the offset to ask with next (the end of the last whole line). */
export function readHookLog(dir: string, tenant: string, label: string, name: string, after: number): { lines: string[]; next: number; size: number } {
  if (!(HOOK_LOGS as readonly string[]).includes(name)) throw new CodedError("not_found", "unknown-log", `no log ${name}`, { expected: `one of ${HOOK_LOGS.join(", ")}`, found: JSON.stringify(name) });
  const file = join(developerLadderDir(dir, tenant, label), name);
  if (!existsSync(file)) return { lines: [], next: 0, size: 0 };
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    // A cursor past the end: the file was replaced (a restore); start again, the client dedupes.
    const from = after > size ? 0 : after;
    let text = "";
    let end = -1;
    // A slice with no whole line in it (a line longer than the slice) is read on, so the cursor always moves.
    for (let want = LOG_SLICE; end < 0; want *= 4) {
      const buf = Buffer.alloc(Math.min(want, size - from));
      const n = buf.length === 0 ? 0 : readSync(fd, buf, 0, buf.length, from);
      text = buf.subarray(0, n).toString("utf8");
      end = text.lastIndexOf("\n");
      if (from + n >= size) break;
    }
    if (end < 0) return { lines: [], next: from, size };
    const whole = text.slice(0, end + 1);
    return { lines: whole.split("\n").filter((l) => l !== ""), next: from + Buffer.byteLength(whole), size };
  } finally {
    closeSync(fd);
  }
}

/** Writes a checks or line-holdouts file into the developer's ladder folder, after the hooks' own parser accepts it. */
export function putHookInput(dir: string, tenant: string, label: string, name: string, text: string): { file: string; entries: number } {
  if (!(HOOK_INPUTS as readonly string[]).includes(name)) throw new CodedError("not_found", "unknown-file", `no file ${name}`, { expected: `one of ${HOOK_INPUTS.join(", ")}`, found: JSON.stringify(name) });
  let entries: number;
  try {
    entries = name === CHECKS_FILE ? parseChecksFile(text, name).length : parseLineHoldouts(text).length;
  } catch (err) {
    throw new CodedError("input", "bad-file", `${name} refused`, { expected: name === CHECKS_FILE ? 'a checks file {"version": 1, "checks": [...]} (docs/ladder.md)' : 'a line-holdouts file {"version": 1, "rules": [...]}', found: (err as Error).message.slice(0, 300) });
  }
  const ladder = developerLadderDir(dir, tenant, label);
  mkdirSync(ladder, { recursive: true });
  writeFileAtomic(join(ladder, name), text.endsWith("\n") ? text : `${text}\n`);
  return { file: name, entries };
}

/** Removes a checks or line-holdouts file the developer's ladder no longer has (an undone approval); true when there was one. */
export function deleteHookInput(dir: string, tenant: string, label: string, name: string): boolean {
  if (!(HOOK_INPUTS as readonly string[]).includes(name)) throw new CodedError("not_found", "unknown-file", `no file ${name}`, { expected: `one of ${HOOK_INPUTS.join(", ")}`, found: JSON.stringify(name) });
  const file = join(developerLadderDir(dir, tenant, label), name);
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}

/** Parses a pushed batch of rule-ledger lines; every line must parse, or nothing is written. */
export function parseRuleLines(body: unknown): RuleLedgerLine[] {
  const lines = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)["lines"] : undefined;
  if (!Array.isArray(lines) || lines.length > 5000) throw new CodedError("input", "bad-rule-lines", "bad rule lines", { expected: '{"lines": [...]} with 0-5000 rule-ledger lines (docs/ladder.md)', found: Array.isArray(lines) ? `${lines.length} lines` : typeof lines });
  return lines.map((l, i) => {
    const p = RuleLedgerLineSchema.safeParse(l);
    if (!p.success) throw new CodedError("input", "bad-rule-lines", "a rule-ledger line refused", { expected: "rule, incident, mention or patch lines of the rule ledger", found: `line ${i}: ${p.error.issues[0]?.path.join(".") ?? ""} ${p.error.issues[0]?.message ?? ""}`.trim() });
    return p.data;
  });
}

/** Holds each line once for the developer: rows on a store that keeps them, else the developer folder's rule ledger file. */
export async function pushRuleLines(store: ErrataStore, dir: string, tenant: string, label: string, lines: readonly RuleLedgerLine[]): Promise<{ written: number; present: number }> {
  if (store.appendRuleLines) return store.appendRuleLines(tenant, label, lines);
  const ladder = developerLadderDir(dir, tenant, label);
  mkdirSync(ladder, { recursive: true });
  const file = join(ladder, RULE_LEDGER_FILE);
  // Keyed by the line as written (redacted as the ladder's own append does), as the Postgres store keys its rows.
  const key = (l: RuleLedgerLine): string => createHash("sha256").update(JSON.stringify(l)).digest("hex");
  const held = new Set(readJsonl(file, RuleLedgerLineSchema, { what: "a rule-ledger line" }).rows.map(key));
  const fresh: RuleLedgerLine[] = [];
  for (const raw of lines) {
    const l = RuleLedgerLineSchema.parse(redactForWrite(raw).value);
    const k = key(l);
    if (held.has(k)) continue;
    held.add(k);
    fresh.push(l);
  }
  appendJsonl(file, fresh);
  return { written: fresh.length, present: lines.length - fresh.length };
}
