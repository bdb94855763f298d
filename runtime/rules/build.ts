/**
 * Builds the rule index from the sources found, carrying ids across edits from the previous
 * index. Pure apart from the dates it is given: `today` and, per file, the dates git gives
 * its lines (`lineDates`), so a test can build the same index twice.
 *
 * Per source: a unit whose (heading, content hash) is in the previous index keeps its id and
 * dates; a new unit whose words overlap a vanished unit of the same source by 60% or more
 * takes that unit's id (a carry, recorded); other new units get fresh ids; previous units with
 * no successor are recorded as vanished. A source that could not be read this time keeps its
 * previous units (a file that is briefly unreadable does not erase its rules); a source that
 * is gone loses them. Several projects share one index: a build of some projects keeps the
 * sources of the others as they were (and the user's files when it read none), so a build in
 * another folder adds to the index, never replaces it.
 *
 * Example: `buildIndex(sources, null, {today: "2026-12-01"})` -> `{index, changed: true}`;
 * the same call with that index as `previous` -> `{changed: false}`.
 */
import { resolve } from "node:path";
import type { RuleCarry, RuleIndex, RuleSource, RuleUnit, VanishedRule } from "../../schemas/rules.js";
import { RULE_INDEX_SCHEMA } from "../../schemas/rules.js";
import { redactTextForWrite } from "../privacy/index.js";
import { contentHash, headingSlug, matchCarries, ruleId } from "./ids.js";
import type { LoadedSource } from "./sources.js";

export interface BuildOptions {
  today: string;
  /** The working folders of the projects indexed (recorded in the index). */
  projects: readonly string[];
  /** Per absolute path: the date (YYYY-MM-DD) each 1-based line was last changed, from git; null when not in a repository. */
  lineDates?: (abs: string) => ReadonlyArray<string | undefined> | null;
}

export interface BuildResult {
  index: RuleIndex;
  changed: boolean;
  kept: number;
  added: number;
  carried: number;
  vanished: number;
}

function gitSpan(dates: ReadonlyArray<string | undefined> | null, start: number, end: number): { first: string; last: string } | null {
  if (dates === null) return null;
  let first: string | undefined;
  let last: string | undefined;
  for (let l = start; l <= end; l++) {
    const d = dates[l];
    if (d === undefined) continue;
    if (first === undefined || d < first) first = d;
    if (last === undefined || d > last) last = d;
  }
  return first === undefined || last === undefined ? null : { first, last };
}

function comparable(ix: RuleIndex): string {
  return JSON.stringify({ ...ix, updated: "" });
}

