// The prompts the verdict digests (verdict-digests.test.ts) are computed on, each with the
// reply it answered where the data has one. Read here with small readers of the raw files
// rather than through the importers (runtime/corpora), so that a change of an importer's
// choices (which turns become exchanges) cannot pass for a change of the classifier's verdicts.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import { loadAbRedial, loadUss } from "../../bench/capture-quality-data.js";

export interface Item {
  text: string;
  reply: string | null;
}

export interface Corpus {
  name: string;
  /** Reads the items (only called when the files are present, see `present`). */
  items: () => Item[];
  /** Where the data lives, and where to get it when it is absent. */
  path: string;
  source: string;
}

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const sharedDir = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");

const jsonLines = (file: string): unknown[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);

/** Files under `dir` (recursively) whose names end with `ext`, sorted by their path relative to it. */
function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(ext)) out.push(p);
    }
  };
  walk(dir);
  return out.sort((a, b) => (relative(dir, a) < relative(dir, b) ? -1 : 1));
}

/** The text parts of a Claude Code message's content (a string, or blocks of which the "text" ones count). */
function messageText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((b) => {
    const block = b as { type?: unknown; text?: unknown };
    return block.type === "text" && typeof block.text === "string" ? [block.text] : [];
  });
  return texts.length === 0 ? null : texts.join("\n");
}

/**
 * Every user line with text of a Claude Code transcript (typed prompts, command echoes,
 * reminders: what the hook may be handed), with the text of the last assistant line before
 * it. Lines that are not JSON (m-claude's redaction broke some) are passed over.
 */
export function transcriptItems(file: string): Item[] {
  const items: Item[] = [];
  let reply: string | null = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let row: { type?: unknown; message?: { content?: unknown } };
    try {
      row = JSON.parse(line) as typeof row;
    } catch {
      continue;
    }
    const text = messageText(row.message?.content);
    if (text === null) continue;
    if (row.type === "assistant") reply = text;
    else if (row.type === "user") items.push({ text, reply });
  }
  return items;
}

/** Turns of a dialogue as [user, system] pairs: each user utterance with the system utterance before it. */
function dialogueItems(turns: ReadonlyArray<{ user: boolean; text: string }>): Item[] {
  const items: Item[] = [];
  let reply: string | null = null;
  for (const t of turns) {
    if (t.user) items.push({ text: t.text, reply });
    else reply = t.text;
  }
  return items;
}

/** DBDC3's English revised dialogues, read from the zip in memory. */
function dbdc3Items(zip: string): Item[] {
  const prefix = "DBDC3/dbdc3_revised/en/";
  const files = unzipSync(new Uint8Array(readFileSync(zip)), { filter: (f) => f.name.startsWith(prefix) && f.name.endsWith(".json") });
  return Object.keys(files)
    .sort()
    .flatMap((name) => {
      const dialog = JSON.parse(strFromU8(files[name] as Uint8Array)) as { turns: Array<{ speaker: string; utterance: string }> };
      return dialogueItems(dialog.turns.map((t) => ({ user: t.speaker === "U", text: t.utterance })));
    });
}

/** ConTurE: per dialogue, each turn's user utterance answers the chatbot turn before it. */
function contureItems(file: string): Item[] {
  const dialogs = JSON.parse(readFileSync(file, "utf8")) as Array<{ turns: Array<{ user: string; chatbot: string }> }>;
  const strip = (s: string, head: string): string => (s.startsWith(head) ? s.slice(head.length).trim() : s);
  return dialogs.flatMap((d) => dialogueItems(d.turns.flatMap((t) => [{ user: true, text: strip(t.user, "User:") }, { user: false, text: strip(t.chatbot, "Chatbot:") }])));
}

/**
 * The UKP annotated dialogues (`data/analysis/filtered_dialogs/**`, one dialogue a file):
 * each utterance answers the response of the turn before. (`random_dialogs` keep each
 * source's own layout; they are left out, as the importer leaves them.)
 */
function ukpItems(dir: string): Item[] {
  return filesUnder(dir, ".json").flatMap((file) => {
    const dialog = JSON.parse(readFileSync(file, "utf8")) as { turns: Array<{ utterance: string; response: string }> };
    return dialogueItems(dialog.turns.flatMap((t) => [{ user: true, text: t.utterance }, { user: false, text: t.response }]));
  });
}

const shared = (...p: string[]): string => join(sharedDir, ...p);

