/**
 * The text after a command's options: its examples, each a shell line that works as pasted
 * in an empty folder (test/cli/contract.test.ts runs every one), with optional prose before
 * or after. An example given as several strings is one shell line continued with ` \`; a
 * trailing `# exit N` says its exit code when it is not 0.
 *
 * Example: `examples([["errata datasets copy ab-redial &&", "errata eval agreement --labels datasets/ab-redial/labels.jsonl"]])`
 * -> "\nExample:\n  $ errata datasets copy ab-redial && \\\n      errata eval agreement --labels datasets/ab-redial/labels.jsonl".
 */
export function examples(list: readonly (string | readonly string[])[], prose: { before?: string; after?: string } = {}): string {
  const lines = list.map((e) => `  $ ${(typeof e === "string" ? [e] : e).join(" \\\n      ")}`);
  return `${prose.before !== undefined ? `\n${prose.before}\n` : ""}\nExample:\n${lines.join("\n")}${prose.after !== undefined ? `\n\n${prose.after}` : ""}`;
}
