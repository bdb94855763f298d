import { describe, expect, it } from "vitest";
import { CodedError } from "../../core/errors.js";
import {
  CalibrationError,
  brierScore,
  chooseCuts,
  clopperPearsonUpper,
  drawForCalibration,
  fitIsotonic,
  fitPlatt,
  isotonicPredict,
  judgeShadowLog,
  reliability,
} from "../../calibration/index.js";

/** The error a real call throws. */
function thrown(fn: () => unknown): CalibrationError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CalibrationError) return e;
    throw e;
  }
  throw new Error("expected the call to throw");
}

describe("calibration throws coded errors", () => {
  it("keeps each message, with the code, kind, expected and found beside it", () => {
    const e = thrown(() => fitPlatt([], []));
    expect(e).toBeInstanceOf(CodedError);
    expect({ name: e.name, code: e.code, kind: e.kind, exitCode: e.exitCode, expected: e.expected, found: e.found, message: e.message }).toEqual({
      name: "CalibrationError",
      code: "EMPTY",
      kind: "input",
      exitCode: 2,
      expected: "at least one score",
      found: "none",
      message: "platt: expected at least one score, found none",
    });
  });

  it("names the code at representative sites", () => {
    const sites: [() => unknown, string, RegExp][] = [
      [() => fitPlatt([0.1, 0.2], [0, 2]), "BAD_VALUE", /^platt: expected labels 0 or 1, found 2 at 1$/],
      [() => brierScore([0.2, 0.3], [1]), "BAD_SHAPE", /^brier: expected 2 labels \(one per probability\), found 1$/],
      [() => brierScore([1.2], [1]), "BAD_VALUE", /probabilities in \[0, 1\], found 1.2 at 0/],
      [() => reliability([0.5], [1], { bins: 0 }), "BAD_OPTION", /^reliability: expected a positive whole number of bins, found 0$/],
      [() => fitIsotonic([0.1], [1], [0]), "EMPTY", /at least one point with positive weight/],
      [() => isotonicPredict({ x: [], y: [] }, 0.5), "EMPTY", /a fitted model, found no points/],
      [() => chooseCuts([0.5], [1], { precisionTarget: 0 }), "BAD_OPTION", /precision target in \(0, 1\], found 0/],
      [() => chooseCuts([0.5], [1, 0], { precisionTarget: 0.9 }), "BAD_SHAPE", /expected 1 majority labels, found 2/],
      [() => clopperPearsonUpper(0, 0, 0.95), "EMPTY", /at least one opportunity, found 0/],
      [() => clopperPearsonUpper(3, 2, 0.95), "BAD_VALUE", /false alarms in 0..2, found 3/],
      [
        () =>
          drawForCalibration(
            [
              { item_id: "a", session_id: "s", p_yes: 0.5 },
              { item_id: "a", session_id: "t", p_yes: 0.4 },
            ],
            { n: 1, seed: 1 },
          ),
        "BAD_VALUE",
        /^draw: expected unique item ids, found a twice$/,
      ],
      [() => drawForCalibration([], { n: 0, seed: 1 }), "BAD_OPTION", /^draw: expected n >= 1, found 0$/],
      [
        () => judgeShadowLog([{ check: "c", session_id: "s", ts: "yesterday", eligible: true, violation: false, fired: false }], "c", { falseAlarmRate: 0.05, confidence: 0.95 }),
        "BAD_VALUE",
        /^shadow gate: expected an ISO timestamp, found "yesterday"$/,
      ],
    ];
    for (const [call, code, message] of sites) {
      const e = thrown(call);
      expect(e.code, e.message).toBe(code);
      expect(e.message).toMatch(message);
    }
  });
});
