import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { examples } from "../../cli/shared/help.js";
import { commandOf, parseExamples, splitChain, withoutComment } from "./examples.js";

describe("reading the examples of a help text", () => {
  it("reads `$` lines under Example:, joins ` \\` continuations and reads a trailing `# exit N`", () => {
    const help = `Usage: errata x\n\nExample:\n  $ errata a --json\n  $ echo '{"a": "# not a comment"}' > f && \\\n      errata b f  # exit 1: a check failed\n\nInstall: see docs.\n  $ not an example\n`;
    expect(parseExamples(help)).toEqual([
      { line: "errata a --json", exit: 0 },
      { line: `echo '{"a": "# not a comment"}' > f && errata b f  # exit 1: a check failed`, exit: 1 },
    ]);
  });

  it("round-trips what examples() renders", () => {
    const text = examples(["errata stats", ["errata datasets copy spotter &&", "errata v4 detect --exchanges datasets/spotter/exchanges.jsonl  # exit 0"]], { before: "Prose.", after: "More prose." });
    expect(text).toBe("\nProse.\n\nExample:\n  $ errata stats\n  $ errata datasets copy spotter && \\\n      errata v4 detect --exchanges datasets/spotter/exchanges.jsonl  # exit 0\n\nMore prose.");
    expect(parseExamples(`Usage\n${text}`)).toEqual([
      { line: "errata stats", exit: 0 },
      { line: "errata datasets copy spotter && errata v4 detect --exchanges datasets/spotter/exchanges.jsonl  # exit 0", exit: 0 },
    ]);
  });

  it("splits a chain at && outside quotes, strips comments outside quotes, and finds the command a step runs", () => {
    expect(splitChain(`echo 'a && b' > f && errata x "$(errata y && z)" && errata z`)).toEqual([`echo 'a && b' > f`, `errata x "$(errata y && z)"`, "errata z"]);
    expect(withoutComment(`errata a --x '#1'  # exit 1`)).toBe(`errata a --x '#1'`);
    const program = new Command("errata");
    const ev = program.command("eval");
    ev.command("label").command("export");
    program.command("list");
    expect(commandOf("ERRATA_DIR=./s errata eval label export --labeler ana", program)?.name()).toBe("export");
    expect(commandOf("errata list --json", program)?.name()).toBe("list");
    expect(commandOf("echo errata list", program)).toBeNull();
  });
});
