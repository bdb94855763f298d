import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngineInputError, parseJsonl, readExchanges } from "../../runtime/engine/embedded/files.js";
import { LabelSchema } from "../../schemas/label.js";
import { tempDir } from "../helpers/io.js";
import { makeExchange } from "./helpers/fixtures.js";

let t: { dir: string; cleanup: () => void };
beforeAll(() => {
  t = tempDir("errata-engine-files-");
});
afterAll(() => t.cleanup());

const label = { schema: "label/1", exchange_id: "ex-0000000000000001", labeler: "a", question: "detect.unhappy", value: true, origin: "t" };

describe("the engine's input files under the JSONL policy", () => {
  it("a malformed middle line is refused with file and line; a row that does not fit, with the field", () => {
    const notJson = () => parseJsonl(`${JSON.stringify(label)}\n{oops\n${JSON.stringify(label)}\n`, LabelSchema, "labels.jsonl", () => undefined);
    expect(notJson).toThrow(EngineInputError);
    expect(notJson).toThrow(/^labels\.jsonl line 2 is not JSON$/);
    try {
      parseJsonl(`${JSON.stringify({ ...label, labeler: "" })}\n`, LabelSchema, "labels.jsonl", () => undefined);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EngineInputError);
      expect((e as EngineInputError).message).toBe("labels.jsonl line 1 does not match its schema");
      expect((e as EngineInputError).found).toBe("labeler = \"\"");
      expect((e as EngineInputError).expected).toMatch(/^a valid row \(labeler: /);
    }
  });

  it("a torn last line is skipped with a warning naming it", () => {
    const warnings: string[] = [];
    const rows = parseJsonl(`${JSON.stringify(label)}\n{"schema":"label/1","exch`, LabelSchema, "labels.jsonl", (l) => warnings.push(l));
    expect(rows).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/^labels\.jsonl:2: torn last line skipped/)]);
  });

  it("reads an exchanges file written whole", () => {
    const f = join(t.dir, "exchanges.jsonl");
    const ex = [makeExchange("a"), makeExchange("b")];
    writeFileSync(f, ex.map((e) => `${JSON.stringify(e)}\n`).join(""));
    expect(readExchanges(f)).toEqual(ex);
  });
});
