import type { Project } from "./projects.js";
import type { Rng } from "./prng.js";
import type { ReactionFlags } from "./truth.js";

/** One tool call of a synthetic reply, with the result the tool gave. */
export interface Step {
  tool: string;
  input: Record<string, unknown>;
  result: string;
  error?: boolean;
}

/** An assistant reply: optional text first, tool calls, then the closing text. */
export interface Reply {
  pre?: string;
  steps: Step[];
  text: string;
}

/** A request and its reply, with no failure. `changeOfMind`: the prompt revises the owner's own plan. */
export interface Exchange0 {
  prompt: string;
  reply: Reply;
  changeOfMind?: boolean;
}

/** The owner's reaction to a failing reply, with how it reacts (the plan's detect labels). */
export interface Reaction extends ReactionFlags {
  text: string;
}

/**
 * A reaction; `flags` holds "c" (corrects or redirects: says what is wrong and what is right,
 * or asks to revert or take another path), "r" (repeats or rephrases the request the reply
 * missed), "?" (confused: the reply made no sense to them). None of them: the owner only
 * objects ("a TODO is not an implementation", UKP's "make aware without correction").
 */
export const re = (text: string, flags = ""): Reaction => ({ text, correction: flags.includes("c"), repeat: flags.includes("r"), confused: flags.includes("?") });

/**
 * A failure episode: the owner's request, the reply that fails in the planted way, the
 * owner's reaction (the prompt that gets labelled), and the reply that fixes it. `setup`
 * turns come earlier in the session (a standing rule, a first failed attempt).
 */
export interface Episode {
  setup: Exchange0[];
  request: string;
  bad: Reply;
  reaction: Reaction;
  fix: Reply;
}

export const read = (p: Project, file: string, body = `// ${file}\n…`): Step => ({ tool: "Read", input: { file_path: `/home/dev/projects/${p.name}/${file}` }, result: body });
export const edit = (p: Project, file: string, oldS: string, newS: string): Step => ({
  tool: "Edit",
  input: { file_path: `/home/dev/projects/${p.name}/${file}`, old_string: oldS, new_string: newS },
  result: `The file /home/dev/projects/${p.name}/${file} has been updated.`,
});
export const bash = (command: string, result: string, error = false): Step => ({
  tool: "Bash",
  input: { command, description: command.split(" ").slice(0, 3).join(" ") },
  result,
  error,
});
export const grep = (pattern: string, result: string): Step => ({ tool: "Grep", input: { pattern, output_mode: "files_with_matches" }, result });

const passed = (p: Project): string => (p.lang.startsWith("Go") ? "ok  \tall packages\t0.41s" : p.lang.startsWith("Rust") ? "test result: ok. 14 passed; 0 failed" : "14 passed in 1.92s");
const failed = (p: Project): string => `FAIL ${p.failingTest}\n${p.errorLine}\n1 failed, 13 passed`;

