/**
 * The assistant's own memory as rung 0: Claude Code's auto-memory folder for a project
 * (`~/.claude/projects/<slug>/memory/`, the slug being the project's path with every character
 * that is not a letter or digit turned into "-": /home/me/app -> -home-me-app) holds MEMORY.md
 * (an index, its first 200 lines loaded at the start of a session) and topic notes (one .md
 * each, often with a frontmatter of name, description and type, read when the assistant looks
 * for them). Each topic note is one rule unit at rung 0, dated by its frontmatter's `modified`
 * where present, else the file's modification time; each line of MEMORY.md's index is one
 * unit too, dated by the file.
 *
 * The "note was read" sensor: a unit's location is the note's absolute path, so a `Read` of that
 * path before the correction (the transcript's tool calls, as runtime/ladder/incidents.ts
 * `inView` reads them for rung 0) says the note was in view; `noteReads` lists such reads from
 * a session's tool calls (transcript or PreToolUse lines). A rule corrected twice whose only
 * home is a memory note, read both times, is then diagnosed like any other and climbs to
 * rung 1 with those incidents as its evidence.
 *
 * Example: memoryUnits("/home/me/.claude/projects/-home-me-app/memory") -> [{rule_id:
 * "memory.reply-in-finnish.1f2e3d4c", rung: 0, text: "Reply in Finnish when I write Finnish.",
 * date: "2026-11-02", file: ".../memory/reply-in-finnish.md"}, ...].
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fnv1a32Utf16 } from "../../core/fnv1a.js";
import type { RuleRow } from "../../schemas/rule-ledger.js";
import { openRuleLedger } from "./ledger.js";

/** Claude Code's project slug: every character but a letter or digit becomes "-". */
export function projectSlug(projectDir: string): string {
  return projectDir.replace(/[^A-Za-z0-9]/g, "-");
}

/** The auto-memory folder of a project under a home folder. */
export function memoryDir(home: string, projectDir: string): string {
  return join(home, ".claude", "projects", projectSlug(projectDir), "memory");
}

export interface MemoryUnit {
  rule_id: string;
  /** "note": a topic note; "index": a line of MEMORY.md. */
  kind: "note" | "index";
  name: string;
  text: string;
  /** YYYY-MM-DD: the note's `modified`, else the file's modification time. */
  date: string;
  date_from: "frontmatter" | "file";
  file: string;
}

/**
 * A flat frontmatter (key: value lines between two "---" lines). Written by hand: the notes'
 * frontmatter is a few scalar keys, and the body is all a unit needs.
 */
function splitFrontmatter(text: string): { fields: Map<string, string>; body: string } {
  const fields = new Map<string, string>();
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (m === null) return { fields, body: text };
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (kv) fields.set(kv[1]!.toLowerCase(), kv[2]!.trim().replace(/^["']|["']$/g, ""));
  }
  return { fields, body: text.slice(m[0].length) };
}

const slugOf = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "note";
const idOf = (name: string, file: string, text: string): string => `memory.${slugOf(name)}.${fnv1a32Utf16(`${file}\u0000${text}`).toString(16).padStart(8, "0")}`;

function dateOf(fields: Map<string, string>, file: string): { date: string; date_from: "frontmatter" | "file" } {
  const m = fields.get("modified");
  if (m !== undefined && /^\d{4}-\d{2}-\d{2}/.test(m)) return { date: m.slice(0, 10), date_from: "frontmatter" };
  return { date: statSync(file).mtime.toISOString().slice(0, 10), date_from: "file" };
}

/** Every unit of a memory folder (none when it does not exist), notes by file name, then the index's lines. */
export function memoryUnits(dir: string): MemoryUnit[] {
  if (!existsSync(dir)) return [];
  const units: MemoryUnit[] = [];
  const names = readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
  for (const n of names.filter((x) => x !== "MEMORY.md")) {
    const file = join(dir, n);
    const { fields, body } = splitFrontmatter(readFileSync(file, "utf8"));
    const text = body.trim() || (fields.get("description") ?? "");
    if (text === "") continue;
    const name = fields.get("name") ?? n.replace(/\.md$/, "");
    units.push({ rule_id: idOf(name, n, text), kind: "note", name, text, ...dateOf(fields, file), file });
  }
  if (names.includes("MEMORY.md")) {
    const file = join(dir, "MEMORY.md");
    const { fields, body } = splitFrontmatter(readFileSync(file, "utf8"));
    const d = dateOf(fields, file);
    for (const raw of body.split(/\r?\n/)) {
      const line = raw.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").trim();
      if (line === "" || line.startsWith("#")) continue;
      units.push({ rule_id: idOf("index", "MEMORY.md", line), kind: "index", name: "MEMORY.md", text: line, ...d, file });
    }
  }
  return units;
}

/** A unit as a rule of the ledger: rung 0 (a note found by search), located at the note's path. */
export function memoryRuleRow(u: MemoryUnit): RuleRow {
  return { kind: "rule", v: 1, rule_id: u.rule_id, at: `${u.date}T00:00:00.000Z`, text: u.text, why: null, when: null, when_not: null, rung: 0, location: { kind: "text", file: u.file, section: u.kind === "index" ? "MEMORY.md" : null }, origin: "index", keywords: [], witness: null, exempt: false };
}

/** The reads of a memory folder's files among a session's tool calls: the "note was read" sensor. */
export function noteReads(calls: readonly { session_id: string | null; tool_name: string; file_path: string | null; ts?: string }[], dir: string): { session_id: string | null; file: string; ts: string | null }[] {
  const base = dir.endsWith("/") ? dir : `${dir}/`;
  return calls.filter((c) => c.tool_name === "Read" && c.file_path !== null && c.file_path.startsWith(base)).map((c) => ({ session_id: c.session_id, file: c.file_path!, ts: c.ts ?? null }));
}

/**
 * The memory folder's units into the rule ledger, those it does not hold yet (by id: a note
 * edited is a new unit, the old one keeps its incidents). Returns how many were added. The
 * audit does this for `--root ~/.claude/projects/<slug>`, whose `memory/` is the folder.
 */
export function syncMemoryRules(dir: string, memory: string): number {
  const ledger = openRuleLedger(dir);
  const known = ledger.read().ledger.rules;
  const rows = memoryUnits(memory).filter((u) => !known.has(u.rule_id)).map(memoryRuleRow);
  if (rows.length > 0) ledger.append(rows);
  return rows.length;
}
