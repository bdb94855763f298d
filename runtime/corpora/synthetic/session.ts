import { InvariantError } from "../../../core/errors.js";
import { MODE_IDS, type ModeId } from "../../../questions/index.js";
import { CLEAN, CLOSINGS, FAILURES, type Episode, type Exchange0 } from "./episodes.js";
import { OUTSIDE, type OutsideKind } from "./episodes-outside.js";
import { uuidFrom, type Rng } from "./prng.js";
import { PROJECTS } from "./projects.js";
import type { Scenario } from "./truth.js";
import { SessionWriter } from "./writer.js";

/**
 * What the generator planted at one typed prompt, the truth its labels are written from
 * (`plannedLabels` in truth.ts): what happened in the reply this prompt reacts to.
 */
export type PromptTruth = Scenario;
const CLEAN_TRUTH: PromptTruth = { kind: "clean" };

/** The failure mode planted in the reply a prompt reacts to, or null. */
export function plantedMode(t: PromptTruth): ModeId | null {
  return t.kind === "failure" ? t.mode : null;
}

export interface GeneratedSession {
  sessionId: string;
  project: string;
  /** Relative path of the session file: `-home-dev-projects-<name>/<session>.jsonl`. */
  rel: string;
  lines: Record<string, unknown>[];
  /** Typed prompt uuid → truth. Prompts on a rewound branch are listed too (they get no exchange). */
  truth: Map<string, PromptTruth>;
  planted: ModeId[];
  features: string[];
}

const REMINDER = "<system-reminder>\nThe user opened the file in the IDE. This may or may not be related to the current task.\n</system-reminder>";

/**
 * Builds one session: a project, 0-3 planted failures (modes given by the caller, so that a
 * corpus covers every mode), clean requests between them, and the noise real transcripts
 * have (command echoes, interruptions, a compaction, a queued prompt, a rewind, system
 * reminders inside typed text), each drawn from the seeded stream.
 *
 * Also, in about one session in four, trouble the assistant did not cause (a service down or
 * a hook in the way: `episodes-outside.ts`).
 *
 * Example: `generateSession(rng(1), 0, ["claimed_false_success"])` → a session whose prompt
 * after the "Fixed — all tests pass now." reply carries `{kind: "failure", mode: "claimed_false_success", reaction: {correction: true, …}}`.
 */
