import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appendJsonl, countJsonl, firstError, formatProblem, iterateJsonl, parseJsonlText, readJsonl, reportProblems } from "../../runtime/files/index.js";
import { AnswerSchema } from "../../schemas/answer.js";
import { compileForChild } from "../store/compile-for-child.js";
import { tempDir } from "../helpers/io.js";

const A = z.object({ a: z.number() });
let t: { dir: string; cleanup: () => void };
let n = 0;
const fresh = (): string => join(t.dir, `f${n++}.jsonl`);

beforeAll(() => {
  t = tempDir("errata-jsonl-");
});
afterAll(() => t.cleanup());

async function iterated(path: string) {
  const rows: unknown[] = [];
  const problems: unknown[] = [];
  for await (const r of iterateJsonl(path, A, { onProblem: (p) => problems.push(p) })) rows.push(r.row);
  return { rows, problems };
}

describe("the bad-line policy (the doc comment's example)", () => {
  it("a malformed middle line is an error with its line; a torn tail is a warning; both skipped", async () => {
    const f = fresh();
    writeFileSync(f, '{"a":1}\n{"a":\n{"a":3}\n{"a":');
    const r = readJsonl(f, A);
    expect(r.rows).toEqual([{ a: 1 }, { a: 3 }]);
    expect(r.problems).toMatchObject([
      { file: f, line: 2, code: "malformed-json", severity: "error", found: '"{\\"a\\":"' },
      { file: f, line: 4, code: "torn-tail", severity: "warning", found: 'an unterminated fragment of 5 bytes: "{\\"a\\":"' },
    ]);
    // The streamed reader and the counter see the same.
    expect(await iterated(f)).toEqual(r);
    expect(await countJsonl(f, A)).toEqual({ rows: 2, problems: r.problems });
    expect(firstError(r.problems)?.line).toBe(2);
  });

  it("the next append sets the torn tail apart: the fragment becomes its own malformed line, the new row is whole", () => {
    const f = fresh();
    writeFileSync(f, '{"a":1}\n{"a":');
    expect(appendJsonl(f, [{ a: 5 }])).toEqual({ bytes: 9, setApartTornTail: true });
    expect(readFileSync(f, "utf8")).toBe('{"a":1}\n{"a":\n{"a":5}\n');
    const r = readJsonl(f, A);
    expect(r.rows).toEqual([{ a: 1 }, { a: 5 }]);
    expect(r.problems).toMatchObject([{ line: 2, code: "malformed-json", severity: "error" }]);
    // A second append has nothing to set apart.
    expect(appendJsonl(f, [{ a: 6 }, { a: 7 }]).setApartTornTail).toBe(false);
    expect(readJsonl(f, A).rows).toEqual([{ a: 1 }, { a: 5 }, { a: 6 }, { a: 7 }]);
  });

  it("a whole last row without its newline is read, and an append ends it first", () => {
    const f = fresh();
    writeFileSync(f, '{"a":1}\n{"a":2}');
    expect(readJsonl(f, A)).toEqual({ rows: [{ a: 1 }, { a: 2 }], problems: [] });
    expect(appendJsonl(f, [{ a: 3 }]).setApartTornTail).toBe(true);
    expect(readJsonl(f, A)).toEqual({ rows: [{ a: 1 }, { a: 2 }, { a: 3 }], problems: [] });
  });

  it("blank lines are skipped silently; a missing file reads as empty; nothing to append writes nothing", () => {
    const f = fresh();
    writeFileSync(f, '\n{"a":1}\n  \n\r\n{"a":2}\r\n');
    expect(readJsonl(f, A)).toEqual({ rows: [{ a: 1 }, { a: 2 }], problems: [] });
    expect(readJsonl(join(t.dir, "none.jsonl"), A)).toEqual({ rows: [], problems: [] });
    expect(appendJsonl(join(t.dir, "still-none.jsonl"), [])).toEqual({ bytes: 0, setApartTornTail: false });
    expect(readJsonl(join(t.dir, "still-none.jsonl"), A).rows).toEqual([]);
  });

  it("appends create the folder and refuse a value JSON cannot write", () => {
    const f = join(t.dir, "deep", "er", "x.jsonl");
    appendJsonl(f, [{ a: 1 }]);
    expect(readJsonl(f, A).rows).toEqual([{ a: 1 }]);
    expect(() => appendJsonl(f, [{ a: 2 }, undefined])).toThrow(/cannot append/);
    expect(readJsonl(f, A).rows).toEqual([{ a: 1 }]);
  });
});

