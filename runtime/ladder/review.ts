/**
 * The reviewer lane: a model of another family than the assistant whose rules are under
 * review argues against each drafted proposal, so the owner reads the strongest "no" beside
 * the evidence. It is named by the engine config's `reviewer` key (a lane of kind openai);
 * with none named the review is skipped and the proposal says so (OFFLINE_REVIEW). The
 * prompt carries only redacted text (the proposal's fields through the privacy entry point),
 * asks for a bounded reply (REVIEW_MAX_TOKENS), and runs under the engine's whole-response
 * deadline. A failure never blocks drafting: the proposal is kept, its review reads
 * "reviewer failed: <reason>".
 *
 * Example: with `{"lanes": {"rev": {"kind": "openai", "baseURL": "http://127.0.0.1:8000/v1",
 * "model": "qwen2.5-7b-instruct"}}, "reviewer": "rev"}`, `await r.review(p)` ->
 * "reviewer rev (qwen2.5-7b-instruct) argues against: two corrections in one week are thin evidence ...".
 */
import { BudgetBook, apiKeyFor, EngineConfigError, generativeLane, loadEngineSettings, withDeadline, type ChatMessage, type GenerateDeps, type OpenAILaneConfig } from "../engine/index.js";
import type { ErrataPaths } from "../paths.js";
import { redactTextForWrite } from "../privacy/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { editSummary } from "./proposals.js";

export const OFFLINE_REVIEW = "reviewer lane skipped: offline (no second model family configured)";
export const REVIEW_CALLER = "errata-ladder-review";
/** The reply is a short argument: a bound on tokens keeps a night's reviews cheap and quick. */
export const REVIEW_MAX_TOKENS = 300;
/** The argument kept in the table, in characters (a model that ignores the bound is cut). */
const REVIEW_MAX_CHARS = 600;

export interface Reviewer {
  /** The lane's name and model, for the line the owner reads. */
  name: string;
  model: string;
  /** The review line: "reviewer <name> (<model>) argues against: ..." or "reviewer failed: <reason>". Never throws. */
  review(p: Proposal): Promise<string>;
}

const projectPath = (file: string): string => {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf(".claude");
  return at >= 0 ? parts.slice(at).join("/") : (parts.at(-1) ?? file);
};

/** The prompt: the proposal's own fields, redacted. Exported so a test can pin what leaves the machine. */
export function reviewMessages(p: Proposal): ChatMessage[] {
  const facts = [
    `Proposal ${p.id}: ${p.type} of rule ${p.rule_id}, rung ${p.from_rung} -> ${p.to_rung} (rungs: 0 a note found by search, 1 a line in a file for one kind of task, 2 a line read on every turn, 3 a check that runs before a tool call and can block it).`,
    `Diagnosis: ${p.diagnosis}`,
    `Why it is proposed: ${p.why}`,
    `The change: ${editSummary(p.edit)}`,
    ...(p.rule ? [`The rule as it would be written: ${JSON.stringify(p.rule.text)}`] : []),
    `Evidence (${p.evidence.length} line${p.evidence.length === 1 ? "" : "s"}):`,
    ...p.evidence.slice(0, 12).map((e) => `- ${e}`),
  ].join("\n");
  // The file by its place in the project (".claude/rules/x.md", "CLAUDE.md"), not this machine's path.
  const text = p.edit === null ? facts : facts.split(p.edit.file).join(projectPath(p.edit.file));
  return [
    {
      role: "system",
      content:
        "You review changes proposed to an AI coding assistant's standing rules. Argue against the proposal: give the strongest reason the owner should say no (thin or misread evidence, a rule that is too broad or too narrow, a check that would block good work, a cheaper repair). Be concrete and short. Reply with one JSON object: {\"against\": \"<at most 80 words>\"}.",
    },
    { role: "user", content: redactTextForWrite(text) },
  ];
}

/** The argument from the lane's JSON reply (or its text, when the server ignored the format). */
function argumentOf(text: string): string {
  let out = text.trim();
  try {
    const v = JSON.parse(out) as unknown;
    if (v !== null && typeof v === "object" && typeof (v as Record<string, unknown>)["against"] === "string") out = String((v as Record<string, unknown>)["against"]);
  } catch {
    // Not JSON: the text itself is the argument.
  }
  out = redactTextForWrite(out.replace(/\s+/g, " ").trim());
  return out.length > REVIEW_MAX_CHARS ? `${out.slice(0, REVIEW_MAX_CHARS - 1)}…` : out;
}

