/**
 * Reading and editing a Claude Code settings file's text, shared by the two writers that edit
 * one (native deny rules, the per-check tool handlers): the file's own indentation kept, and a
 * file that is not a JSON object refused before anything is written.
 */
import type { FormattingOptions } from "jsonc-parser";
import { LadderError } from "./errors.js";

/** The file's indentation, so an inserted entry looks like its neighbours. */
export function settingsFormatting(text: string): FormattingOptions {
  const m = /\n([ \t]+)"/.exec(text);
  const indent = m?.[1] ?? "  ";
  return { insertSpaces: !indent.startsWith("\t"), tabSize: indent.startsWith("\t") ? 1 : indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

/** The settings object of a file's text; anything else is refused (BAD_INPUT, nothing written). */
export function settingsObject(text: string, file: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new LadderError("BAD_INPUT", `${file} is not JSON (${(err as Error).message}); nothing written`, { expected: "Claude Code settings, a JSON object", found: "text that does not parse" });
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new LadderError("BAD_INPUT", `${file} is not a JSON object; nothing written`, { expected: "a JSON object", found: Array.isArray(v) ? "an array" : typeof v });
  return v as Record<string, unknown>;
}
