import { describe, expect, it } from "vitest";
import { CodedError, ErrataError, EXIT_CODE_OF_KIND, badInput, describeFound, isSystemError, withDetail, type ErrataErrorCode } from "../../core/errors.js";
import { CombinerBankError } from "../../combiner/model.js";
import { EngineConfigError } from "../../runtime/engine/config.js";
import { EngineInputError } from "../../runtime/engine/embedded/files.js";
import { SyntheticSeedError } from "../../runtime/engine/embedded/sets.js";
import { EvalInputError } from "../../eval/errors.js";
import { LogisticError } from "../../learn/logistic-error.js";
import { AppendError } from "../../runtime/store/append-line.js";

describe("the error base", () => {
  it("every area's error is a CodedError with its own name, code and kind", () => {
    const cases: [CodedError, string, string, string][] = [
      [new EvalInputError("EMPTY", "no items", "1 item", "0"), "EvalInputError", "EMPTY", "input"],
      [new LogisticError("DEGENERATE", "one class"), "LogisticError", "DEGENERATE", "input"],
      [new CombinerBankError("aa", "bb"), "CombinerBankError", "BANK_MISMATCH", "input"],
      [new EngineConfigError("bad lane", "a lane", "none"), "EngineConfigError", "BAD_CONFIG", "config"],
      [new EngineInputError("bad file", "JSONL", "text"), "EngineInputError", "BAD_INPUT", "input"],
      [new SyntheticSeedError("seed 7", "another seed", "7"), "SyntheticSeedError", "BAD_SEED", "input"],
      [new AppendError("LINE_TOO_LONG", "too long"), "AppendError", "LINE_TOO_LONG", "input"],
      [new AppendError("SHORT_WRITE", "short"), "AppendError", "SHORT_WRITE", "io"],
    ];
    for (const [err, name, code, kind] of cases) {
      expect(err).toBeInstanceOf(CodedError);
      expect(err).toBeInstanceOf(Error);
      expect({ name: err.name, code: err.code, kind: err.kind, exitCode: err.exitCode }).toEqual({ name, code, kind, exitCode: 2 });
    }
  });

  it("keeps each area's message: the eval tail, the engine's bare message with fields beside it", () => {
    const e = new EvalInputError("EMPTY", "Fleiss' kappa needs rated items", "at least one item with 2 or more ratings", "0 items");
    expect(e.message).toBe("Fleiss' kappa needs rated items (expected at least one item with 2 or more ratings; found 0 items)");
    const c = new EngineConfigError("no lane named x", "one of: embedded", "x");
    expect(c.message).toBe("no lane named x");
    expect({ expected: c.expected, found: c.found }).toEqual({ expected: "one of: embedded", found: "x" });
    const b = new CombinerBankError("aa", "bb");
    expect({ expected: b.expected, found: b.found }).toEqual({ expected: "bank aa", found: "bank bb" });
  });

  it("an ErrataError's kind follows its code; only CHECK_FAILED exits 1", () => {
    const codes: ErrataErrorCode[] = ["BAD_INPUT", "BAD_CONFIG", "IO", "NOT_FOUND", "CHECK_FAILED", "BUDGET", "UNSUPPORTED"];
    const got = Object.fromEntries(codes.map((c) => [c, [new ErrataError(c, "m").kind, new ErrataError(c, "m").exitCode]]));
    expect(got).toEqual({
      BAD_INPUT: ["input", 2],
      BAD_CONFIG: ["config", 2],
      IO: ["io", 2],
      NOT_FOUND: ["not_found", 2],
      CHECK_FAILED: ["check", 1],
      BUDGET: ["budget", 2],
      UNSUPPORTED: ["unsupported", 2],
    });
    expect(Object.entries(EXIT_CODE_OF_KIND).filter(([, code]) => code === 1)).toEqual([["check", 1]]);
  });

  it("ErrataError and badInput keep their message and cause", () => {
    const cause = new Error("inner");
    const e = new ErrataError("IO", "cannot read x", { found: "EACCES", cause });
    expect(e.message).toBe("cannot read x (found EACCES)");
    expect(e.cause).toBe(cause);
    expect(e.name).toBe("ErrataError");
    expect(badInput("bad --k", "an integer >= 2", "1")).toMatchObject({ code: "BAD_INPUT", kind: "input", message: "bad --k (expected an integer >= 2; found 1)", expected: "an integer >= 2", found: "1" });
    expect(badInput("bad").message).toBe("bad");
    expect(withDetail("m", undefined, "f")).toBe("m (found f)");
    expect(describeFound("x".repeat(100)).length).toBe(60);
  });

  it("isSystemError wants errno and syscall, not a code starting with E", () => {
    expect(isSystemError(Object.assign(new Error("x"), { code: "EMPTY" }))).toBe(false);
    expect(isSystemError(new EvalInputError("EMPTY", "m", "e", "f"))).toBe(false);
    expect(isSystemError(Object.assign(new Error("x"), { code: "ENOENT", errno: -2, syscall: "open" }))).toBe(true);
    expect(isSystemError(null)).toBe(false);
  });
});
