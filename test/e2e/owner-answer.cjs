#!/usr/bin/env node
// The owner at the permission dialog, for `claude -p --permission-prompt-tool mcp__owner__answer`:
// a stdio MCP server (newline-delimited JSON-RPC) with one tool the client calls when a tool
// call needs the owner's yes (a PreToolUse hook's "ask" included). The answer is read from the
// file named by $ERRATA_E2E_ANSWER ("allow" or "deny <reason>"); every question the client asked
// is appended to $ERRATA_E2E_ASKED, so a test sees what the owner was shown.
// Written by hand: the protocol needed is four messages, and the test tree takes no MCP SDK.
"use strict";
const fs = require("node:fs");
const readline = require("node:readline");

const send = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  if (req.id === undefined) return; // a notification (initialized, cancelled)
  if (req.method === "initialize") {
    const version = req.params && req.params.protocolVersion ? req.params.protocolVersion : "2024-11-05";
    send({ jsonrpc: "2.0", id: req.id, result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: "owner", version: "1.0.0" } } });
  } else if (req.method === "tools/list") {
    send({
      jsonrpc: "2.0",
      id: req.id,
      result: {
        tools: [
          {
            name: "answer",
            description: "The owner's answer to a permission request",
            inputSchema: { type: "object", properties: { tool_name: { type: "string" }, input: { type: "object" }, tool_use_id: { type: "string" } }, required: ["tool_name", "input"] },
          },
        ],
      },
    });
  } else if (req.method === "tools/call") {
    const args = (req.params && req.params.arguments) || {};
    if (process.env.ERRATA_E2E_ASKED) fs.appendFileSync(process.env.ERRATA_E2E_ASKED, `${JSON.stringify(args)}\n`);
    const answer = fs.readFileSync(process.env.ERRATA_E2E_ANSWER, "utf8").trim();
    const decision = answer === "allow" ? { behavior: "allow", updatedInput: args.input } : { behavior: "deny", message: answer.replace(/^deny\s*/, "") || "The owner said no." };
    send({ jsonrpc: "2.0", id: req.id, result: { content: [{ type: "text", text: JSON.stringify(decision) }] } });
  } else {
    send({ jsonrpc: "2.0", id: req.id, error: { code: -32601, message: `no method ${req.method}` } });
  }
});
