/**
 * The redaction of assembled values (assembled-find.ts) carried back to the text (issue 34, the
 * eleventh held-out set): each value joined from literals, char codes or variables is put on a
 * synthetic line (its name, then the value quoted) that the redactor's ordinary rules read; where
 * they find a secret that takes characters of two parts or more, every part that gave the secret
 * is replaced in the text, and for parts side by side everything from the first such part to the
 * last (the joiners too), so no run of the secret survives. Secrets carried encoded
 * (assembled-encoded.ts), in a table's secret column (carried-tables.ts) and alone in a sentence
 * (carried-prose.ts) are replaced here too. Only adds: what the text's own
 * redaction replaced stays replaced (as through-views.ts).
 *
 * Example: `redactAssembled('P = "kRws…61" + "8a5T…08"', …)` -> `P = [REDACTED:env-assignment]`.
 */
import type { Redaction } from "./engine.js";
import type { Span } from "./spans.js";
import { replacedRuns, withFound } from "./through-views.js";
import type { Assembled } from "./assembled-find.js";
import { proseTokenSpans } from "./carried-prose.js";
import { mayHoldReadings } from "./reader-gates.js";
import { loadReaders } from "./readers-load.js";

/** The spans of `text` to replace for `a`, given the runs its line's redaction replaced; none when no run takes two parts. */
function spansOf(a: Assembled, runs: ReadonlyArray<{ start: number; end: number; kind: string }>): Span[] {
  const out: Span[] = [];
  for (const run of runs) {
    const at = a.valueAt.find((v) => run.start < v + a.valueLength && run.end > v);
    if (at === undefined) continue;
    const from = Math.max(run.start, at) - at;
    const to = Math.min(run.end, at + a.valueLength) - at;
    const used = a.parts.filter((p) => p.from < to && p.to > from);
    if (new Set(used.map((p) => p.start)).size < 2) continue;
    if (a.chain) out.push({ start: Math.min(...used.map((p) => p.start)), end: Math.max(...used.map((p) => p.end)), rank: 0, kind: run.kind });
    else for (const p of used) out.push({ start: p.start, end: p.end, rank: 0, kind: run.kind });
  }
  return out;
}

/**
 * `r`, the redaction of `text` so far, with the secrets `redact` finds in the text's assembled
 * values replaced too. No assembled value, or no secret in one: `r`.
 */
export function redactAssembled(text: string, r: Redaction, redact: (text: string) => Redaction): Redaction {
  const { values, direct } = readingsOf(text);
  const found: Span[] = [...direct];
  if (values.length === 0 && found.length === 0) return r;
  for (const a of values) {
    const out = redact(a.line);
    if (out.kinds.length === 0) continue;
    const runs = replacedRuns(a.line, out.text);
    if (runs !== null) found.push(...spansOf(a, runs));
  }
  if (found.length === 0) return r;
  const own = r.text === text ? [] : replacedRuns(text, r.text);
  // The text's own redaction could not be read back as runs (it should always be): keep it as it is.
  if (own === null) return r;
  return withFound(text, r, own, found);
}

/** Whether `text` has an assembled value whose synthetic line `cleared` (the pre-filter) does not clear, or a secret found without the rules. */
export function assembledNotCleared(text: string, cleared: (line: string) => boolean): boolean {
  const { values, direct } = readingsOf(text);
  return direct.length > 0 || values.some((a) => !cleared(a.line));
}

/**
 * A text's assembled values and the secrets found without the rules (encoded, assembled-encoded.ts;
 * in a table's secret column, carried-tables.ts; alone in a sentence, carried-prose.ts), read once
 * a process: a writer checks its texts with one pre-filter run (redact.ts `allCleared`), then
 * redacts the ones it could not clear, and both ask. Bounded as redact.ts's caches are.
 */
const readings = new Map<string, { values: Assembled[]; direct: Span[] }>();

/**
 * Tells readingsOf that none of `texts` holds a reading of readers-load.ts's readers when their
 * join fails the gate (reader-gates.ts `mayHoldReadings`: each of its tests that holds in a text
 * holds in a join of it with others by newlines, no test being anchored), so that a writer's
 * texts pay for the gate's patterns once (redact.ts `allCleared`).
 */
export function ruleOutReadings(texts: readonly string[]): void {
  // Texts read before (a writer asks again for texts of an earlier writer's) are left out of the join.
  const fresh = texts.filter((t) => !readings.has(t));
  if (fresh.length < 2 || mayHoldReadings(fresh.join("\n"))) return;
  for (const t of fresh) {
    if (readings.size >= 64) readings.clear();
    readings.set(t, { values: [], direct: proseTokenSpans(t) });
  }
}
function readingsOf(text: string): { values: Assembled[]; direct: Span[] } {
  const seen = readings.get(text);
  if (seen !== undefined) return seen;
  if (readings.size >= 64) readings.clear();
  // The readers' code is loaded only for a text their gate does not rule out (reader-gates.ts).
  const k = mayHoldReadings(text) ? loadReaders() : null;
  const r = k === null ? { values: [], direct: proseTokenSpans(text) } : { values: k.assembledValues(text), direct: [...k.encodedSpans(text), ...k.tableSpans(text), ...proseTokenSpans(text)] };
  readings.set(text, r);
  return r;
}
