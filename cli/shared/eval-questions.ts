import { parseAnswerSpec, type AnswerSpec } from "../../eval/index.js";
import { bank, CLASS_IDS } from "../../questions/index.js";
import { pure } from "./eval-files.js";

/**
 * The answer columns of a labelling sheet: by default every bank question (yes/no) and
 * `class` (the labellers' primary v3 class of a failure, or "none"). `--questions` picks or
 * adds columns: `detect.unhappy,class`, `satisfaction:1-5`, `breakdown:O|T|X`.
 *
 * Example: `answerSpecs("detect.unhappy,satisfaction")` → yes/no detect.unhappy and the
 * 1-5 rating satisfaction.
 */
export const CLASS_QUESTION = "class";

const KNOWN: Record<string, AnswerSpec> = {
  [CLASS_QUESTION]: { id: CLASS_QUESTION, kind: "category", values: [...CLASS_IDS, "none"] },
  satisfaction: { id: "satisfaction", kind: "rating", min: 1, max: 5 },
  breakdown: { id: "breakdown", kind: "category", values: ["O", "T", "X"] },
};

export function defaultAnswerSpecs(): AnswerSpec[] {
  return [...bank.map((q): AnswerSpec => ({ id: q.id, kind: "yesno" })), KNOWN[CLASS_QUESTION]!];
}

export function answerSpecs(list: string | undefined): AnswerSpec[] {
  if (list === undefined) return defaultAnswerSpecs();
  return list
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => (s.includes(":") ? pure(() => parseAnswerSpec(s)) : (KNOWN[s] ?? pure(() => parseAnswerSpec(s)))));
}
