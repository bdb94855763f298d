import { bash, re, type Episode } from "./episodes.js";
import type { Project } from "./projects.js";
import type { Rng } from "./prng.js";

/**
 * Trouble the assistant did not cause, so that the blame questions have both sides: the
 * outside world (a registry or a service down) and the host's machinery (a hook that blocks a
 * command, a rate limit). The owner is annoyed at the world or the setup, not at the
 * assistant: `detect.unhappy` is no, `blame.world` or `blame.host` yes (see `truth.ts`).
 *
 * Example: `OUTSIDE.world(project, rng(1)).bad.text` → "The install failed: the package
 * registry returned 503 Service Unavailable. Nothing changed locally."
 */
export type OutsideKind = "world" | "host";

export const OUTSIDE: Record<OutsideKind, (p: Project, r: Rng) => Episode> = {
  world: (p, r) =>
    r.pick([
      {
        setup: [],
        request: `Add ${p.pkg} and install everything.`,
        bad: { steps: [bash(p.addPkg(p.pkg), "GET https://registry.npmjs.org/ 503 Service Unavailable", true)], text: "The install failed: the package registry returned 503 Service Unavailable. Nothing changed locally." },
        reaction: r.pick([re("the registry is down again, great."), re("ugh, outage on their side. try again in a bit"), re("their status page says partial outage. let's wait")]),
        fix: { steps: [bash(p.addPkg(p.pkg), "Done")], text: `The registry is back: added ${p.pkg}.` },
      },
      {
        setup: [],
        request: "Check whether the staging API answers.",
        bad: { steps: [bash("curl -s -o /dev/null -w '%{http_code}' https://staging.example.com/health", "502", true)], text: "Staging returns 502 Bad Gateway; the hosting provider's status page lists an incident in our region." },
        reaction: r.pick([re("the provider again. nothing we can do, let's wait"), re("hm, their incident. ok, work on the tests meanwhile"), re("typical. ping me when it's back")]),
        fix: { steps: [], text: "Understood; I'll check staging again later and work on the tests meanwhile." },
      },
    ]),
  host: (p, r) =>
    r.pick([
      {
        setup: [],
        request: "Run the tests.",
        bad: { steps: [bash(p.testCmd, "PreToolUse:Bash hook error: command blocked by the project's guard hook", true)], text: "The PreToolUse hook blocked the command, so I could not run the tests." },
        reaction: r.pick([re("that hook is misconfigured again. I disabled it, try now"), re("ugh, the guard hook. fixed its config, go ahead"), re("the hook again... ok it's off now")]),
        fix: { steps: [bash(p.testCmd, "14 passed")], text: "With the hook off the tests ran: all 14 pass." },
      },
      {
        setup: [],
        request: `Summarize the open TODOs in ${p.main}.`,
        bad: { steps: [], text: "API Error: 429 rate limit exceeded. Please try again later." },
        reaction: r.pick([re("ugh, the limits. retry in a minute"), re("rate limited again. try once more"), re("the API limit, again. go on")]),
        fix: { steps: [], text: `There are three TODOs in ${p.main}: rounding, logging and a missing test.` },
      },
    ]),
};
