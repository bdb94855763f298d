/**
 * The instruction file of each made-up project the synthetic sessions work on: a CLAUDE.md
 * in the shapes real ones use (sections of bullets, a numbered workflow, a table of don'ts),
 * holding rules that some planted failures break (the package manager, running the tests
 * before saying done, nothing destructive unasked, English replies, no invented APIs, no work
 * left for the owner) and rules none do. Written with the bundled synthetic set
 * (`datasets/synthetic/projects/<name>/CLAUDE.md`); the sessions ran in
 * `/home/dev/projects/<name>` (SYNTHETIC_HOME), which `errata rules build --project` names.
 *
 * Example: `instructionFile(PROJECTS[0])` -> "# invoice-api\n\nTypeScript service …\n## Tooling\n\n- Use pnpm for every dependency change; never npm. …".
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECTS, type Project } from "./projects.js";

/** Where the synthetic sessions say they ran. */
export const SYNTHETIC_HOME = "/home/dev/projects";

export function instructionFile(p: Project): string {
  return [
    `# ${p.name}`,
    "",
    `${p.lang} project. These rules hold for every change in this repository.`,
    "",
    "## Tooling",
    "",
    `- Use ${p.pm} for every dependency change; never ${p.wrongPm}.`,
    `- Build with \`${p.buildCmd}\`.`,
    "",
    "## Workflow",
    "",
    `1. Work on a branch (for example \`${p.branch}\`); never commit straight to main.`,
    `2. Run \`${p.testCmd}\` and read its output before you say a change works.`,
    "3. Finish the task you were given; do not leave TODOs or steps for me to do.",
    "",
    "## Safety",
    "",
    "| Don't | Do instead |",
    "|---|---|",
    "| Force-push, drop tables or delete data without asking | Stop and ask me first |",
    `| Remove or rewrite \`${p.config}\` | Change only the keys the task needs |`,
    "",
    "## Communication",
    "",
    "- Answer in English, even when a tool prints another language.",
    "- Never invent an API or a flag: check the library's docs or source first, and say when you are unsure.",
    "",
    "## Style",
    "",
    `- Keep \`${p.fn}\` and its neighbours small and pure.`,
    "- Prefer early returns over nested conditionals.",
    "",
  ].join("\n");
}

/** Writes every project's CLAUDE.md under `dir/<name>/`; returns the files written. */
export function writeInstructionFiles(dir: string): string[] {
  return PROJECTS.map((p) => {
    const file = join(dir, p.name, "CLAUDE.md");
    mkdirSync(join(dir, p.name), { recursive: true });
    writeFileSync(file, instructionFile(p));
    return file;
  });
}