/**
 * Long prompts (400 to 2,500 characters, what few typed prompts are) cut from the bundled
 * prompts joined end to end, each with the reply of one bundled exchange in turn.
 */
function joinedLong(items: readonly Item[]): Item[] {
  const pool = items.map((i) => i.text).join(" ");
  const out: Item[] = [];
  for (const length of [400, 700, 1000, 2500]) {
    for (let at = 0; at + length <= pool.length; at += 997) out.push({ text: pool.slice(at, at + length), reply: items[out.length % items.length]?.reply ?? null });
  }
  return out;
}

/** Every corpus, in a fixed order: the labelled sets, the bundled exchanges, the shared sets. */
export function corpora(): Corpus[] {
  const labelledDir = fileURLToPath(new URL("./lang/", import.meta.url));
  const labelled = readdirSync(labelledDir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map(
      (f): Corpus => ({
        name: `labelled/${f.replace(/\.jsonl$/, "")}`,
        path: join(labelledDir, f),
        source: "test/classifier/lang/",
        items: () => jsonLines(join(labelledDir, f)).map((r) => r as Item),
      }),
    );
  const datasets = join(repoRoot, "datasets");
  const bundled = readdirSync(datasets)
    .filter((set) => existsSync(join(datasets, set, "exchanges.jsonl")))
    .sort()
    .map(
      (set): Corpus => ({
        name: `datasets/${set}`,
        path: join(datasets, set, "exchanges.jsonl"),
        source: "datasets/",
        items: () => jsonLines(join(datasets, set, "exchanges.jsonl")).map((r) => ({ text: (r as { prompt: string }).prompt, reply: (r as { reply_end: string | null }).reply_end })),
      }),
    );
  const joined: Corpus = {
    name: "datasets/joined-long",
    path: datasets,
    source: "datasets/",
    items: () => joinedLong(bundled.flatMap((c) => c.items())),
  };
  const transcripts = shared("claude-transcripts");
  const sharedSets: Corpus[] = [
    { name: "shared/ab-redial", path: shared("ab-redial", "annotated_turns.csv"), source: "github.com/Clemenciah/AB-ReDial (Data/annotated_turns.csv)", items: () => loadAbRedial(shared("ab-redial", "annotated_turns.csv")).map((i) => ({ text: i.prompt, reply: i.reply })) },
    {
      name: "shared/claude-transcripts",
      path: transcripts,
      source: "the repositories named in claude-transcripts/NOTE.md (github.com/marot/spotter, github.com/M-Thisness/M-Claude, ...)",
      items: () => filesUnder(transcripts, ".jsonl").flatMap(transcriptItems),
    },
    { name: "shared/dbdc3", path: shared("dbdc3", "DBDC3.zip"), source: "github.com/dbd-challenge/dbdc3 (docs/data/DBDC3.zip)", items: () => dbdc3Items(shared("dbdc3", "DBDC3.zip")) },
    { name: "shared/conture", path: shared("conture", "data", "data.json"), source: "github.com/alexa/conture (data/data.json)", items: () => contureItems(shared("conture", "data", "data.json")) },
    {
      name: "shared/ukp-free-text-feedback",
      path: shared("ukp-free-text-feedback", "data", "analysis", "filtered_dialogs"),
      source: "github.com/UKPLab/emnlp2023-learning-from-free-text-human-feedback (data/analysis/filtered_dialogs/)",
      items: () => ukpItems(shared("ukp-free-text-feedback", "data", "analysis", "filtered_dialogs")),
    },
    { name: "shared/uss-sgd", path: shared("uss", "SGD.txt"), source: "github.com/sunnweiwei/user-satisfaction-simulation (dataset/SGD.txt; local only)", items: () => loadUss(shared("uss", "SGD.txt"), "sgd").map((i) => ({ text: i.prompt, reply: i.reply })) },
    { name: "shared/uss-mwoz", path: shared("uss", "MWOZ.txt"), source: "github.com/sunnweiwei/user-satisfaction-simulation (dataset/MWOZ.txt; local only)", items: () => loadUss(shared("uss", "MWOZ.txt"), "mwoz").map((i) => ({ text: i.prompt, reply: i.reply })) },
  ];
  return [...labelled, ...bundled, joined, ...sharedSets];
}

/** Whether a corpus's files are on this machine. */
export const present = (c: Corpus): boolean => existsSync(c.path) && (statSync(c.path).isFile() || readdirSync(c.path).length > 0);
