/**
 * Parsing ledger lines and folding patch lines onto errata by id.
 *
 * Patches apply in reading order (months oldest first, lines in file order), after every
 * erratum is known, so a patch written in December onto a November erratum folds. A patch
 * whose status change the lifecycle forbids is reported and skipped whole; a patch for an
 * id no erratum has is reported (orphan) and skipped; a second erratum line with an id
 * already seen is reported and skipped.
 *
 * Example: lines `[erratum er-…-3fa9c1 (new), patch {status:"enriched", enrichment:{…}}]`
 * -> one folded erratum with status "enriched" and `patches: 1`.
 */
import {
  LedgerLineSchema,
  type Erratum,
  type Links,
  type Patch,
  type PatchSet,
} from "../../schemas/erratum.js";
import { isLegalTransition } from "../../schemas/erratum-constants.js";
import type { ReadProblem, TextLine } from "./read-files.js";
import { issuesToProblems } from "./rules.js";

export interface ParsedErratum {
  kind: "erratum";
  value: Erratum;
  file: string;
  line: number;
}
export interface ParsedPatch {
  kind: "patch";
  value: Patch;
  file: string;
  line: number;
}
export type ParsedLine = ParsedErratum | ParsedPatch;

/** Parses one text line; returns null (and pushes a problem) when it cannot be used. */
export function parseLine(l: TextLine, problems: ReadProblem[]): ParsedLine | null {
  if (l.text.trim() === "") return null;
  let json: unknown;
  try {
    json = JSON.parse(l.text);
  } catch (err) {
    problems.push(
      l.unterminated
        ? {
            file: l.file,
            line: l.line,
            code: "torn-tail",
            severity: "warning",
            message: `torn trailing line skipped (expected a whole JSON line ending in a newline; found ${l.text.length} characters without one)`,
          }
        : {
            file: l.file,
            line: l.line,
            code: "malformed-json",
            severity: "error",
            message: `malformed line skipped (expected one JSON object; found ${(err as Error).message})`,
          },
    );
    return null;
  }
  const parsed = LedgerLineSchema.safeParse(json);
  if (!parsed.success) {
    const id = typeof (json as { id?: unknown })?.id === "string" ? (json as { id: string }).id : undefined;
    for (const p of issuesToProblems(parsed.error.issues, json)) {
      problems.push({ file: l.file, line: l.line, code: p.code, severity: "error", message: `${p.message}; line skipped`, ...(id ? { id } : {}) });
    }
    return null;
  }
  const v = parsed.data;
  return v.schema === "erratum/1"
    ? { kind: "erratum", value: v, file: l.file, line: l.line }
    : { kind: "patch", value: v, file: l.file, line: l.line };
}

export interface FoldedErratum {
  erratum: Erratum;
  /** Where the erratum line is. */
  file: string;
  line: number;
  /** Patches folded on, in order. */
  patches: Array<{ file: string; line: number; ts: string; set: PatchSet }>;
  /** `ts` of the last patch folded on, or the erratum's own. */
  updated: string;
}

/** Applies one patch's `set` to an erratum (no checks); links merge key by key. */
export function applySet(e: Erratum, set: PatchSet): Erratum {
  const next: Erratum = { ...e };
  if (set.status !== undefined) next.status = set.status;
  if (set.enrichment !== undefined) next.enrichment = set.enrichment;
  if (set.kind !== undefined) next.kind = set.kind;
  if (set.system !== undefined) next.system = set.system;
  if (set.target !== undefined) next.target = set.target;
  if (set.frustration !== undefined) next.frustration = set.frustration;
  if (set.links !== undefined) next.links = mergeLinks(e.links, set.links);
  return next;
}

function mergeLinks(a: Links, b: Links): Links {
  const out: Links = { ...a, ...b };
  if (a.attachments && b.attachments) out.attachments = [...new Set([...a.attachments, ...b.attachments])];
  return out;
}

/** Why a patch cannot apply to the erratum as it stands, or null. */
export function patchRefusal(e: Erratum, set: PatchSet): string | null {
  if (set.status !== undefined && !isLegalTransition(e.status, set.status)) {
    return `illegal status transition for ${e.id} (expected ${e.status} -> ${nextList(e.status)}; found ${e.status} -> ${set.status})`;
  }
  return null;
}

function nextList(from: Erratum["status"]): string {
  const map: Record<string, string> = {
    new: "enriched",
    enriched: "triaged | upgrade-filed",
    triaged: "upgrade-filed | fixed | wontfix | duplicate",
    "upgrade-filed": "fixed | wontfix | duplicate",
  };
  return map[from] ?? "nothing (a final status)";
}

/** Folds parsed lines into errata by id, in reading order. */
export function foldLines(lines: Iterable<ParsedLine>, problems: ReadProblem[]): Map<string, FoldedErratum> {
  const byId = new Map<string, FoldedErratum>();
  const patches: ParsedPatch[] = [];
  for (const p of lines) {
    if (p.kind === "patch") {
      patches.push(p);
      continue;
    }
    const existing = byId.get(p.value.id);
    if (existing) {
      problems.push({
        file: p.file,
        line: p.line,
        code: "duplicate-id",
        severity: "error",
        id: p.value.id,
        message: `duplicate erratum id skipped (expected a new id; found ${p.value.id}, first at ${existing.file}:${existing.line})`,
      });
      continue;
    }
    byId.set(p.value.id, { erratum: p.value, file: p.file, line: p.line, patches: [], updated: p.value.ts });
  }
  for (const p of patches) {
    const f = byId.get(p.value.id);
    if (!f) {
      problems.push({
        file: p.file,
        line: p.line,
        code: "orphan-patch",
        severity: "error",
        id: p.value.id,
        message: `patch for an unknown erratum skipped (expected an erratum line with id ${p.value.id}; found none)`,
      });
      continue;
    }
    const refusal = patchRefusal(f.erratum, p.value.set);
    if (refusal) {
      problems.push({ file: p.file, line: p.line, code: "illegal-transition", severity: "error", id: p.value.id, message: `${refusal}; patch skipped` });
      continue;
    }
    f.erratum = applySet(f.erratum, p.value.set);
    f.patches.push({ file: p.file, line: p.line, ts: p.value.ts, set: p.value.set });
    if (p.value.ts > f.updated) f.updated = p.value.ts;
  }
  return byId;
}
