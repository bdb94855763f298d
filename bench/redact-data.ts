/**
 * Real texts the hook redacts, from the real Claude Code sessions in
 * ../shared/datasets/claude-transcripts (spotter, m-claude, slopometry, claude-code-viewer,
 * davesque; the two synthetic fixture sets there are left out): for every prompt a person
 * typed, the texts a capture of it would redact (the prompt, the reply it answers, the ask
 * before it, the turn's tool-call summaries), read with the hook's own transcript-tail parser
 * from the session as it stood when the prompt was typed. The replies are what the Stop hook
 * keeps. For the redactor's bench and the pre-filter's report (docs/privacy.md); nothing read
 * here is written anywhere.
 *
 * Example: `realTurns(dir)[0]` -> `{ file: "spotter/short.jsonl", prompt: "…", reply: "…", texts: [...] }`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseTranscriptTail } from "../runtime/hooks/transcript-tail.js";
import { classifyRecord } from "../runtime/transcripts/records.js";
import { typedPromptVerdict } from "../runtime/transcripts/typed.js";

/** The real sessions (the synthetic fixture sets ckorhonen__reflect and jgatt493__… are not). */
export const REAL_SESSION_SETS = ["spotter", "m-claude", "TensorTemplar__slopometry", "d-kimuson__claude-code-viewer", "davesque__claude-md-transcripts"];

export interface RealTurn {
  file: string;
  prompt: string;
  reply: string | null;
  /** Every text a capture of `prompt` redacts: the prompt, the reply, the ask, the tool-call summaries. */
  texts: string[];
}

export function transcriptsDir(repoRoot: string): string {
  return join(repoRoot, "..", "shared", "datasets", "claude-transcripts");
}

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonlFiles(p));
    else if (name.endsWith(".jsonl")) out.push(p);
  }
  return out;
}

/** Every typed prompt of the real sessions with its capture's texts; [] when the folder is absent. */
export function realTurns(dir: string): RealTurn[] {
  if (!existsSync(dir)) return [];
  const turns: RealTurn[] = [];
  for (const set of REAL_SESSION_SETS) {
    if (!existsSync(join(dir, set))) continue;
    for (const file of jsonlFiles(join(dir, set))) {
      const lines = readFileSync(file, "utf8").split("\n");
      for (let i = 0; i < lines.length; i++) {
        let raw: unknown;
        try {
          raw = JSON.parse(lines[i]!);
        } catch {
          continue; // m-claude has lines its owner's redaction broke
        }
        const rec = classifyRecord(raw);
        const verdict = rec === null ? null : typedPromptVerdict(rec);
        if (verdict === null || !verdict.typed) continue;
        const tail = parseTranscriptTail(lines.slice(0, i).join("\n"), null);
        const texts = [verdict.text, tail.reply, tail.previousPrompt, ...tail.toolCalls.map((t) => t.summary)].filter((t): t is string => t !== null);
        turns.push({ file: relative(dir, file), prompt: verdict.text, reply: tail.reply, texts });
      }
    }
  }
  return turns;
}

/** The distinct replies the turns answer (what the Stop hook keeps), in order. */
export function realReplies(turns: readonly RealTurn[]): string[] {
  const seen = new Set<string>();
  for (const t of turns) if (t.reply !== null) seen.add(t.reply);
  return [...seen];
}
