/**
 * Every module that can send text to a model server (it imports the openai SDK, the only way
 * Errata reaches one) redacts each text as it leaves (it imports runtime/privacy and calls
 * redactTextForWrite or redactForWrite), or is listed below with the reason it need not. The
 * enrichment prose lane and the generative lane sent their texts as given until the walk as a
 * user (scripts/walk-privacy.mjs) recorded what left; a new sender fails this test until it
 * redacts too. The companion of writers.test.ts, for what leaves the machine.
 */
import { describe, expect, it } from "vitest";
import { code, sources } from "./source-files.js";

const OPENAI_IMPORT = /from\s*"openai(?:\/[^"]*)?"/;
const REDACTS = /\bredact(?:Text)?ForWrite\s*\(/;
const PRIVACY_IMPORT = /from\s*"(?:\.\.\/)+(?:runtime\/)?privacy\/[^"]*"/;

/** Modules that import the SDK and send no text of their own, each with why. */
const NEED_NOT: Record<string, string> = {
  "runtime/engine/openai/batch.ts": "the batch file's lines are the bodies of the lane's request() (lane.ts), which redacts every message",
  "runtime/engine/openai/retry.ts": "reads the SDK's error classes to decide on a retry; sends nothing",
};


describe("every module that reaches a model server redacts what it sends, or says why not", () => {
  const senders = [...sources("runtime"), ...sources("cli"), ...sources("core")].filter((f) => OPENAI_IMPORT.test(code(f)));

  it(`finds the senders (${senders.length}): the judging lane, the generative lane, the enrichment lane, batches`, () => {
    expect(senders).toEqual(expect.arrayContaining(["runtime/engine/openai/lane.ts", "runtime/engine/openai/generate.ts", "runtime/jobs/daily/enrich-openai.ts", "runtime/engine/openai/batch.ts"]));
  });

  it("each imports the privacy room and redacts, or is listed with a reason", () => {
    const unexplained = senders.filter((f) => {
      const src = code(f);
      if (PRIVACY_IMPORT.test(src) && REDACTS.test(src)) return false;
      return NEED_NOT[f] === undefined;
    });
    expect(unexplained).toEqual([]);
  });

  it("the list names no module that no longer imports the SDK (it stays true)", () => {
    expect(Object.keys(NEED_NOT).filter((f) => !senders.includes(f))).toEqual([]);
  });
});