/**
 * A lane whose attempts and back-off sleeps all end when `stop` aborts: after the deadline the
 * lane's retry loop would otherwise go on in the background (sleeping, asking again), holding
 * the nightly process open and spending the budget on a review nobody waits for.
 */
function stoppableLane(cfg: OpenAILaneConfig, apiKey: string, book: BudgetBook, deps: GenerateDeps, stop: AbortSignal) {
  const base = deps.fetch ?? fetch;
  return generativeLane(cfg, apiKey, book, {
    ...deps,
    fetch: ((url: Parameters<typeof fetch>[0], init?: RequestInit) => base(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, stop]) : stop })) as typeof fetch,
    sleep: (ms) =>
      stop.aborted
        ? Promise.resolve()
        : Promise.race([deps.sleep(ms), new Promise<void>((done) => stop.addEventListener("abort", () => done(), { once: true }))]),
  });
}

export function reviewerOf(name: string, cfg: OpenAILaneConfig, apiKey: string, book: BudgetBook, deps: GenerateDeps): Reviewer {
  // The whole review, retries included, within the lane's own time-out (openai/config.ts
  // laneTimeoutMs: 60 s, 15 min on the flex tier, or the lane's timeoutMs).
  const deadlineMs = cfg.timeoutMs ?? (cfg.serviceTier === "flex" ? 900_000 : 60_000);
  return {
    name,
    model: cfg.model,
    async review(p) {
      try {
        const r = await withDeadline(deadlineMs, (signal) => stoppableLane(cfg, apiKey, book, deps, signal).generate(reviewMessages(p), { caller: REVIEW_CALLER, maxTokens: REVIEW_MAX_TOKENS }));
        if (!r.ok) return `reviewer failed: ${r.reason}`;
        const arg = argumentOf(r.text);
        return arg === "" ? "reviewer failed: an empty argument" : `reviewer ${name} (${cfg.model}) argues against: ${arg}`;
      } catch (e) {
        return `reviewer failed: ${(e as Error).message}`;
      }
    },
  };
}

/**
 * The reviewer the engine config names, or null with why (no `reviewer` key: offline). A
 * named lane that is missing or not an OpenAI lane is a configuration error (exit 2): the
 * owner asked for a review, and silently skipping it would hide that.
 */
export function reviewerFromConfig(opts: { paths: Pick<ErrataPaths, "ledgerDir">; env: Record<string, string | undefined>; configPath?: string; deps?: Partial<GenerateDeps> }): { reviewer: Reviewer; why: null } | { reviewer: null; why: string } {
  const settings = loadEngineSettings(opts.paths, opts.env, opts.configPath);
  const name = settings.reviewer;
  if (name === null) return { reviewer: null, why: OFFLINE_REVIEW };
  const lane = settings.lanes[name];
  if (lane === undefined) throw new EngineConfigError(`the reviewer lane ${name} is not in the engine config`, `one of: ${Object.keys(settings.lanes).join(", ") || "(no lanes)"}`, name);
  if (lane.kind !== "openai") throw new EngineConfigError(`the reviewer lane ${name} is not an OpenAI lane`, "a lane of kind openai", lane.kind);
  const book = new BudgetBook(settings.callers, settings.defaultCallerBudget, lane.budget);
  const deps: GenerateDeps = {
    sleep: opts.deps?.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    random: opts.deps?.random ?? Math.random,
    now: opts.deps?.now ?? (() => Date.now()),
    ...(opts.deps?.fetch ? { fetch: opts.deps.fetch } : {}),
  };
  return { reviewer: reviewerOf(name, lane, apiKeyFor(lane, opts.env), book, deps), why: null };
}

/** The review line for a draft: the reviewer's, or the offline line. */
export async function reviewed(p: Proposal, reviewer: Reviewer | null | undefined): Promise<Proposal> {
  return { ...p, review: reviewer ? await reviewer.review(p) : OFFLINE_REVIEW };
}
