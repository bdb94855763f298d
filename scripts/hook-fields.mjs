#!/usr/bin/env node
// The table of every hook field the real Claude Code client sent (docs/claude-code-hooks.md),
// made from the payloads test/e2e/hook-fields.test.ts recorded in the pinned client
// (test/e2e/fixtures/hook-payloads.json), with what Errata reads of each and where. When a
// client upgrade adds, drops or retypes a field, the e2e test's recording differs from the
// fixture and fails; re-record (ERRATA_E2E_UPDATE_PAYLOADS=1) and regenerate this table.
//
// Usage: node scripts/hook-fields.mjs          write docs/claude-code-hooks.md
//        node scripts/hook-fields.mjs --check  exit 1 when the page differs from the fixture's
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIXTURE = `${root}test/e2e/fixtures/hook-payloads.json`;
const PAGE = `${root}docs/claude-code-hooks.md`;

// What Errata reads, per event and field path (code in runtime/hooks/). A field not named here is ignored.
const CAPTURE = "the capture (`hook-main.ts`)";
const STOP = "the Stop hook (`hook-main.ts`, `hook-state.ts`, `hook-reflect.ts`)";
const TOOL = "the check runner (`pre-tool-use.ts`, `ladder-formats/checks.ts`)";
const LOADED = "the sensor (`instructions-loaded.ts`)";
const POST = "the output checks (`post-tool-use.ts`)";
export const READS = {
  UserPromptSubmit: {
    session_id: `${CAPTURE}: the row's session, the Stop hook's record`,
    transcript_path: `${CAPTURE}: the reply and the turn's tool calls read from its end`,
    cwd: `${CAPTURE}: the row's cwd`,
    prompt: `${CAPTURE}: the words classified and kept`,
  },
  Stop: {
    session_id: `${STOP}: whose reply is recorded`,
    transcript_path: `${STOP}: the reply's text stays there; the reflection reads the last prompt`,
    last_assistant_message: `${STOP}: hashed (its text kept only without a transcript)`,
  },
  PreToolUse: {
    session_id: `${TOOL}: the log line`,
    cwd: `${TOOL}: the project whose .claude/ holds hookify files (after CLAUDE_PROJECT_DIR)`,
    tool_name: `${TOOL}: which checks are eligible`,
    tool_input: `${TOOL}: the fields conditions read`,
    "tool_input.command": `${TOOL}: Bash conditions and rewrites`,
    tool_use_id: `${TOOL}: the log line, joined to the transcript by the shadow gate`,
  },
  PostToolUse: {
    session_id: `${POST}: the log line`,
    cwd: `${POST}: the project whose .claude/ holds hookify files`,
    tool_name: `${POST}: which checks are eligible`,
    tool_input: `${POST}: the fields conditions read`,
    "tool_input.command": `${POST}: Bash conditions`,
    tool_response: `${POST}: the \`output\` conditions read (stdout and stderr joined; a file's content; MCP text)`,
    "tool_response.stdout": `${POST}: part of \`output\``,
    "tool_response.stderr": `${POST}: part of \`output\``,
    tool_use_id: `${POST}: the log line`,
  },
  InstructionsLoaded: {
    session_id: `${LOADED}: the row's session (was the rule in view)`,
    file_path: `${LOADED}: which file loaded`,
    memory_type: `${LOADED}: kept`,
    load_reason: `${LOADED}: kept`,
    globs: `${LOADED}: kept when sent`,
    trigger_file_path: `${LOADED}: kept when sent`,
    parent_file_path: `${LOADED}: kept when sent`,
  },
};
const INSTALLED = new Set(Object.keys(READS));

const typeOf = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Every field path of a payload: top-level keys and one level into objects. */
export function fieldPaths(payload) {
  const out = new Map();
  for (const [k, v] of Object.entries(payload)) {
    out.set(k, typeOf(v));
    if (typeOf(v) === "object") for (const [k2, v2] of Object.entries(v)) out.set(`${k}.${k2}`, typeOf(v2));
  }
  return out;
}

