import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyRecord } from "../../runtime/transcripts/records.js";
import { scanTranscript } from "../../runtime/transcripts/scan.js";
import { stripInjected, typedPromptVerdict } from "../../runtime/transcripts/typed.js";
import { tempDir } from "../helpers/io.js";
import { hasMClaude, mClaudeDir, spotterDir, writeJsonl } from "./fixtures.js";

function verdict(line: Record<string, unknown>) {
  const rec = classifyRecord({ uuid: "u", parentUuid: null, sessionId: "s", ...line });
  if (rec === null) throw new Error("not a record");
  return typedPromptVerdict(rec);
}
const user = (content: unknown, extra: Record<string, unknown> = {}) => verdict({ type: "user", message: { role: "user", content }, ...extra });

describe("typed-prompt filter", () => {
  it("keeps typed text and strips system reminders and IDE tags inside it", () => {
    expect(user("fix the failing test")).toEqual({ typed: true, text: "fix the failing test", source: "user" });
    expect(user("why? <system-reminder>\nThe user opened a file\n</system-reminder>")).toEqual({ typed: true, text: "why?", source: "user" });
    expect(user([{ type: "text", text: "<ide_selection>const a = 1;</ide_selection>" }, { type: "text", text: "rename this" }])).toEqual({
      typed: true,
      text: "rename this",
      source: "user",
    });
    expect(user("<ide_opened_file>The user opened src/a.ts</ide_opened_file>")).toEqual({ typed: false, reason: "empty" });
    expect(stripInjected("a <system-reminder>x</system-reminder> b <system-reminder>y</system-reminder>")).toBe("a  b");
  });

  it.each([
    [[{ type: "tool_result", tool_use_id: "t", content: "ok" }], {}, "tool_result"],
    ["Base directory for this skill: /x", { isMeta: true }, "meta"],
    ["This session is being continued from a previous conversation that ran out of context.", { isCompactSummary: true }, "compact_summary"],
    ["summary shown only in the transcript", { isVisibleInTranscriptOnly: true }, "transcript_only"],
    ["Draft bead content", { isSidechain: true }, "sidechain"],
    ["<command-name>/exit</command-name>\n<command-message>exit</command-message>", {}, "command_echo"],
    ["<command-message>x</command-message>\n<command-name>/x</command-name>\n<command-args>do it</command-args>", {}, "command_echo"],
    ["<local-command-stdout>See ya!</local-command-stdout>", {}, "command_echo"],
    ["<local-command-stderr>Error: failed</local-command-stderr>", {}, "command_echo"],
    ["<bash-input>ls</bash-input>", {}, "command_echo"],
    ["<bash-stdout>a.txt</bash-stdout><bash-stderr></bash-stderr>", {}, "command_echo"],
    ["<task-notification>\n<task-id>b1</task-id>\n<status>failed</status>", {}, "task_notification"],
    ["[Request interrupted by user]", {}, "interrupted"],
    ["[Request interrupted by user for tool use]", {}, "interrupted"],
    ["This session is being continued from a previous conversation that ran out of context.", {}, "continuation"],
    ["Stop hook feedback:\n[~/.claude/check.sh]: commit your work", {}, "hook_feedback"],
    ["a notification", { origin: { kind: "task-notification" } }, "origin"],
    ["a notification", { promptSource: "system" }, "origin"],
  ])("drops %j (%j) as %s", (content, extra, reason) => {
    expect(user(content, extra)).toEqual({ typed: false, reason });
  });

  it("uses origin and promptSource where they exist", () => {
    expect(user("ship it", { origin: { kind: "human" } })).toEqual({ typed: true, text: "ship it", source: "user" });
    expect(user("ship it", { promptSource: "queued" })).toEqual({ typed: true, text: "ship it", source: "queued" });
    expect(user("ship it", { promptSource: "suggestion_accepted" })).toEqual({ typed: true, text: "ship it", source: "user" });
  });

  it("counts a prompt given to `claude -p` (promptSource sdk, entrypoint sdk-cli, as the real client 2.1.328 writes it), not an Agent SDK program's", () => {
    expect(user("No, that's wrong.", { promptSource: "sdk", turnOrigin: "sdk", entrypoint: "sdk-cli" })).toEqual({ typed: true, text: "No, that's wrong.", source: "user" });
    expect(user("No, that's wrong.", { promptSource: "sdk", entrypoint: "sdk-ts" })).toEqual({ typed: false, reason: "origin" });
    expect(user("No, that's wrong.", { promptSource: "sdk" })).toEqual({ typed: false, reason: "origin" });
  });

  it("counts a prompt typed mid-turn (queued_command attachment), not the harness's notifications", () => {
    const att = (attachment: Record<string, unknown>) => verdict({ type: "attachment", attachment });
    expect(att({ type: "queued_command", prompt: "also check the logs", commandMode: "prompt", origin: { kind: "human" } })).toEqual({
      typed: true,
      text: "also check the logs",
      source: "queued",
    });
    expect(att({ type: "queued_command", prompt: "<task-notification>x</task-notification>", commandMode: "task-notification" })).toEqual({
      typed: false,
      reason: "task_notification",
    });
    expect(att({ type: "deferred_tools_delta" })).toBeNull();
    expect(verdict({ type: "assistant", message: { content: [] } })).toBeNull();
  });
});

