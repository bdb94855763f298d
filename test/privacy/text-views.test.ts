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
