/**
 * `errata backfill`: the older signal stores, read into errata idempotently. Three inputs
 * (formats in docs/capture.md):
 * - `ratings.jsonl`: `{ts|timestamp, rating, session_id?, comment|message|prompt|text?, source?}`
 *   per line. Only low rows (rating below 7) are imported, as kind complaint keeping the
 *   number (source owner: a person typed it; channel backfill). Rows marked implicit or
 *   inferred are skipped: a rating is a number a person gave.
 * - `FAILURES/<folder>/sentiment.json`: `{timestamp|ts, user_message|message|prompt?,
 *   summary?, session_id?, rating?}`. Kind correction, source backfill, rating always null
 *   (those ratings were fabricated), `links.failure_dir` the folder. No verbatim words: skipped.
 * - correction-sourced upgrade records (`upgrades.jsonl`): lines with `source: "correction"`,
 *   `{id, ts|created, claim|title?, evidence?: {quote?, session_id?}}`. Kind correction,
 *   source backfill, `links.upgrade_id`.
 * Each candidate's id is derived from its source (`er-YYYYMMDD-` + 6 hex of a hash of the
 * format and key), so a re-run finds it in the ledger and appends nothing.
 *
 * Example: a ratings line `{"ts":"2026-09-01T10:00:00Z","rating":3,"comment":"broke it again"}`
 * -> one candidate `{id: "er-20260901-…", kind: "complaint", rating: 3, complaint: "broke it again"}`.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Erratum, Reporter } from "../../../schemas/erratum.js";
import { newErratum } from "../../store/index.js";

export type BackfillFormat = "ratings" | "failures" | "upgrades";

export interface BackfillCandidate {
  format: BackfillFormat;
  /** Where it came from, for messages: "ratings.jsonl:12", "FAILURES/2026-09-01-x". */
  ref: string;
  erratum: Erratum;
}

export interface BackfillSkip {
  format: BackfillFormat;
  ref: string;
  reason: string;
}

export interface BackfillRead {
  candidates: BackfillCandidate[];
  skipped: BackfillSkip[];
}

type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);
const firstStr = (o: Obj, keys: string[]): string | null => {
  for (const k of keys) {
    const v = str(o[k]);
    if (v !== null) return v;
  }
  return null;
};

function isoOf(v: unknown): string | null {
  if (typeof v !== "string" && typeof v !== "number") return null;
  const ms = typeof v === "number" ? (v < 1e12 ? v * 1000 : v) : Date.parse(v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** `er-YYYYMMDD-` + 6 hex of sha256(format, key): the same source row always gets the same id. */
export function backfillId(format: BackfillFormat, key: string, ts: string): string {
  const day = ts.slice(0, 10).replaceAll("-", "");
  const hex = createHash("sha256").update(`backfill/1\u0000${format}\u0000${key}`).digest("hex").slice(0, 6);
  return `er-${day}-${hex}`;
}

export interface BackfillBase {
  nowMs: number;
  reporter: Reporter;
  instance?: string;
}

function make(base: BackfillBase, fields: Parameters<typeof newErratum>[0]): Erratum {
  return newErratum({ ...fields, nowMs: base.nowMs, reporter: base.reporter, ...(base.instance === undefined ? {} : { instance: base.instance }) });
}

function jsonLines(text: string): Array<{ lineNo: number; value: unknown; error: string | null }> {
  const out: Array<{ lineNo: number; value: unknown; error: string | null }> = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      out.push({ lineNo: i + 1, value: JSON.parse(line), error: null });
    } catch {
      out.push({ lineNo: i + 1, value: null, error: "not JSON" });
    }
  });
  return out;
}

const INFERRED_SOURCES = new Set(["implicit", "inferred", "sentiment", "detected", "model"]);

