#!/usr/bin/env node
// A recording hook for the end-to-end suite: appends {event, payload} (the JSON the real client
// sent on stdin) to $ERRATA_E2E_PAYLOADS, one line, and answers nothing (exit 0, no stdout).
"use strict";
const { appendFileSync } = require("node:fs");
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const out = process.env.ERRATA_E2E_PAYLOADS;
  if (!out) return;
  let payload;
  try {
    payload = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    payload = { unparsed: Buffer.concat(chunks).toString("utf8") };
  }
  appendFileSync(out, `${JSON.stringify({ event: process.argv[2] ?? "?", payload })}\n`);
});
