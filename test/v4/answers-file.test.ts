import { mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bank } from "../../questions/index.js";
import { runV4Stage } from "../../runtime/jobs/v4/index.js";
import { readAnswers, v4Files } from "../../runtime/judgments/index.js";
import { tempDir } from "../helpers/io.js";
import { exchange, fakeEngine } from "./fake-engine.js";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir("errata-v4-answers-");
});
afterEach(() => tmp.cleanup());

const detectN = bank.filter((q) => q.group === "detect" || q.group === "blame").length;

describe("v4/answers.jsonl under the JSONL policy", () => {
  it("a torn last answer is asked again and appended whole; old rows that fit neither side of the union are reported with their line", async () => {
    const v4Dir = join(tmp.dir, "v4");
    mkdirSync(v4Dir, { recursive: true });
    const rows = [exchange(), exchange(), exchange()];
    writeFileSync(join(v4Dir, "exchanges.jsonl"), rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
    const files = v4Files(v4Dir);
    const first = await runV4Stage("detect", { engine: fakeEngine(), v4Dir, warn: () => undefined });
    expect(first.asked).toBe(3 * detectN);

    // An older writer's two rows at the top, and a crash that tore the last row.
    const text = readFileSync(files.answers, "utf8");
    const good = JSON.parse(text.slice(0, text.indexOf("\n"))) as Record<string, unknown>;
    const old = [
      { ...good, exchange_id: "ex-00000000000000aa", status: "scored", p_yes: null },
      { ...good, exchange_id: "ex-00000000000000bb", status: "unscored", p_yes: 0.3, reason: null },
    ];
    writeFileSync(files.answers, old.map((r) => `${JSON.stringify(r)}\n`).join("") + text);
    const lastStart = text.lastIndexOf("\n", text.length - 2) + 1;
    truncateSync(files.answers, Buffer.byteLength(old.map((r) => `${JSON.stringify(r)}\n`).join("") + text.slice(0, lastStart + 40)));
    const lastLine = 2 + 3 * detectN;

    const warnings: string[] = [];
    const again = await runV4Stage("detect", { engine: fakeEngine(), v4Dir, warn: (l) => warnings.push(l) });
    expect(again).toMatchObject({ asked: 1, alreadyAnswered: 3 * detectN - 1, skippedLines: 3 });
    expect(warnings).toEqual([
      `${files.answers}:1: schema line skipped (expected an answer/1 row (p_yes: a probability in [0, 1] (status "scored")); found p_yes = null)`,
      `${files.answers}:2: schema line skipped (expected an answer/1 row (p_yes: no probability (status "unscored")); found p_yes = 0.3)`,
      expect.stringMatching(new RegExp(`^${files.answers.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${lastLine}: torn last line skipped`)),
    ]);

    const back = readAnswers(files.answers, { warn: () => undefined });
    expect(back.rows).toHaveLength(3 * detectN);
    expect(new Set(back.rows.map((a) => `${a.exchange_id}/${a.question_id}`)).size).toBe(3 * detectN);
    expect(back.problems.map((p) => [p.line, p.code])).toEqual([[1, "schema"], [2, "schema"], [lastLine, "malformed-json"]]);
  });
});