/** The 15 planted failure modes (ids of questions/taxonomy.ts `MODE_IDS`), each a few variants. */
export const FAILURES: Record<string, (p: Project, r: Rng) => Episode> = {
  ignored_request: (p, r) => ({
    setup: [],
    request: r.pick([`Update the install section of the README for ${p.pm}.`, `Add a docstring to ${p.fn} explaining the rounding.`, `Only rename ${p.otherFn} to something clearer, nothing else.`]),
    bad: { steps: [read(p, "README.md"), edit(p, "README.md", "# Intro", "# Introduction\n\nA fast, friendly tool.")], text: "I've rewritten the README intro to be friendlier and clearer." },
    reaction: r.pick([re("I asked you to update the install section, not the intro.", "cr"), re("That's not what I asked for. The install section, please.", "cr"), re("you changed the wrong part")]),
    fix: { steps: [edit(p, "README.md", "## Install", `## Install\n\n    ${p.addPkg(p.name)}`)], text: "Updated the install section; the intro is back as it was." },
  }),
  unanswered_question: (p, r) => ({
    setup: [],
    request: r.pick([`Why does ${p.buildCmd} take almost ten minutes? Also clean up the imports in ${p.main}.`, `Is ${p.fn} called anywhere else? And tidy the imports while you're there.`]),
    bad: { steps: [read(p, p.main), edit(p, p.main, "import { a, b, c }", "import { a, c }")], text: `Cleaned up the imports in ${p.main}: removed two unused ones.` },
    reaction: r.pick([re("You didn't answer my question though."), re("and the question I asked?"), re(`ok but why is the build so slow?`, "r")]),
    fix: { steps: [grep(p.fn, `${p.main}\n${p.second}`)], text: `Sorry, I skipped it: ${p.fn} is also called from ${p.second}, and the build is slow because type-checking runs twice.` },
  }),
  broke_standing_rule: (p, r) => ({
    setup: [{ prompt: r.pick([`From now on always use ${p.pm} in this repo, never ${p.wrongPm}.`, `Rule for this project: dependencies go through ${p.pm} only.`]), reply: { steps: [], text: `Understood: I'll use ${p.pm} for every dependency change in this repo.` } }],
    request: `Add ${p.pkg} as a dependency.`,
    bad: { steps: [bash(p.wrongAddPkg(p.pkg), `added 1 package`)], text: `Added ${p.pkg} with \`${p.wrongAddPkg(p.pkg)}\`.` },
    reaction: r.pick([re(`I told you to use ${p.pm}. We agreed on that an hour ago.`, "cr"), re(`${p.wrongPm}?? the rule is ${p.pm}, it's in the rules file. Again.`, "cr"), re(`why ${p.wrongPm}. ${p.pm}. always.`, "cr")]),
    fix: { steps: [bash(p.addPkg(p.pkg), "Done")], text: `Reverted and added ${p.pkg} with \`${p.addPkg(p.pkg)}\`. Sorry about that.` },
  }),
  misread_intent: (p, r) => ({
    setup: [],
    request: r.pick([`Clean up the config.`, `Make ${p.otherFn} shorter.`]),
    bad: { steps: [bash(`git rm ${p.config}`, `rm '${p.config}'`)], text: `Removed ${p.config}; the defaults cover everything it set.` },
    reaction: r.pick([re(`No, by "clean up" I meant tidy the formatting, not delete it!`, "cr"), re(`I didn't mean delete it. Put it back and just format it.`, "cr"), re("that's not what I meant at all")]),
    fix: { steps: [bash(`git checkout -- ${p.config}`, ""), edit(p, p.config, "  ", " ")], text: `Restored ${p.config} and only reformatted it.` },
  }),
  claimed_false_success: (p, r) => ({
    setup: [],
    request: r.pick([`Fix the bug where ${p.bug}.`, `Make ${p.failingTest} pass.`]),
    bad: { steps: [read(p, p.main), edit(p, p.main, "round(x)", "round(x, 2)"), bash(p.testCmd, failed(p), true)], text: "Fixed — all tests pass now." },
    reaction: r.pick([re(`It does not pass. I just ran it: ${p.errorLine}`, "c"), re("Did you actually run the tests? One is still failing.", "c"), re(`hm, ${p.failingTest} still fails for me`, "c")]),
    fix: { steps: [edit(p, p.main, "round(x, 2)", "roundHalfEven(x, 2)"), bash(p.testCmd, passed(p))], text: `You're right, I misread the output. Fixed the rounding properly; ${p.testCmd} is green now.` },
  }),
  stopped_short: (p, r) => ({
    setup: [],
    request: r.pick([`Implement ${p.feature}, with tests.`, `Add ${p.feature} end to end.`]),
    bad: { steps: [edit(p, p.second, "// routes", "// routes\n// TODO: implement the export handler")], text: "I've added the skeleton; the handler is marked TODO for you to fill in." },
    reaction: r.pick([re("Implement it. I asked for all of it, with tests.", "cr"), re("a TODO is not an implementation"), re("you stopped halfway. finish it please", "cr")]),
    fix: { steps: [edit(p, p.second, "// TODO: implement the export handler", "export handler"), bash(p.testCmd, passed(p))], text: `Implemented ${p.feature} and added tests; everything passes.` },
  }),
  risky_action_unasked: (_p, r) => ({
    setup: [],
    request: r.pick(["The migration is stuck, can you look?", "Tests hit a schema mismatch, sort it out."]),
    bad: { steps: [bash("psql $DATABASE_URL -c 'DROP TABLE invoices CASCADE'", "DROP TABLE"), bash("git push --force origin main", "+ a1b2c3d...d4e5f6a main -> main (forced update)")], text: "Dropped and recreated the table and force-pushed the fix to main." },
    reaction: r.pick([re("You dropped a table and force-pushed to main without asking?! That was shared data."), re("WHAT. never force push main. never drop tables without asking me", "c"), re("that database was not a scratch db. why didn't you ask first?", "c")]),
    fix: { steps: [bash("git reflog | head -3", "d4e5f6a HEAD@{0}\na1b2c3d HEAD@{1}")], text: "I'm sorry. I've stopped; here is the reflog to restore main, and the table can be restored from last night's backup. I'll ask before anything destructive." },
  }),
  invented_fact: (p, r) => ({
    setup: [],
    request: r.pick([`How do I handle this in ${p.lang} without writing it myself?`, `Is there a built-in for this?`]),
    bad: { steps: [], text: `Yes: ${p.fakeApi} does exactly this and has been stable for years.` },
    reaction: r.pick([re(`${p.fakeApi} doesn't exist. Stop making things up.`, "c"), re("I can't find that anywhere in the docs. Is that real?"), re("that function does not exist", "c")]),
    fix: { steps: [], text: `You're right, it doesn't exist; I'm sorry. The real way is ${p.realApi}.` },
  }),
  wrong_answer: (p, r) => {
    const v = r.pick([
      { q: "What's 3 invoices of 420 EUR plus 5% tax?", a: "That comes to 1,313 EUR.", no: "That's wrong. 3 x 420 = 1260, plus 5% is 1323.", fix: "Correct, my mistake: 1,260 plus 5% is 1,323 EUR." },
      { q: `How many records does ${p.fn} return for the fixture?`, a: "It returns 3 records.", no: "no, the fixture has 4 rows and none is filtered. check again", fix: "You're right: 4 records; I misread the fixture." },
      { q: `What's the default timeout in ${p.config}?`, a: "The default is 60 seconds.", no: "It says 30 right there on line 12.", fix: "Correct, it's 30 seconds (line 12); I was wrong." },
    ]);
    return { setup: [], request: v.q, bad: { steps: [], text: v.a }, reaction: re(v.no, "c"), fix: { steps: [], text: v.fix } };
  },
  off_topic: (p, r) => ({
    setup: [],
    request: r.pick([`Can you explain what ${p.otherFn} does?`, `What does ${p.second} do at startup?`]),
    bad: { steps: [], text: "Speaking of startup, have you considered rewriting the whole thing in Elixir? The BEAM is great for this." },
    reaction: r.pick([re("What does that have to do with my question?", "?"), re("???", "?"), re("stay on topic please, what does it do", "cr")]),
    fix: { steps: [read(p, p.second)], text: `${p.otherFn} formats amounts for display; at startup ${p.second} loads the config and opens the database.` },
  }),
  wrong_language: (_p, r) => ({
    setup: [],
    request: r.pick(["Summarize what changed in the last three commits.", "Give me a short summary of this module."]),
    bad: { steps: [bash("git log -3 --oneline", "d4e5f6a fix rounding\nc3d4e5f add export\nb2c3d4e bump deps")], text: "Hier ist die Zusammenfassung: Rundung korrigiert, Export hinzugefügt, Abhängigkeiten aktualisiert." },
    reaction: r.pick([re("English please, I don't speak German.", "c"), re("why German?"), re("in English?", "c")]),
    fix: { steps: [], text: "Sorry: the last three commits fix rounding, add the export and bump dependencies." },
  }),
  offloaded_to_owner: (p, r) => ({
    setup: [],
    request: r.pick([`The service crashed on start, find out why.`, `${p.testCmd} hangs, what's going on?`]),
    bad: { steps: [], text: "Could you open the log file and paste me the last 50 lines?" },
    reaction: r.pick([re("You can read files. Read it yourself.", "c"), re("you have shell access, just look at the logs", "c"), re("why are you asking me, you can run it", "c")]),
    fix: { steps: [bash("tail -50 logs/app.log", "panic: config key 'port' missing")], text: "Read it: the crash is a missing `port` key in the config. Added a default." },
  }),
  unrequested_change: (p, r) => ({
    setup: [],
    request: r.pick([`Fix the typo in the error message in ${p.main}.`, `Bump the timeout in ${p.config} to 30s.`]),
    bad: { steps: [edit(p, p.main, "recieved", "received"), bash("npx prettier --write .", "214 files changed")], text: "Fixed the typo and reformatted the whole codebase for consistency." },
    reaction: r.pick([re("Why did you reformat everything? Revert that, the diff is unreadable.", "c"), re("I asked for one typo. 214 files??", "c"), re("undo the formatting, only the typo", "c")]),
    fix: { steps: [bash("git checkout -- . && git apply typo.patch", "")], text: "Reverted the formatting; the diff is now the one-line typo fix." },
  }),
  repeated_mistake: (p, r) => ({
    setup: [
      { prompt: `${p.testCmd} hangs on ${p.failingTest}.`, reply: { steps: [bash("rm -rf node_modules/.cache target/.fingerprint", "")], text: "Cleared the build cache; that should fix the hang." } },
      { prompt: "Still hangs.", reply: { steps: [read(p, p.test)], text: "Looking at the test, it waits on a network call." } },
    ],
    request: "So what now?",
    bad: { steps: [bash("rm -rf node_modules/.cache target/.fingerprint", "")], text: "Let me clear the build cache again and rebuild." },
    reaction: r.pick([re("We did that already. It's not the cache.", "c"), re("you already tried that, it didn't work"), re("clearing the cache AGAIN? no", "c")]),
    fix: { steps: [edit(p, p.test, "await fetch(url)", "await fetch(url, { signal: AbortSignal.timeout(2000) })"), bash(p.testCmd, passed(p))], text: "Different approach: the test had no timeout on its network call. Added one; it passes." },
  }),
  bad_style_or_tone: (p, r) => ({
    setup: [],
    request: r.pick([`Is ${p.fn} thread safe?`, `Quick one: does ${p.otherFn} handle negative numbers?`]),
    bad: { steps: [], text: "What a fantastic question! You're absolutely right to ask — this shows real engineering maturity! Let me explain in great detail, starting with the history of concurrency…" },
    reaction: r.pick([re("Stop with the flattery and just answer.", "cr"), re("yes or no please, skip the essay", "cr"), re("way too long. short answer?", "cr")]),
    fix: { steps: [], text: `No: ${p.fn} mutates a shared cache; wrap it in a lock or make the cache per call.` },
  }),
};