export function generateSession(r: Rng, index: number, modes: readonly ModeId[], startMs: number): GeneratedSession {
  const p = r.pick(PROJECTS);
  const sessionId = uuidFrom(r);
  const w = new SessionWriter(r, sessionId, `/home/dev/projects/${p.name}`, r.pick(["main", p.branch]), startMs);
  const truth = new Map<string, PromptTruth>();
  const features: string[] = [];
  let nextTruth: PromptTruth = CLEAN_TRUTH;
  const hooks = r.chance(0.3);

  const typed = (text: string, t: PromptTruth, parent?: string | null): string => {
    const withNoise = r.chance(0.1) ? (r.chance(0.5) ? `${text}\n\n${REMINDER}` : `<ide_opened_file>The user opened ${p.main} in the IDE.</ide_opened_file>${text}`) : text;
    const uuid = w.prompt(withNoise, parent);
    truth.set(uuid, t);
    return uuid;
  };
  const clean = (ex: Exchange0): void => {
    typed(ex.prompt, ex.changeOfMind === true && nextTruth.kind === "clean" ? { kind: "change_of_mind" } : nextTruth);
    w.reply(ex.reply, { hooks });
    nextTruth = CLEAN_TRUTH;
  };
  const episode = (ep: Episode, reaction: PromptTruth): void => {
    for (const s of ep.setup) clean(s);
    typed(ep.request, nextTruth);
    w.reply(ep.bad, { hooks });
    typed(ep.reaction.text, reaction);
    w.reply(ep.fix, { hooks });
    nextTruth = CLEAN_TRUTH;
  };
  const cleanOne = (): Exchange0 => r.pick(CLEAN)(p, r);

  // The plan: clean requests around the planted episodes, in a random order.
  const items: ({ k: "clean" } | { k: "fail"; mode: ModeId } | { k: "outside"; kind: OutsideKind })[] = modes.map((mode) => ({ k: "fail" as const, mode }));
  const cleanCount = r.int(1, 3);
  for (let i = 0; i < cleanCount; i++) items.push({ k: "clean" });
  // World and host trouble alternate by session, so that both sides of blame are planted evenly.
  if (r.chance(0.25)) items.push({ k: "outside", kind: index % 2 === 0 ? "world" : "host" });
  const plan = [{ k: "clean" as const }, ...r.shuffle(items)];
  const extras = { compact: r.chance(0.12), rewind: r.chance(0.12), queued: r.chance(0.12), command: r.chance(0.25), interrupt: r.chance(0.15) };

  plan.forEach((item, i) => {
    if (item.k === "clean") {
      if (extras.interrupt && i > 0) {
        extras.interrupt = false;
        features.push("interrupt");
        const ex = cleanOne();
        typed(ex.prompt, nextTruth);
        w.reply(ex.reply, { interruptAfterTools: true, hooks });
        typed(r.pick(["continue", "go on, sorry", "carry on"]), CLEAN_TRUTH);
        w.reply({ steps: [], text: "Continuing where I stopped." });
        nextTruth = CLEAN_TRUTH;
        return;
      }
      if (extras.queued && i > 0) {
        extras.queued = false;
        features.push("queued");
        const ex = cleanOne();
        typed(ex.prompt, nextTruth);
        const q = r.pick(["also add a changelog entry", "and update the docs too", "while you're at it, bump the version"]);
        w.reply({ pre: "Working on it.", steps: ex.reply.steps, text: ex.reply.text });
        const qUuid = w.queued(q);
        truth.set(qUuid, CLEAN_TRUTH);
        w.reply({ steps: [], text: `Done: ${q}.` });
        nextTruth = CLEAN_TRUTH;
        return;
      }
      clean(cleanOne());
      return;
    }
    if (item.k === "outside") {
      const ep = OUTSIDE[item.kind](p, r);
      episode(ep, { kind: item.kind, reaction: ep.reaction });
      features.push(item.kind);
      return;
    }
    const ep = FAILURES[item.mode]?.(p, r);
    if (ep === undefined) throw new InvariantError("SYNTHETIC_NO_TEMPLATE", `no template for mode ${item.mode}`);
    episode(ep, { kind: "failure", mode: item.mode, reaction: ep.reaction });
    if (extras.command && r.chance(0.5)) {
      extras.command = false;
      features.push("command");
      w.localCommand(r.pick(["cost", "context", "mcp"]), "Total cost: $0.42");
    }
    if (extras.compact) {
      extras.compact = false;
      features.push("compaction");
      w.compact(`The owner is working on ${p.name}; the last request was handled.`);
    }
  });

  if (extras.rewind) {
    // The owner sends a prompt, gets a reply, rewinds to before it and sends another.
    features.push("rewind");
    const parent = w.tip;
    typed(`Rename ${p.fn} to ${p.fn}V2 everywhere.`, nextTruth);
    w.reply({ steps: [], text: `Renamed ${p.fn} in 6 files.` });
    typed(`Actually, keep the name ${p.fn}; just add a comment above it.`, nextTruth.kind === "clean" ? { kind: "change_of_mind" } : nextTruth, parent);
    w.reply({ steps: [], text: `Added a comment above ${p.fn}.` });
    nextTruth = CLEAN_TRUTH;
  }
  if (r.chance(0.6)) {
    typed(r.pick(CLOSINGS), nextTruth);
    w.reply({ steps: [], text: "Glad to help." });
  }
  return {
    sessionId,
    project: p.name,
    rel: `-home-dev-projects-${p.name}/${sessionId}.jsonl`,
    lines: w.lines,
    truth,
    planted: [...modes],
    features,
  };
}

/**
 * Modes for `sessions` sessions: the 15 modes dealt out first (so even a small corpus plants
 * every mode), then extra draws; about one session in seven after the first fifteen is clean.
 */
export function assignModes(r: Rng, sessions: number): ModeId[][] {
  const out: ModeId[][] = Array.from({ length: sessions }, () => []);
  r.shuffle(MODE_IDS).forEach((m, i) => out[i % sessions]?.push(m));
  out.forEach((list, s) => {
    const target = s < MODE_IDS.length ? r.int(1, 2) : r.chance(0.15) ? 0 : r.int(1, 3);
    while (list.length < target) {
      const m = r.pick(MODE_IDS);
      if (!list.includes(m)) list.push(m);
    }
  });
  return out;
}
