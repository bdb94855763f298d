/**
 * The views of a text (runtime/privacy/text-views.ts, view-decode.ts, view-lines.ts) and their
 * redaction carried back (through-views.ts): the doc comments' examples, the wrap's trace (what
 * is joined and what is not), and the alignment that reads a redaction's runs back.
 */
import { describe, expect, it } from "vitest";
import { viewsOf } from "../../runtime/privacy/text-views.js";
import { redactThroughViews, replacedRuns } from "../../runtime/privacy/through-views.js";
import { Builder, copy } from "../../runtime/privacy/view-build.js";
import { ansiStep, jsonStep } from "../../runtime/privacy/view-decode.js";
import { gutterStep, joinStep } from "../../runtime/privacy/view-lines.js";
import { backspaceStep, eventStep, markdownEscapeStep, wordDiffStep } from "../../runtime/privacy/view-marks.js";
import { T_BS, T_ESC, T_GUTTER, T_JOIN, T_NL, triggers } from "../../runtime/privacy/view-triggers.js";

describe("text views", () => {
  it("the doc comments' examples", () => {
    const v = viewsOf("KEY=\x1b[32mab12\x1b[0m");
    expect(v.map((x) => x.text)).toEqual(["KEY=ab12"]);
    expect(v[0]!.start[4]).toBe(9);
    expect(v[0]!.end[7]).toBe(13);
    expect(ansiStep("a\x1b[32mb\x1b[0m")!.out).toBe("ab");
    expect(gutterStep("+a=1\n+b=2")!.out).toBe("a=1\nb=2");
    const b = new Builder();
    copy(b, "ab", 0, 2);
    b.push("\n", 2, 2);
    expect([b.out, b.from, b.to]).toEqual(["ab\n", [0, 1, 2], [1, 2, 2]]);
  });

  it("no view of a text no step changes", () => {
    for (const t of ["run the tests", "see runtime/privacy/redact.ts", "KEY=value\nOTHER=1", "50% done & more"]) expect(viewsOf(t)).toEqual([]);
  });

  it("a terminal's wrap is joined, a table's rows and prose's words are not", () => {
    const row = `export TOKEN=${"aB3dE5gH7jK9".repeat(6)}`;
    const wrapped = `${row.slice(0, 80)}\n${row.slice(80)}\necho done`;
    expect(joinStep(wrapped)!.out).toBe(`${row}\necho done`);
    // A shell continuation joins whatever the row's length.
    expect(joinStep("KEY=abc\\\ndef")!.out).toBe("KEY=abcdef");
    // Rows of one length to the end: a table's.
    const table = ["NAME".padEnd(70, "x"), "web".padEnd(70, "y"), "db".padEnd(70, "z")].join("\n");
    expect(joinStep(table)).toBeNull();
    // A row ending in a word, or a CamelCase name: no cut token.
    expect(joinStep(`${"the key is kept in the vault and rotated every month by".padEnd(64, " ")}done\nStack trace`)).toBeNull();
    expect(joinStep(`from slopometry.core.project_tracker import ProjectTracker\n25 from x import y`)).toBeNull();
    // A row ending in a marker's bracket.
    expect(joinStep(`[REDACTED:1password-service-account-token] ${"x".repeat(30)}]\nabc`)).toBeNull();
  });

  it("escaped JSON is decoded with lines of its own around it only when it holds an escaped object's marks", () => {
    // A logged event after a writer's line, and an object nested in a message field, each escaped.
    expect(jsonStep('queue said:\n{"msg":"{\\"db\\":{\\"pass\\":\\"x\\"}}"}')!.out).toBe('queue said:\n{"msg":"{"db":{"pass":"x"}}"}');
    expect(jsonStep('2 events\n{"e":"{\\"k\\": 1}"}\nend')!.out).toBe('2 events\n{"e":"{"k": 1}"}\nend');
    // A source file whose string literals hold escapes, and no escaped object: its own lines are read.
    expect(jsonStep('const a = "one\\ntwo";\nconst b = "say \\"hi\\"";\n')).toBeNull();
  });

  it("a terminal's and a tool's marks: backspaces, Markdown escapes, a word diff, a stream of events, numeric references, a wrap mark", () => {
    expect(backspaceStep("ab\b \bc")!.out).toBe("ac");
    // A manual's overstrike keeps one letter; a backspace at a line's start erases nothing.
    expect(backspaceStep("a\ba\n\bz")!.out).toBe("a\nz");
    expect(backspaceStep("no erase")).toBeNull();
    expect(markdownEscapeStep("PAYOUT\\_HMAC\\_SECRET = a\\*b")!.out).toBe("PAYOUT_HMAC_SECRET = a*b");
    // A pattern's escapes are no Markdown's.
    expect(markdownEscapeStep("re = /a\\.b\\[c\\]/")).toBeNull();
    expect(wordDiffStep("k: [-old-]{+new+}")!.out).toBe("k: old\n\nk: new");
    expect(wordDiffStep("h\nk: [-a\nb-]\nz")!.out).toBe("h\nk: a\nb\nz\n\nh\nk: \nz");
    expect(wordDiffStep("x = arr[-1] + 2")).toBeNull();
    const stream = ['data: {"delta":{"type":"text_delta","text":"The key is "}}', 'data: {"choices":[{"delta":{"content":"Zx81\\"Qw"},"finish_reason":null}]}', "data: [DONE]"].join("\n\n");
    expect(eventStep(stream)!.out).toBe('The key is Zx81\\"Qw');
    expect(eventStep('data: {"a":"one event"}')).toBeNull();
    expect(viewsOf("<td>k&#43;y&#x2F;z&#61;</td>").map((v) => v.text)).toEqual(["<td>k+y/z=</td>"]);
    // Vim's showbreak after the number column: the mark dropped, the rows joined.
    const row = `  3 api_secret = ${"aB3dE5gH7jK9".repeat(6)}`;
    expect(joinStep(`${row}\n    \u21aa Zq81\n  4 timeout = 30`)!.out).toBe(`${row}Zq81\n  4 timeout = 30`);
  });

  it("one pass tells which steps a text's characters can trigger; a text with none has no view", () => {
    expect(triggers("run the tests and see runtime/privacy/redact.ts")).toBe(0);
    expect(triggers("a\x1b[1mb") & T_ESC).not.toBe(0);
    expect(triggers("ab\b \bc") & T_BS).not.toBe(0);
    expect(triggers("short\nrows") & (T_NL | T_JOIN)).toBe(T_NL);
    expect(triggers(`${"x".repeat(60)}\ny`) & T_JOIN).not.toBe(0);
    expect(triggers("KEY=abc\\\ndef") & T_JOIN).not.toBe(0);
    // A long row with a longer one after it, or before an empty one, is no wrap's trace.
    expect(triggers(`${"x".repeat(60)}\n${"y".repeat(70)}`) & T_JOIN).toBe(0);
    expect(triggers(`${"x".repeat(60)}\n\nz`) & T_JOIN).toBe(0);
    expect(triggers("  3 k = v\n    \u21aa w") & T_JOIN).not.toBe(0);
    // A gutter: every row after the first starts one (the last of three or more may not).
    expect(triggers("words first\n+a\n+b\n}") & T_GUTTER).not.toBe(0);
    expect(triggers("words first\nplain\n+b") & T_GUTTER).toBe(0);
    // Every text of the doc comments' examples that has a view has a trigger or a first character a view reads.
    for (const t of ["KEY=\x1b[32mab12\x1b[0m", "+a=1\n+b=2", '{"a": "b c"}', "| a | b |"]) expect(viewsOf(t).length).toBeGreaterThan(0);
  });

  it("a redaction's runs are read back by alignment, and carried to the text as written", () => {
    expect(replacedRuns("a=SECRET1 b=SECRET2", "a=[REDACTED:k] b=[REDACTED:j]")).toEqual([
      { start: 2, end: 9, kind: "k" },
      { start: 12, end: 19, kind: "j" },
    ]);
    // A marker already in the view is no run.
    expect(replacedRuns("x [REDACTED:k] y=S3", "x [REDACTED:k] y=[REDACTED:j]")).toEqual([{ start: 17, end: 19, kind: "j" }]);
    // Coloured: the run is the value's characters in the text, the colour before it kept, the
    // reset after it taken with it (left, it was read as a value after the marker).
    const text = "API_KEY=\x1b[32mZx81Qw\x1b[0m";
    const r = redactThroughViews(text, { text, kinds: [] }, (t) => (t === "API_KEY=Zx81Qw" ? { text: "API_KEY=[REDACTED:k]", kinds: ["k"] } : { text: t, kinds: [] }));
    expect(r).toEqual({ text: "API_KEY=\x1b[32m[REDACTED:k]", kinds: ["k"] });
  });
});
