import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { badInput, describeFound } from "../core/errors.js";

/**
 * A notebook's inputs: each a file the project writes (labels, a score report, bench output,
 * a v4 report), with the bundled default (repository-relative) and the command that makes
 * one. A missing input is bad input naming the file and that command.
 *
 * Example: `readInput(spec, "/repo", undefined)` on a missing default -> "notebook detectors:
 * no score report at notebooks/data/score-ab-redial.json (expected a file made by: errata eval
 * score --predictions preds.jsonl --json > score.json; found nothing there)".
 */
export interface InputSpec {
  notebook: string;
  key: string;
  /** What the file is, in a few words ("score report"). */
  what: string;
  /** The bundled file, relative to the repository root. */
  bundled: string;
  /** The command that makes such a file. */
  make: string;
}

export interface ReadInput {
  /** As typed, or the bundled file's repository-relative path (the page names it; no machine path for bundled inputs). */
  shown: string;
  text: string;
}

export function readInput(spec: InputSpec, root: string, given: string | undefined, cwd: string = root): ReadInput {
  const path = given === undefined ? join(root, spec.bundled) : resolve(cwd, given);
  if (!existsSync(path)) {
    throw badInput(`notebook ${spec.notebook}: no ${spec.what} at ${given ?? spec.bundled}`, `a file made by: ${spec.make}`, "no file there");
  }
  return { shown: given ?? spec.bundled, text: readFileSync(path, "utf8") };
}

/** JSON lines of a file; a line that does not parse is bad input naming the file and line. */
export function jsonLines(input: ReadInput): unknown[] {
  const out: unknown[] = [];
  input.text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      out.push(JSON.parse(line));
    } catch {
      throw badInput(`${input.shown} line ${i + 1} is not JSON`, "one JSON value a line", describeFound(line.slice(0, 60)));
    }
  });
  return out;
}

export function jsonValue(input: ReadInput): unknown {
  try {
    return JSON.parse(input.text);
  } catch {
    throw badInput(`${input.shown} is not JSON`, "one JSON value", describeFound(input.text.slice(0, 60)));
  }
}
