/**
 * The labelled naming set (datasets/ladder-naming, constructed corrections on the real
 * instruction files of datasets/claude-md) loaded as the ladder sees it: each repository's
 * files indexed as a project in its own folder, its rules as ledger rows, each item a turn
 * of a session in that folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildIndex, discoverSources, normalisedText } from "../rules/index.js";
import { foldLedger, type LedgerRule } from "./ledger.js";
import type { OwnerTurn, ToolUseLite } from "./signals.js";
import { ruleRowsForIndex } from "./sync.js";

export interface NamingItem {
  id: string;
  repo: string;
  /** `fresh3` items come only from `fresh3Items()` in test/ladder/naming-set.ts (report-only; nothing under runtime/ reads them). */
  split: "dev" | "heldout" | "fresh" | "fresh2" | "fresh3";
  lang: string;
  rule_starts: string | null;
  kind: "near" | "far" | "kept" | "uncovered";
  text: string;
  reply: string;
  tools: ToolUseLite[];
  label: "incident" | "mention" | "none";
  fix: "enforce_rule" | "add_rule";
}

/** The repository's datasets folder (from runtime/ladder or dist/runtime/ladder). */
export const DATA = fileURLToPath(new URL(existsSync(fileURLToPath(new URL("../../datasets/", import.meta.url))) ? "../../datasets/" : "../../../datasets/", import.meta.url));

export function namingItems(): NamingItem[] {
  return readFileSync(`${DATA}ladder-naming/items.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l) as NamingItem);
}

/**
 * The fresh2 batch (`ladder-naming/fresh2.jsonl`, written apart while the naming model of
 * 2026-12-07 was being fitted; it reported once, and is fitted on since: naming-fit.ts), each
 * item marked split `fresh2`; empty in a checkout without the file.
 */
export function fresh2Items(): NamingItem[] {
  const file = `${DATA}ladder-naming/fresh2.jsonl`;
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split("\n").filter((l) => l.trim() !== "").map((l) => ({ ...(JSON.parse(l) as NamingItem), split: "fresh2" as const }));
}

/** A fake working folder per repository: the sessions of that project run there. */
export const projectOf = (repo: string): string => `/work-projects/${repo}`;

/** Every repository's rules in one ledger (several projects, as an owner with many has). */
export function ledgerRules(repos: readonly string[]): LedgerRule[] {
  const rows = repos.flatMap((repo) => {
    const sources = discoverSources({ root: `${DATA}claude-md/${repo}`, project: projectOf(repo), prefix: `${repo}-`, home: null, managed: [], extra: [] });
    const { index } = buildIndex(sources, null, { today: "2026-12-01", projects: [projectOf(repo)] });
    return ruleRowsForIndex(index, new Set(), "2026-12-01T00:00:00Z");
  });
  return [...foldLedger(rows).rules.values()];
}

export function targetRule(rules: readonly LedgerRule[], it: NamingItem): LedgerRule | null {
  if (it.rule_starts === null) return null;
  const want = normalisedText(it.rule_starts);
  return rules.find((r) => r.project === projectOf(it.repo) && normalisedText(r.text).startsWith(want)) ?? null;
}

export function itemTurn(it: NamingItem, n: number): OwnerTurn {
  return { exchange_id: `ex-${it.id}`, session_id: `s-${n}`, ts: "2026-12-02T10:00:00Z", origin: "typed", text: it.text, reply_before: it.reply, tools_before: it.tools, tools_after: [], cwd: projectOf(it.repo) };
}