export function buildIndex(loaded: readonly LoadedSource[], previous: RuleIndex | null, opts: BuildOptions): BuildResult {
  const prevBySource = new Map<string, RuleUnit[]>();
  for (const u of previous?.units ?? []) {
    const list = prevBySource.get(u.source) ?? [];
    list.push(u);
    prevBySource.set(u.source, list);
  }
  const units: RuleUnit[] = [];
  const carries: RuleCarry[] = [...(previous?.carries ?? [])];
  const vanished: VanishedRule[] = [...(previous?.vanished ?? [])];
  const sources: RuleSource[] = [];
  const usedIds = new Set<string>();
  let kept = 0;
  let added = 0;
  let carried = 0;
  let gone = 0;

  const building = new Set(opts.projects.map((p) => resolve(p)));
  const readShared = loaded.some((s) => s.project === null);
  const addsToOthers = (previous?.projects ?? []).some((p) => !building.has(resolve(p)));
  const keptSource = (src: RuleSource): boolean => (src.project !== null ? !building.has(resolve(src.project)) : addsToOthers && !readShared);
  const knownSources = new Set((previous?.sources ?? []).filter((s) => s.problems.length === 0 || s.units > 0).map((s) => s.source));
  for (const src of loaded) {
    const prev = prevBySource.get(src.source) ?? [];
    prevBySource.delete(src.source);
    if (src.parsed === null) {
      // Unreadable now: keep what the index knew.
      for (const u of prev) {
        units.push(u);
        usedIds.add(u.id);
      }
      sources.push({ source: src.source, path: src.path, kind: src.kind, load: src.load, scope: src.scope, imported_by: src.imported_by, project: src.project, lines: 0, bytes: src.bytes, units: prev.length, problems: src.problems });
      continue;
    }
    const dates = opts.lineDates?.(src.abs) ?? null;
    const raw = src.parsed.units;
    const hashes = raw.map((u) => contentHash(u.text));
    const prevByKey = new Map<string, RuleUnit[]>();
    for (const u of prev) {
      const key = `${headingSlug(u.heading_path)}\u0000${u.hash}`;
      prevByKey.set(key, [...(prevByKey.get(key) ?? []), u]);
    }
    const assigned: Array<RuleUnit | null> = raw.map(() => null);
    const matchedPrev = new Set<RuleUnit>();
    raw.forEach((u, i) => {
      const list = prevByKey.get(`${headingSlug(u.heading_path)}\u0000${hashes[i]}`);
      const p = list?.shift();
      if (p !== undefined) {
        matchedPrev.add(p);
        assigned[i] = p;
      }
    });
    const freshIdx = raw.map((_, i) => i).filter((i) => assigned[i] === null);
    const vanishedPrev = prev.filter((p) => !matchedPrev.has(p));
    const matches = matchCarries(
      freshIdx.map((i) => ({ key: i, text: raw[i]?.text ?? "", position: i })),
      vanishedPrev.map((p, k) => ({ key: k, text: p.text, position: p.position, id: p.id })),
    );
    const carriedFrom = new Map<number, { prev: RuleUnit; overlap: number }>();
    for (const m of matches) {
      const p = vanishedPrev[m.vanished];
      if (p !== undefined) carriedFrom.set(m.fresh, { prev: p, overlap: m.overlap });
    }
    const carriedPrev = new Set([...carriedFrom.values()].map((c) => c.prev));
    raw.forEach((u, i) => {
      const hash = hashes[i] ?? contentHash(u.text);
      const span = gitSpan(dates, u.line_start, u.line_end);
      const p = assigned[i];
      const c = carriedFrom.get(i);
      let id: string;
      let first_seen: string;
      let last_changed: string;
      let first_seen_known: boolean;
      if (p !== null && p !== undefined) {
        id = p.id;
        first_seen = span !== null && span.first < p.first_seen ? span.first : p.first_seen;
        last_changed = span?.last ?? p.last_changed;
        first_seen_known = span !== null || p.first_seen_known;
        kept++;
      } else if (c !== undefined) {
        id = c.prev.id;
        first_seen = span !== null && span.first < c.prev.first_seen ? span.first : c.prev.first_seen;
        last_changed = span?.last ?? opts.today;
        first_seen_known = span !== null || c.prev.first_seen_known;
        carries.push({ id, from_hash: c.prev.hash, to_hash: hash, overlap: Math.round(c.overlap * 1000) / 1000, at: opts.today });
        carried++;
      } else {
        const base = ruleId(src.source, u.heading_path, u.text);
        id = base;
        for (let n = 2; usedIds.has(id); n++) id = `${base}-${n}`;
        first_seen = span?.first ?? opts.today;
        last_changed = span?.last ?? opts.today;
        // Without git, a new unit's date is known only when an earlier build read its file without it.
        first_seen_known = span !== null || knownSources.has(src.source);
        added++;
      }
      usedIds.add(id);
      units.push({
        id,
        source: src.source,
        kind: u.kind,
        heading_path: u.heading_path,
        // The index is written to the v4 folder and its texts are sent to model lanes: a secret
        // pasted into an instruction file is redacted here, while the id and hash are taken of
        // the text as written (so ids do not move, and an unchanged file compares unchanged).
        text: redactTextForWrite(u.text),
        context: u.context === null ? null : redactTextForWrite(u.context),
        hash,
        line_start: u.line_start,
        line_end: u.line_end,
        position: i,
        file_lines: src.parsed?.lines ?? 0,
        first_seen,
        last_changed,
        dates_from: span !== null ? "git" : "index",
        first_seen_known,
        scope: src.scope,
      });
    });
    for (const p of vanishedPrev) {
      if (carriedPrev.has(p)) continue;
      vanished.push({ id: p.id, source: p.source, text: p.text, at: opts.today });
      gone++;
    }
    sources.push({ source: src.source, path: src.path, kind: src.kind, load: src.load, scope: src.scope, imported_by: src.imported_by, project: src.project, lines: src.parsed.lines, bytes: src.bytes, units: raw.length, problems: src.problems });
  }
  // Sources of projects this build did not read are kept as they were (a source without units
  // too: a CLAUDE.md that only imports keeps its slug); others are gone: their units vanish.
  const readNow = new Set(loaded.map((s) => s.source));
  for (const src of previous?.sources ?? []) {
    if (readNow.has(src.source) || !keptSource(src)) continue;
    sources.push(src);
    for (const u of prevBySource.get(src.source) ?? []) units.push(u);
    prevBySource.delete(src.source);
  }
  for (const [, list] of prevBySource) {
    for (const p of list) {
      vanished.push({ id: p.id, source: p.source, text: p.text, at: opts.today });
      gone++;
    }
  }
  // The index keeps its order: sources (and their units) it had stay where they were, new ones
  // follow, so building one project of several again compares unchanged.
  const rank = new Map((previous?.sources ?? []).map((src, i) => [src.source, i]));
  const order = (source: string): number => rank.get(source) ?? Number.MAX_SAFE_INTEGER;
  sources.sort((a, b) => order(a.source) - order(b.source));
  units.sort((a, b) => order(a.source) - order(b.source));
  const projects = [...new Set([...(previous?.projects ?? []).filter((p) => sources.some((s) => s.project !== null && resolve(s.project) === resolve(p))), ...opts.projects])];
  const next: RuleIndex = { schema: RULE_INDEX_SCHEMA, updated: opts.today, projects, sources, units, carries, vanished };
  const changed = previous === null || comparable(previous) !== comparable(next);
  return { index: changed ? next : previous, changed, kept, added, carried, vanished: gone };
}