describe("reading with a schema: typed rows plus problems (file, line, expected, found)", () => {
  const base = { schema: "answer/1", exchange_id: "ex-1", question_id: "detect.unhappy", question_version: 1, lane: "replay", model: "m", prompt_hash: "h", raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-11-30T00:00:00Z" };
  it("the issue's two rows are reported, not guessed; the good ones are typed answers", () => {
    const rows = [
      { ...base, status: "scored", p_yes: 0.4, computed_from: "replay", reason: null },
      { ...base, status: "scored", p_yes: null, computed_from: "replay", reason: null },
      { ...base, status: "unscored", p_yes: 0.3, computed_from: null, reason: null },
      { ...base, status: "unscored", p_yes: null, computed_from: null, reason: "no reply" },
      { ...base, status: "maybe", p_yes: 0.5, computed_from: null, reason: null },
    ];
    const r = parseJsonlText(rows.map((x) => JSON.stringify(x)).join("\n") + "\n", "v4/answers.jsonl", AnswerSchema, { what: "an answer/1 row" });
    expect(r.rows.map((a) => [a.status, a.p_yes])).toEqual([["scored", 0.4], ["unscored", null]]);
    expect(r.problems).toEqual([
      { file: "v4/answers.jsonl", line: 2, code: "schema", severity: "error", expected: 'an answer/1 row (p_yes: a probability in [0, 1] (status "scored"))', found: "p_yes = null" },
      { file: "v4/answers.jsonl", line: 3, code: "schema", severity: "error", expected: 'an answer/1 row (p_yes: no probability (status "unscored"))', found: "p_yes = 0.3" },
      { file: "v4/answers.jsonl", line: 5, code: "schema", severity: "error", expected: 'an answer/1 row (status: status "scored" or "unscored")', found: 'status = "maybe"' },
    ]);
    expect(formatProblem(r.problems[0]!)).toBe('v4/answers.jsonl:2: schema line skipped (expected an answer/1 row (p_yes: a probability in [0, 1] (status "scored")); found p_yes = null)');
  });

  it("reportProblems writes at most `max` lines, then how many more", () => {
    const text = Array.from({ length: 13 }, () => "nope").join("\n") + "\n";
    const lines: string[] = [];
    reportProblems(parseJsonlText(text, "x.jsonl", A).problems, (l) => lines.push(l), 10);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^x\.jsonl:1: malformed-json line skipped/);
    expect(lines[10]).toBe("… and 3 more unreadable lines");
  });
});

