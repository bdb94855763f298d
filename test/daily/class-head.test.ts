import { describe, expect, it } from "vitest";
import { fitClassHead } from "../../combiner/index.js";
import { classHeadJudge } from "../../runtime/jobs/daily/promoted.js";
import { erratumToExchange } from "../../runtime/jobs/daily/erratum-exchange.js";
import { newErratum } from "../../runtime/store/new-erratum.js";
import type { Erratum } from "../../schemas/erratum.js";
import { NOW, REPORTER, fakeEngine } from "./fixtures.js";

describe("the promoted class head names the class", () => {
  it("reads the engine's probabilities for the head's questions and takes the most likely class", async () => {
    const q = "mode.wrong_language";
    const items = Array.from({ length: 40 }, (_, i) => ({
      id: `x${i}`,
      session: `s${i % 8}`,
      table: new Map([[q, i % 2 === 0 ? 0.9 : 0.1]]),
      weight: 1,
      cls: i % 2 === 0 ? "wrong_language" : "incorrect_output",
    }));
    const head = fitClassHead(items, { questions: [q], seed: 1 });
    const judge = classHeadJudge(fakeEngine(), "t", head);
    const ex = (text: string) => erratumToExchange(newErratum({ nowMs: NOW, complaint: text, reporter: REPORTER as Erratum["reporter"] }));
    const [a, b, c] = await judge([ex("answer in Finnish [mode:wrong_language]"), ex("that number is wrong"), ex("hm [unscored]")]);
    expect(a).toMatchObject({ class: "wrong_language", labeler: "class-head:embedded/fake-1" });
    expect(a!.confidence).toBeGreaterThan(0.5);
    expect(b?.class).toBe("incorrect_output");
    // An unscored answer leaves the class null: never a guess from a partial table.
    expect(c).toMatchObject({ class: null, confidence: null });
  });
});