/** Line numbers of the typed prompts, read by hand once from each file (see claude-transcripts/NOTE.md). */
const bundled: [string, number[]][] = [
  ["short.jsonl", [4]],
  ["subagent.jsonl", [71]],
  ["tool_heavy.jsonl", [4, 26]],
];
const mClaude: [string, number[]][] = [
  // 2 and 9 are the same text sent twice (the first attempt hit three API errors); 552 and 562
  // are task notifications, not counted.
  ["21037e11-89de-484d-abba-8705254aa991.jsonl", [2, 9, 224, 240, 244, 252, 569, 633, 741, 782, 814, 863]],
  // 188 and 402 are interruptions, 1038-1040 the /exit echo, 27, 375 and 1043 notifications.
  [
    "c76e5be5-ffd2-4901-a935-885527c83a61.jsonl",
    [3, 7, 31, 38, 42, 46, 190, 194, 220, 404, 487, 568, 626, 649, 670, 714, 758, 797, 835, 867, 935, 1012, 1029],
  ],
  // 217 is the person pasting Claude Code's own stop-hook output: typed (pasted) by them.
  ["d8126fa6-87d4-443d-ba41-0dbf2faecb65.jsonl", [57, 84, 120, 135, 141, 157, 163, 178, 184, 201, 211, 217, 223]],
  ["f551142a-ef6a-46fd-a3bf-14a924370fb0.jsonl", [5, 9, 31, 46, 72, 76, 88, 218, 229, 242, 246, 255, 266, 285, 289, 296, 299, 303, 307, 314]],
];

describe("typed prompts per real file (checked by hand)", () => {
  it.each(bundled)("spotter %s: typed prompts at lines %j", async (file, lineNos) => {
    const r = await scanTranscript(join(spotterDir, file));
    expect(r.prompts.map((p) => p.lineNo)).toEqual(lineNos);
    expect(r.stats.rewoundPrompts).toBe(0);
  });
  it.skipIf(!hasMClaude).each(mClaude)("m-claude %s: typed prompts at lines %j", async (file, lineNos) => {
    const r = await scanTranscript(join(mClaudeDir, file));
    expect(r.prompts.map((p) => p.lineNo)).toEqual(lineNos);
  });
  it.skipIf(!hasMClaude)("the counts match claude-transcripts/NOTE.md (23, 12, 13, 20)", () => {
    expect(mClaude.map(([, l]) => l.length)).toEqual([12, 23, 13, 20]);
  });
});

describe("queued prompts in a transcript", () => {
  it("a queued_command attachment counts as a typed prompt, with or without a uuid", async () => {
    const t = tempDir();
    try {
      const path = `${t.dir}/q.jsonl`;
      writeJsonl(path, [
        { type: "user", uuid: "u1", parentUuid: null, sessionId: "s", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: "add the price column" } },
        { type: "assistant", uuid: "a1", parentUuid: "u1", sessionId: "s", message: { id: "m1", model: "claude-x", content: [{ type: "text", text: "Editing the exporter:" }] } },
        { type: "attachment", attachment: { type: "queued_command", commandMode: "prompt", prompt: "and convert the prices to euros" } },
        { type: "attachment", uuid: "q2", parentUuid: "a1", attachment: { type: "queued_command", commandMode: "task-notification", prompt: "<task-notification>x</task-notification>" } },
      ]);
      const r = await scanTranscript(path);
      expect(r.exchanges.map((e) => [e.prompt, e.reply_end])).toEqual([
        ["add the price column", null],
        ["and convert the prices to euros", "Editing the exporter:"],
      ]);
      expect(r.prompts.map((p) => p.source)).toEqual(["user", "queued"]);
      expect(r.stats.notTyped.task_notification).toBe(1);
    } finally {
      t.cleanup();
    }
  });
});