describe("property: appends interleaved with torn writes lose only the torn rows, and glue nothing", () => {
  it("every row of every append that was not cut reads back, in order; each cut leaves one problem", () => {
    const batch = fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 4 });
    const step = fc.oneof(fc.record({ append: batch }), fc.record({ tear: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }) }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const f = fresh();
        writeFileSync(f, "");
        const alive: number[] = [];
        let lastBatch: { start: number; values: number[]; aliveFrom: number } | null = null;
        let cuts = 0;
        for (const s of steps) {
          if ("append" in s) {
            const before = readFileSync(f).length;
            const r = appendJsonl(f, s.append.map((a) => ({ a })));
            lastBatch = { start: before + (r.setApartTornTail ? 1 : 0), values: s.append, aliveFrom: alive.length };
            alive.push(...s.append);
          } else if (lastBatch !== null) {
            // A crash mid-write: cut inside one row of the last append (never at a line's end).
            const k = Math.floor(s.tear * lastBatch.values.length);
            let at = lastBatch.start;
            for (let i = 0; i < k; i++) at += `${JSON.stringify({ a: lastBatch.values[i] })}\n`.length;
            const row = JSON.stringify({ a: lastBatch.values[k] });
            truncateSync(f, at + 1 + Math.floor(s.tear * 1000) % (row.length - 1));
            alive.length = lastBatch.aliveFrom + k;
            lastBatch = null;
            cuts++;
          }
        }
        const r = readJsonl(f, A);
        expect(r.rows.map((x) => x.a)).toEqual(alive);
        expect(r.problems).toHaveLength(cuts);
        expect(r.problems.every((p) => p.code === "torn-tail" || p.code === "malformed-json")).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

const CHILD = `
import { appendJsonl } from "./runtime/files/jsonl.js";
const [file, proc, count] = process.argv.slice(2);
for (let i = 0; i < Number(count); i++) {
  const pad = "x".repeat(((Number(proc) * 7919 + i * 104729) % 30000));
  appendJsonl(file, [{ proc: Number(proc), i, pad }, { proc: Number(proc), i, second: true }]);
}
`;

describe("appends from several processes at once", () => {
  it("four writers, 150 appends each of two rows up to 30 KB: every row whole, none interleaved", async () => {
    const code = join(t.dir, "code");
    compileForChild(code, ["runtime/files/jsonl.ts", "runtime/files/lines.ts", "runtime/files/append.ts", "core/errors.ts"]);
    writeFileSync(join(code, "child.mjs"), CHILD);
    const f = fresh();
    await Promise.all(
      [0, 1, 2, 3].map(
        (proc) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, [join(code, "child.mjs"), f, String(proc), "150"], { stdio: ["ignore", "ignore", "pipe"] });
            let err = "";
            child.stderr.on("data", (d: Buffer) => (err += d.toString()));
            child.on("close", (c) => (c === 0 ? resolve() : reject(new Error(`child ${proc} failed: ${err}`))));
          }),
      ),
    );
    const r = readJsonl(f, z.object({ proc: z.number(), i: z.number(), pad: z.string().optional(), second: z.literal(true).optional() }));
    expect(r.problems).toEqual([]);
    // And no blank line (runtime/files/append.ts waits out a write in progress).
    expect(readFileSync(f, "utf8").split("\n").slice(0, -1).filter((l) => l === "")).toEqual([]);
    expect(r.rows).toHaveLength(4 * 150 * 2);
    // Each append's two rows are adjacent: one write, never split by another writer.
    for (let k = 0; k < r.rows.length; k += 2) {
      expect(r.rows[k]).toMatchObject({ proc: r.rows[k + 1]!.proc, i: r.rows[k + 1]!.i });
      expect(r.rows[k + 1]!.second).toBe(true);
    }
  });
});

// What an appender without the set-apart step (the exchanges sweep before this module) left.
describe("a torn tail with a row glued onto it by an older writer", () => {
  it("the glued line is one malformed line, reported, and the rows around it stand", () => {
    const f = fresh();
    writeFileSync(f, '{"a":1}\n{"a":');
    appendFileSync(f, '{"a":2}\n{"a":3}\n');
    const r = readJsonl(f, A);
    expect(r.rows).toEqual([{ a: 1 }, { a: 3 }]);
    expect(r.problems).toMatchObject([{ line: 2, code: "malformed-json" }]);
  });
});

describe("rows as read", () => {
  it("asRead returns the row as written (unknown keys and key order kept), still checked by the schema", () => {
    const schema = z.object({ a: z.number(), b: z.string() });
    const text = '{"b":"x","extra":1,"a":2}\n{"a":"no","b":"y"}\n';
    const plain = parseJsonlText(text, "f.jsonl", schema);
    const raw = parseJsonlText(text, "f.jsonl", schema, { asRead: true });
    expect(JSON.stringify(plain.rows)).toBe('[{"a":2,"b":"x"}]');
    expect(JSON.stringify(raw.rows)).toBe('[{"b":"x","extra":1,"a":2}]');
    expect(raw.problems.map((p) => [p.line, p.code])).toEqual([[2, "schema"]]);
  });
});
