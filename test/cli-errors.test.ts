import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CommanderError } from "commander";
import { reportError, run } from "../cli/main.js";
import { CodedError, ErrataError, InvariantError } from "../core/errors.js";
import { quantileSorted } from "../eval/quantile.js";
import { AppendError } from "../runtime/store/append-line.js";
import { memoryIo, tempDir } from "./helpers/io.js";

/** The error a real call throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to throw");
}

describe("run(): one mapping from an error to an exit code", () => {
  it("a code that starts with E but is no OS error is not reported as I/O", () => {
    const m = memoryIo();
    const plain = Object.assign(new Error("no rows"), { code: "EMPTY" });
    expect(reportError(plain, m.io)).toBe(2);
    expect(m.err()).toMatch(/^errata: internal error: Error: no rows/);
    expect(m.err()).not.toMatch(/I\/O error/);
  });

  it("an evaluation error with code EMPTY exits 2 as bad input, with its expected and found", () => {
    const m = memoryIo();
    const err = thrown(() => quantileSorted([], 0.5));
    expect(err).toBeInstanceOf(CodedError);
    expect(err).toMatchObject({ code: "EMPTY", kind: "input" });
    expect(reportError(err, m.io)).toBe(2);
    expect(m.err()).toBe("errata: quantile of an empty list (expected at least one value; found 0 values)\n");
  });

  it("a Node system error is an I/O error, recognised by errno and syscall", () => {
    const m = memoryIo();
    const err = thrown(() => readFileSync("no/such/file/here.json"));
    expect(err).toMatchObject({ code: "ENOENT", syscall: "open" });
    expect(reportError(err, m.io)).toBe(2);
    expect(m.err()).toMatch(/^errata: I\/O error: ENOENT/);
  });

  it("a failed check exits 1, every other kind 2", () => {
    const cases: [unknown, number][] = [
      [new ErrataError("CHECK_FAILED", "bars not met"), 1],
      [new ErrataError("BAD_INPUT", "bad"), 2],
      [new ErrataError("NOT_FOUND", "no such id"), 2],
      [new AppendError("SHORT_WRITE", "short write"), 2],
      [new InvariantError("INVARIANT", "broken"), 2],
    ];
    for (const [err, code] of cases) expect(reportError(err, memoryIo().io)).toBe(code);
  });

  it("an internal error is printed with its stack; the others with their message only", () => {
    const internal = memoryIo();
    reportError(new InvariantError("ANSWERS_MISMATCH", "engine returned 1 answer for 2 pairs"), internal.io);
    expect(internal.err()).toMatch(/^errata: internal error: InvariantError: engine returned 1 answer for 2 pairs\n\s+at /);
    const input = memoryIo();
    reportError(new AppendError("LINE_TOO_LONG", "line too long"), input.io);
    expect(input.err()).toBe("errata: line too long\n");
  });

  it("commander's help exits 0 and its usage errors 2", () => {
    expect(reportError(new CommanderError(0, "commander.helpDisplayed", ""), memoryIo().io)).toBe(0);
    expect(reportError(new CommanderError(1, "commander.unknownOption", "unknown option"), memoryIo().io)).toBe(2);
  });

  it("run() goes through the same mapping: a coded error from a command", async () => {
    const t = tempDir();
    try {
      const m = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir } });
      expect(await run(["show", "er-20261130-3fa9c1"], m.io)).toBe(2);
      expect(m.err()).toBe("errata: no erratum with id er-20261130-3fa9c1 (expected an id listed by `errata list`; found er-20261130-3fa9c1)\n");
    } finally {
      t.cleanup();
    }
  });
});
