import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RuleRow } from "../../schemas/rule-ledger.js";

export interface Step {
  prompt: string;
  tools?: Array<{ name: string; input: Record<string, unknown> }>;
  reply: string;
}

/** A Claude Code transcript of typed prompts, each answered by tool calls and a reply. */
export function writeSession(dir: string, session: string, startIso: string, steps: readonly Step[], cwd = "/home/u/app"): string {
  const base = { isSidechain: false, userType: "external", cwd, sessionId: session, version: "2.1.9" };
  const lines: object[] = [];
  let t = Date.parse(startIso);
  let parent: string | null = null;
  let n = 0;
  const next = () => new Date((t += 5000)).toISOString();
  const uuid = () => `${session}-${n++}`;
  steps.forEach((s, k) => {
    const u = uuid();
    lines.push({ ...base, type: "user", uuid: u, parentUuid: parent, timestamp: next(), message: { role: "user", content: s.prompt } });
    parent = u;
    (s.tools ?? []).forEach((tool, j) => {
      const a = uuid();
      const id = `toolu_${session}_${k}_${j}`;
      lines.push({ ...base, type: "assistant", uuid: a, parentUuid: parent, timestamp: next(), message: { id: `m-${a}`, model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "tool_use", id, name: tool.name, input: tool.input }] } });
      const r = uuid();
      lines.push({ ...base, type: "user", uuid: r, parentUuid: a, timestamp: next(), message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] } });
      parent = r;
    });
    const a = uuid();
    lines.push({ ...base, type: "assistant", uuid: a, parentUuid: parent, timestamp: next(), message: { id: `m-${a}`, model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "text", text: s.reply }] } });
    parent = a;
  });
  const file = join(dir, `${session}.jsonl`);
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return file;
}

/** Two rules of the ledger tests: one with a witness on the reply, one without. */
export const finnish: RuleRow = {
  kind: "rule",
  v: 1,
  rule_id: "claude.lang.fi0001",
  at: "2026-11-01T00:00:00.000Z",
  text: "Reply in the language I write in (Finnish when I write Finnish).",
  why: "the owner reads Finnish faster",
  when: "every reply",
  when_not: "code and commit messages stay English",
  rung: 2,
  location: { kind: "text", file: "CLAUDE.md", section: "Language" },
  origin: "index",
  keywords: ["Finnish", "suomeksi", "language"],
  witness: { field: "reply", pattern: "[äö]|\\b(ja|on|ei|että|tässä)\\b", broken_when_absent: true },
  exempt: false,
};
export const pnpm: RuleRow = { ...finnish, rule_id: "claude.tools.pnpm01", text: "Use pnpm, never npm.", keywords: ["pnpm", "npm"], witness: null, location: { kind: "text", file: "CLAUDE.md", section: "Tools" } };

