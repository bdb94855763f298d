/**
 * Every module that writes files either passes what it writes through the redaction entry
 * point (it imports runtime/privacy), writes through a writer that does (the daily loop's
 * appendJsonl), or is listed below with the reason it need not. A new writer fails this test
 * until it does one of the three, so none can forget redaction by accident.
 */
import { describe, expect, it } from "vitest";
import { code, sources } from "./source-files.js";

const WRITE_CALL = /\b(appendJsonl|appendLines|writeFileAtomic|writeFileSync|appendFileSync|writeAttachment|saveCursorFile)\s*\(/;

/** Writers that redact every string they are given (callers that import them are covered). */
const REDACTING_WRITERS: Record<string, RegExp> = {
  "runtime/jobs/daily/jsonl.ts": /import\s*\{[^}]*\bappendJsonl\b[^}]*\}\s*from\s*"\.\/jsonl\.js"/,
};

/** Files that write without the entry point, each with why that is safe. */
const NEED_NOT: Record<string, string> = {
  "cli/commands/classtier/ask.ts": "the class judge's answers (a prompt hash and the model's class), next to a file the user names",
  "cli/commands/engine/ask.ts": "answers to --out: numbers, hashes and reasons from the engine, which redacts at the lane (openai/lane.ts)",
  "cli/commands/engine/train.ts": "trained weights to --out",
  "cli/commands/rules/pairs.ts": "labelled research pairs from bundled datasets to --out",
  "cli/shared/doc.ts": "generated reference pages (docs/)",
  "cli/shared/eval-files.ts": "research outputs from bundled datasets to --out",
  "cli/shared/research-files.ts": "research outputs from bundled datasets to --out",
  "runtime/classifier/index-write.ts": "the classifier's language index, built from its own data files",
  "runtime/corpora/importers/write.ts": "labelled public corpora converted into datasets/",
  "runtime/corpora/synthetic/index.ts": "generated synthetic sessions",
  "runtime/corpora/synthetic/instructions.ts": "generated instruction files of the synthetic projects",
  "runtime/engine/base/cache.ts": "scored answers only: a key hash, p_yes, how it was computed, the model",
  "runtime/judgments/cuts.ts": "the cuts file (`errata calibrate use`): question ids, numbers and where each cut came from",
  "runtime/engine/openai/batch.ts": "batch request files built by the lane's request(), which redacts every message",
  "runtime/files/atomic.ts": "the generic atomic write: its callers redact",
  "runtime/files/cursor.ts": "the generic cursor write: its callers keep no text (transcripts/carry-refs.ts)",
  "runtime/files/jsonl.ts": "the generic JSONL appender: its callers redact",
  "runtime/jobs/daily/state.ts": "the daily loop's state: ids, counts and times",
  "runtime/jobs/mine/mine.ts": "the mine cursor: sizes and modification times",
  "runtime/privacy/pseudonym.ts": "the reporter key (random bytes, 0600)",
  "runtime/privacy/known-learn.ts": "the known-value store (0600): lengths, salted fingerprints and salted SHA-256s of the owner's secrets, never a value",
  "runtime/privacy/import-rules-file.ts": "betterleaks' rules converted from the rule file the owner names (patterns, keywords, filters, the file's release and sha256), never a captured text",
  "runtime/store/attachments.ts": "the generic attachment write: its callers (add, the hook) redact",
  "runtime/transcripts/cursor.ts": "the exchanges cursor: offsets and hashes only (transcripts/carry-refs.ts)",
  "runtime/jobs/rules/filing.ts": "rule upgrades and filings: ids, hashes, counts and dates, no text",
  "runtime/pages/label-store.ts": "the labelling page's tokens (0600) and a labeller's answers (yes/no, ratings, classes)",
  "cli/commands/notebook.ts": "notebook pages of aggregate figures from research outputs",
  "cli/commands/store/export.ts": "errata read from a ledger or store, each redacted when it was written there (the ledger's append, the stores' append)",
  "cli/commands/sync.ts": "the sync cursor (a URL and a number); the errata pulled go through the ledger's or the store's redacting append",
  "cli/commands/report.ts": "the Pulse page: ids and counts only (runtime/pages/pulse-data.ts carries no entry text)",
  "runtime/hooks/pre-tool-use.ts": "the check runner's tool events: ids, the tool's name, the mode and the decision, never tool_input",
  "runtime/ladder/receipts.ts": "the loops' receipts: loop, night, counts and code's own notes",
  "runtime/ladder/shadow.ts": "each shadow check's gate reading (check ids, counts and the verdict line made of them), no owner text",
  "runtime/ladder/tool-handlers.ts": "the settings file's PreToolUse handlers (errata-tool-hook commands with check ids and their if rules, made from approved checks' patterns) and the list of settings files it wrote",
  "runtime/ladder/native-deny.ts": "the project's .claude/settings.json with permission rules made from an approved check's command pattern, and a backup of that file as the owner wrote it",
  "cli/commands/eval/consistency.ts": "a consistency report: question ids, counts, flip rates, intervals and the lane's settings, no exchange text",
  "runtime/ladder/holdout.ts": "checks.json rewritten with one check's holdout opt-in (a share and a seed); the checks in it were drafted and written by the ladder's own writers",
  "runtime/hooks/hook-reflect-sort.ts": "the Stop hook's sorted lines and reflection receipts: exchange, erratum and session ids, a cause class, probabilities and code's own notes, never the prompt's words (test/ladder/reflection.test.ts checks)",
  "runtime/rules/store.ts": "the rule index (0600): its unit texts and contexts are redacted when the index is built (runtime/rules/build.ts), ids and hashes taken of the text as written",
};


describe("every file writer passes the redaction entry point or says why not", () => {
  const writers = [...sources("runtime"), ...sources("cli")].filter((f) => WRITE_CALL.test(code(f)));

  it(`finds the writers (${writers.length})`, () => expect(writers.length).toBeGreaterThan(20));

  it("each redacts, writes through a redacting writer, or is listed with a reason", () => {
    const unexplained = writers.filter((f) => {
      const src = code(f);
      if (/from\s*"[./]*(?:\.\.\/)*(?:runtime\/)?privacy\/[^"]*"/.test(src) || f.startsWith("runtime/privacy/for-write")) return false;
      if (Object.entries(REDACTING_WRITERS).some(([w, imp]) => f !== w && imp.test(src) && f.startsWith(w.slice(0, w.lastIndexOf("/"))))) return false;
      return NEED_NOT[f] === undefined;
    });
    expect(unexplained).toEqual([]);
  });

  it("the list names no file that no longer writes (it stays true)", () => {
    expect(Object.keys(NEED_NOT).filter((f) => !writers.includes(f))).toEqual([]);
  });

  it("the redacting writer does redact", () => {
    expect(code("runtime/jobs/daily/jsonl.ts")).toMatch(/redactForWrite\(/);
  });
});