/** event -> field path -> {types, example}, over every recorded payload. */
export function fieldTable(events) {
  const table = new Map();
  for (const [event, payloads] of Object.entries(events)) {
    const fields = new Map();
    for (const p of payloads) {
      for (const [path, type] of fieldPaths(p)) {
        const f = fields.get(path) ?? { types: new Set(), example: undefined };
        f.types.add(type);
        if (f.example === undefined && type !== "object") f.example = path.split(".").reduce((o, k) => o?.[k], p);
        fields.set(path, f);
      }
    }
    table.set(event, fields);
  }
  return table;
}

const cell = (s) => String(s).replaceAll("|", "\\|").replaceAll("\n", " ");
const example = (v) => {
  if (v === undefined) return "";
  const s = JSON.stringify(v);
  return `\`${cell(s.length > 48 ? `${s.slice(0, 45)}...` : s)}\``;
};

export function render(fixture) {
  const table = fieldTable(fixture.events);
  const lines = [
    "# Claude Code's hook payloads, as the real client sends them",
    "",
    `Every field the real client (Claude Code ${fixture.client_version}, pinned in scripts/claude-code.mjs) sent to a`,
    "command hook in the end-to-end suite, and what Errata does with it. Generated by",
    "`node scripts/hook-fields.mjs` from `test/e2e/fixtures/hook-payloads.json`, which",
    "`test/e2e/hook-fields.test.ts` records in the client (paths and ids replaced by placeholders)",
    "and compares on every run: a client upgrade that adds, drops or retypes a field fails it.",
    "Errata installs UserPromptSubmit, Stop, PreToolUse and InstructionsLoaded (README), and",
    "PostToolUse where a check reads a tool's output (`errata-tool-hook post-tool-use`, docs/mod.md);",
    "the other events are recorded to show what the client offers.",
    "",
    "## The owner's no, and the permission events",
    "",
    "Measured in the pinned client in print mode, the owner answering through the permission-prompt",
    "tool (test/e2e/owner-answer.cjs), with recording hooks on every event below: when the owner",
    "refuses a call, PermissionRequest fires (before the owner is asked) and PermissionDenied does",
    "not, nor PostToolUse or PostToolUseFailure; when a PreToolUse hook denies, none of them fires.",
    "What marks the owner's no is the call's tool_result line in the transcript:",
    "`permissionDecision: {decision: \"reject\", source: \"user_reject\"}` and `holdsPersonsWords: true`",
    "(its content the owner's words), where a hook's deny says `source: \"hook\"`. The ladder reads",
    "that line (`runtime/ladder/transcript-turns.ts`, and the client's fixed text \"The user doesn't",
    "want to proceed with this tool use\" of older transcripts) as the owner's `rejected` signal",
    "(docs/ladder.md); no hook is installed for it. Recorded by hand once (the probe is not in the",
    "suite); test/e2e/owner-tools.test.ts checks the result, a `rejected` incident after the night's run.",
    "",
  ];
  for (const [event, fields] of [...table].sort(([a], [b]) => a.localeCompare(b))) {
    const reads = READS[event] ?? {};
    lines.push(`## ${event}${INSTALLED.has(event) ? "" : " (not installed by Errata)"}`, "", "| field | type | example | Errata |", "|---|---|---|---|");
    for (const [path, f] of [...fields].sort(([a], [b]) => a.localeCompare(b))) {
      const what = reads[path] ?? (reads[path.split(".")[0]] && path.includes(".") ? "within the field above: read by the checks that name it" : "ignored");
      lines.push(`| \`${path}\` | ${[...f.types].sort().join(" or ")} | ${example(f.example)} | ${cell(what)} |`);
    }
    const unsent = Object.keys(reads).filter((p) => !fields.has(p));
    if (unsent.length > 0) lines.push("", `Read when present, not sent in the recorded sessions: ${unsent.map((p) => `\`${p}\``).join(", ")}.`);
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = render(JSON.parse(readFileSync(FIXTURE, "utf8")));
  if (process.argv.includes("--check")) {
    let now = "";
    try {
      now = readFileSync(PAGE, "utf8");
    } catch {
      now = "";
    }
    if (now !== page) {
      process.stderr.write("hook-fields: docs/claude-code-hooks.md differs from the recorded payloads; run `node scripts/hook-fields.mjs`\n");
      process.exit(1);
    }
  } else writeFileSync(PAGE, page);
}