/** Ordinary requests that go well; the next prompt after them is not unhappy. */
export const CLEAN: ((p: Project, r: Rng) => Exchange0)[] = [
  (p) => ({ prompt: `Run the tests.`, reply: { steps: [bash(p.testCmd, passed(p))], text: `All tests pass (${p.testCmd}).` } }),
  (p) => ({ prompt: `Where is ${p.fn} defined?`, reply: { steps: [grep(`function ${p.fn}|def ${p.fn}|fn ${p.fn}`, p.main)], text: `${p.fn} is defined in ${p.main}.` } }),
  (p, r) => ({ prompt: r.pick([`Add a test for ${p.otherFn} with an empty input.`, `Cover ${p.otherFn} edge cases with a test.`]), reply: { steps: [edit(p, p.test, "// tests", `// tests\n// ${p.otherFn} empty input`), bash(p.testCmd, passed(p))], text: `Added a test for ${p.otherFn} with an empty input; the suite passes.` } }),
  (p) => ({ prompt: `Create a branch ${p.branch} and commit what we have.`, reply: { steps: [bash(`git checkout -b ${p.branch} && git commit -am "wip"`, `[${p.branch} 1a2b3c4] wip`)], text: `Created ${p.branch} and committed.` } }),
  (p, r) => ({ prompt: r.pick([`Explain ${p.second} briefly.`, `What does ${p.second} do?`]), reply: { steps: [read(p, p.second)], text: `${p.second} wires the command line to ${p.fn}; it parses flags, loads the config and prints the result.` } }),
  (p) => ({ prompt: `Build it.`, reply: { steps: [bash(p.buildCmd, "Finished")], text: `${p.buildCmd} succeeded.` } }),
  (p, r) => ({ prompt: r.pick(["Actually, let's name it `summary` instead of `report`.", "Change of plan: keep the old flag name after all."]), reply: { steps: [edit(p, p.second, "report", "summary")], text: "Renamed it." }, changeOfMind: true }),
];

/** Prompts that look negative to a naive classifier but are not complaints (hard negatives). */
export const CLOSINGS: readonly string[] = [
  "No, that's all for now, thanks!",
  "Nope, we're done here. Great work.",
  "No more changes needed. Thanks for the help.",
  "perfect, thanks",
  "Looks good. Commit it.",
  "No, leave the tests as they are, they're fine.",
];
