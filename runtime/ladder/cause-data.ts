/**
 * Synthetic corrections, each labelled with its cause class, for the ladder's small cause
 * model: a prompt and the reply it answers, drawn from per-class phrasings with seeded fillers
 * (tools, languages, services, APIs). Two disjoint phrasing sets: `train` and `heldout`, so
 * the held-out figure is measured on wordings the model never saw. Still synthetic and written
 * by the same hand as the features: the figure says the model separates these wordings, not
 * how it does on an owner's real corrections.
 *
 * Example: causeItems("heldout", 7, 2) -> 10 items, 2 per class, e.g. {cause: "environment",
 * prompt: "the registry is returning 502s right now, we'll retry later", reply: "...", ...}.
 */
import { mulberry32 } from "../../core/mulberry32.js";
import { randomIndex } from "../../core/shuffle.js";
import { CAUSES, type Cause } from "../../schemas/rule-ledger.js";

export interface CauseItem {
  cause: Cause;
  prompt: string;
  reply: string;
}

type Phr = readonly [prompt: string, reply: string];
const P: Record<Cause, { train: readonly Phr[]; heldout: readonly Phr[] }> = {
  rule_gap: {
    train: [
      ["I told you, we use {tool} here, not {other}", "Ran {other} install to add it."],
      ["again? always reply in {lang}", "Here is the answer in English."],
      ["never commit straight to main, I said this before", "Committed and pushed to main."],
      ["from now on run the linter before you say done", "Done, all changes are in."],
      ["you did it again: don't touch the generated files", "Updated the generated client by hand."],
    ],
    heldout: [
      ["as I said last week, {tool} only please", "Installed it with {other}."],
      ["remember: answers in {lang}, like I asked", "Sure, here it is in English."],
      ["please stop opening PRs without tests, we agreed on that", "Opened the pull request."],
      ["how many times: keep commits small", "Made one commit with all 30 files."],
    ],
  },
  missing_tool: {
    train: [
      ["you can't see the {svc} dashboard, I need to give you access", "I could not open the dashboard."],
      ["you don't have a browser tool, so don't guess what the page says", "I think the page says it is fixed."],
      ["there's no MCP server for {svc} yet, that's why", "I have no way to reach {svc}."],
      ["you lack permission to read prod logs, I'll set that up", "Permission denied reading the logs."],
    ],
    heldout: [
      ["without a database tool you can't check that, I'll add one", "I guessed the table layout."],
      ["I haven't installed the {svc} plugin for you yet", "I cannot query {svc} from here."],
      ["you have no access to the staging box, not your fault", "I could not connect to staging."],
    ],
  },
  environment: {
    train: [
      ["{svc} is down again, never mind", "The request to {svc} returned 503."],
      ["the machine restarted overnight, start over", "The session lost the branch after a restart."],
      ["CI is flaky today, just rerun it", "The CI job timed out."],
      ["disk is full on the runner, not you", "The build failed writing the cache."],
      ["network outage here, try again in a bit", "The download failed halfway."],
    ],
    heldout: [
      ["the registry is returning 502s right now, we'll retry later", "npm failed with a 502."],
      ["{svc} had an incident this morning", "The sync to {svc} did not finish."],
      ["my laptop rebooted, pick up where we were", "I lost the terminal state."],
    ],
  },
  beyond_model: {
    train: [
      ["this is too much for you in one go, let's split it", "Here is the whole refactor of the 40 modules."],
      ["still wrong after five tries, I'll do it myself", "Here is another attempt at the proof."],
      ["you keep losing track of this long file, forget it", "I rewrote the 3,000-line module."],
      ["this needs more reasoning than you can manage, too complex", "Here is the concurrency fix."],
    ],
    heldout: [
      ["we've gone in circles for an hour, this is beyond you", "Here is yet another version."],
      ["too hard to do in one shot, give me a plan instead", "Implemented the whole compiler pass."],
      ["you can't hold all of this in your head, split it up", "Updated all 60 services at once."],
    ],
  },
  wrong_fact: {
    train: [
      ["that method does not exist, it's {api}", "Use Array.prototype.flatten()."],
      ["that's outdated, the current version is {ver}", "Node 18 is the current LTS."],
      ["no, the deadline is Friday, not Monday", "The deadline is Monday."],
      ["that flag was removed years ago", "Pass --legacy-mode to the CLI."],
    ],
    heldout: [
      ["there is no such function in the library, check the docs", "Call lodash.deepFlattenAll()."],
      ["wrong version: we're on {ver}", "Since you are on version 2, use the old API."],
      ["that's not the capital, it's Helsinki", "The capital of Finland is Turku."],
    ],
  },
};

const FILL: Record<string, readonly string[]> = {
  "{tool}": ["pnpm", "yarn", "uv", "bun", "ruff"],
  "{other}": ["npm", "pip", "poetry", "black"],
  "{lang}": ["Finnish", "Spanish", "German", "Japanese"],
  "{svc}": ["GitHub", "Stripe", "the API", "grafana", "S3"],
  "{api}": ["flat()", "structuredClone()", "Object.hasOwn()"],
  "{ver}": ["22", "3.12", "5.4"],
};

function fill(text: string, rand: () => number): string {
  return text.replace(/\{[a-z]+\}/g, (k) => {
    const opts = FILL[k];
    return opts ? opts[randomIndex(rand, opts.length)]! : k;
  });
}

/** `perClass` items of every class from one phrasing set, seeded. */
export function causeItems(set: "train" | "heldout", seed: number, perClass: number): CauseItem[] {
  const rand = mulberry32(seed);
  const out: CauseItem[] = [];
  for (const cause of CAUSES) {
    const phr = P[cause][set];
    for (let i = 0; i < perClass; i++) {
      const [prompt, reply] = phr[i % phr.length]!;
      out.push({ cause, prompt: fill(prompt, rand), reply: fill(reply, rand) });
    }
  }
  return out;
}
