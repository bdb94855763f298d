/**
 * The component a failure is about, for bucketing failures no rule covers (class x
 * component): the first of
 *   1. the file a tool call edited or wrote (its folder and name: "src/parser.ts"),
 *   2. the command of a shell tool call ("git", "npm", "rm"),
 *   3. a file path in the complaint or the reply ("docs/setup.md"),
 *   4. a back-quoted name in the complaint or the reply (`computeTotal`),
 *   5. "unknown".
 * Tool calls come first because they say what the assistant touched, not what the owner
 * guessed. Lower-cased; paths keep at most their last two parts.
 *
 * Example: `componentOf({tools: [{name: "Bash", summary: "npm install x"}], prompt: "npm again?", reply: null})` -> "npm".
 */
const PATH = /(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|md|json|ya?ml|toml|sql|sh|css|html))\b/i;
const QUOTED = /`([^`\s]{2,40})`/;

function lastTwo(path: string): string {
  return path.split("/").slice(-2).join("/").toLowerCase();
}

export function componentOf(f: { tools: ReadonlyArray<{ name: string; summary: string }>; prompt: string; reply: string | null }): string {
  for (const t of f.tools) {
    if (/^(edit|write|multiedit|notebookedit)$/i.test(t.name)) {
      const m = PATH.exec(` ${t.summary}`);
      if (m?.[1] !== undefined) return lastTwo(m[1]);
    }
  }
  for (const t of f.tools) {
    if (/^bash$/i.test(t.name)) {
      const cmd = t.summary.trim().split(/\s+/)[0];
      if (cmd !== undefined && /^[\w.-]+$/.test(cmd)) return cmd.toLowerCase();
    }
  }
  for (const text of [f.prompt, f.reply ?? ""]) {
    const m = PATH.exec(` ${text}`);
    if (m?.[1] !== undefined) return lastTwo(m[1]);
  }
  for (const text of [f.prompt, f.reply ?? ""]) {
    const m = QUOTED.exec(text);
    if (m?.[1] !== undefined) return m[1].toLowerCase();
  }
  return "unknown";
}
