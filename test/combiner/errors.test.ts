import { describe, expect, it } from "vitest";
import { CodedError } from "../../core/errors.js";
import { CombinerInputError, fitStandardiser, pickL2, sessionFolds } from "../../combiner/index.js";
import { fitSoftmax, predictSoftmax } from "../../learn/softmax.js";
import { SoftmaxError } from "../../learn/softmax-error.js";

function thrown(fn: () => unknown): CodedError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CodedError) return e;
    throw e;
  }
  throw new Error("expected the call to throw");
}

describe("the Combiner and softmax throw coded errors", () => {
  it("the Combiner's fitting code", () => {
    const few = thrown(() => sessionFolds(["a", "b"], 3, 1));
    expect(few).toBeInstanceOf(CombinerInputError);
    expect({ code: few.code, kind: few.kind, expected: few.expected, found: few.found, message: few.message }).toEqual({
      code: "TOO_FEW",
      kind: "input",
      expected: "at least 3 sessions for 3 folds",
      found: "2",
      message: "combiner: expected at least 3 sessions for 3 folds, found 2",
    });
    expect(thrown(() => sessionFolds(["a", "b"], 1, 1)).code).toBe("BAD_OPTION");
    expect(thrown(() => pickL2([])).code).toBe("EMPTY");
    expect(thrown(() => fitStandardiser([])).code).toBe("EMPTY");
  });

  it("softmax", () => {
    const empty = thrown(() => fitSoftmax([], [], { classes: 2, l2: 1 }));
    expect(empty).toBeInstanceOf(SoftmaxError);
    expect([empty.code, empty.message]).toEqual(["EMPTY", "softmax: expected at least one row, found none"]);
    expect(thrown(() => fitSoftmax([[1], [2]], [0, 2], { classes: 3, l2: 1 })).code).toBe("DEGENERATE");
    expect(thrown(() => fitSoftmax([[1], [2]], [0, 1], { classes: 2, l2: -1 })).code).toBe("BAD_INPUT");
    const model = fitSoftmax([[1], [2], [3], [4]], [0, 1, 0, 1], { classes: 2, l2: 1 });
    expect(thrown(() => predictSoftmax(model, [1, 2])).message).toBe("softmax: expected a row of 1 values, found 2");
  });
});