export function readRatings(file: string, label: string, base: BackfillBase): BackfillRead {
  const out: BackfillRead = { candidates: [], skipped: [] };
  for (const { lineNo, value, error } of jsonLines(readFileSync(file, "utf8"))) {
    const ref = `${label}:${lineNo}`;
    const skip = (reason: string) => out.skipped.push({ format: "ratings", ref, reason });
    if (error !== null || typeof value !== "object" || value === null || Array.isArray(value)) {
      skip("not a JSON object");
      continue;
    }
    const o = value as Obj;
    const rating = typeof o["rating"] === "number" ? o["rating"] : typeof o["rating"] === "string" ? Number(o["rating"]) : NaN;
    const ts = isoOf(o["ts"] ?? o["timestamp"]);
    const source = str(o["source"])?.toLowerCase() ?? null;
    if (!Number.isFinite(rating) || rating < 1 || rating > 10) skip("no rating from 1 to 10");
    else if (ts === null) skip("no timestamp");
    else if (source !== null && INFERRED_SOURCES.has(source)) skip(`rating was ${source}, not given by a person`);
    else if (rating >= 7) skip("not a low rating (7 or more)");
    else {
      const words = firstStr(o, ["comment", "message", "prompt", "text", "feedback"]);
      const sessionId = str(o["session_id"] ?? o["sessionId"]);
      out.candidates.push({
        format: "ratings",
        ref,
        erratum: make(base, {
          nowMs: base.nowMs,
          reporter: base.reporter,
          id: backfillId("ratings", `${ts}\u0000${rating}\u0000${sessionId ?? ""}\u0000${words ?? ""}`, ts),
          ts,
          source: "owner",
          channel: "backfill",
          kind: "complaint",
          rating,
          complaint: words ?? `${rating}/10`,
          context: { session_id: sessionId, response_preview: str(o["response_preview"]) },
        }),
      });
    }
  }
  return out;
}

export function readFailures(dir: string, label: string, base: BackfillBase): BackfillRead {
  const out: BackfillRead = { candidates: [], skipped: [] };
  const names = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory()).sort();
  for (const name of names) {
    const file = join(dir, name, "sentiment.json");
    const ref = `${label}/${name}`;
    const skip = (reason: string) => out.skipped.push({ format: "failures", ref, reason });
    if (!existsSync(file)) {
      skip("no sentiment.json");
      continue;
    }
    let o: Obj;
    try {
      const v: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
      o = v as Obj;
    } catch {
      skip("sentiment.json is not a JSON object");
      continue;
    }
    const words = firstStr(o, ["user_message", "message", "prompt", "complaint", "text"]);
    const ts = isoOf(o["timestamp"] ?? o["ts"]) ?? isoOf(statSync(file).mtimeMs);
    if (words === null) skip("no verbatim words (user_message, message or prompt)");
    else if (ts === null) skip("no timestamp");
    else {
      out.candidates.push({
        format: "failures",
        ref,
        erratum: make(base, {
          nowMs: base.nowMs,
          reporter: base.reporter,
          id: backfillId("failures", name, ts),
          ts,
          source: "backfill",
          channel: "backfill",
          kind: "correction",
          rating: null, // FAILURES ratings were fabricated (a 3 on every correction): never imported
          complaint: words,
          context: { session_id: str(o["session_id"] ?? o["sessionId"]), response_preview: str(o["response_preview"] ?? o["assistant_response"]) },
          links: { failure_dir: join(dir, name) },
        }),
      });
    }
  }
  return out;
}

export function readUpgrades(file: string, label: string, base: BackfillBase): BackfillRead {
  const out: BackfillRead = { candidates: [], skipped: [] };
  for (const { lineNo, value, error } of jsonLines(readFileSync(file, "utf8"))) {
    const ref = `${label}:${lineNo}`;
    if (error !== null || typeof value !== "object" || value === null || Array.isArray(value)) {
      out.skipped.push({ format: "upgrades", ref, reason: "not a JSON object" });
      continue;
    }
    const o = value as Obj;
    if (str(o["source"]) !== "correction") continue; // only correction-sourced records are errata
    const id = str(o["id"]);
    const evidence = typeof o["evidence"] === "object" && o["evidence"] !== null ? (o["evidence"] as Obj) : {};
    const words = firstStr(evidence, ["quote", "text", "message"]) ?? firstStr(o, ["quote", "claim", "title", "summary"]);
    const ts = isoOf(o["ts"] ?? o["created"] ?? o["timestamp"]);
    const skip = (reason: string) => out.skipped.push({ format: "upgrades", ref, reason });
    if (id === null) skip("no id");
    else if (words === null) skip("no words (evidence.quote, claim or title)");
    else if (ts === null) skip("no timestamp");
    else {
      out.candidates.push({
        format: "upgrades",
        ref,
        erratum: make(base, {
          nowMs: base.nowMs,
          reporter: base.reporter,
          id: backfillId("upgrades", id, ts),
          ts,
          source: "backfill",
          channel: "backfill",
          kind: "correction",
          rating: null,
          complaint: words,
          context: { session_id: str(evidence["session_id"] ?? o["session_id"]) },
          links: { upgrade_id: id },
        }),
      });
    }
  }
  return out;
}
