/**
 * The two failure taxonomies: the single-choice v3 classes (14) and the v4 failure modes (15,
 * several may be true of one exchange; each maps to exactly one v3 class).
 *
 * Designed from evidence, not copied from a private list:
 * - the modified Integrated Error Taxonomy and the user-response taxonomy of Petrak et al.
 *   (EMNLP 2023, UKP free-text feedback data, Apache-2.0): error types E1-E10 (ignore
 *   question, ignore request, ignore expectation, attribute error, factually incorrect, topic
 *   transition error, conversationality, unclear intention, lack of sociality, lack of common
 *   sense) and user responses UR1-UR5 (ignore and continue, repeat or rephrase, make aware
 *   without correction, make aware with correction, ask for clarification). In the annotated
 *   "checked" dialogs the error types seen are E1 (69 annotations), E6 (59), E8 (4), E3 (3),
 *   E4 (2), E9 (2); the user responses UR5 (86), UR4 (42), UR1 (6), UR3 (5);
 * - the failures people report about coding assistants: ignoring an instruction or a standing
 *   rule, claiming success that did not happen, stopping short, a destructive or risky action
 *   without asking, an invented fact, answering in the wrong language, making the owner do
 *   what the assistant could do, unrequested changes, repeating a fix that already failed.
 *
 * Ids are stable: helper C's synthetic generator plants one failure of every mode by id, and
 * answers, labels and cuts are keyed by them. Rename a display name freely; never an id.
 *
 * Example: `modeById.get("claimed_false_success")?.class_id` → `"false_success"`.
 */

/** An illustrative exchange: the end of the assistant's reply and the owner's next prompt. */
export interface TaxonomyExample {
  reply_end: string | null;
  prompt: string;
  note?: string | undefined;
}

export const CLASS_IDS = [
  "ignored_instruction",
  "broke_standing_rule",
  "misunderstood_intent",
  "false_success",
  "incomplete_work",
  "risky_action",
  "fabrication",
  "incorrect_output",
  "off_topic",
  "wrong_language",
  "offloaded_work",
  "scope_creep",
  "repeated_failure",
  "style_or_tone",
] as const;
export type ClassId = (typeof CLASS_IDS)[number];

export const MODE_IDS = [
  "ignored_request",
  "unanswered_question",
  "broke_standing_rule",
  "misread_intent",
  "claimed_false_success",
  "stopped_short",
  "risky_action_unasked",
  "invented_fact",
  "wrong_answer",
  "off_topic",
  "wrong_language",
  "offloaded_to_owner",
  "unrequested_change",
  "repeated_mistake",
  "bad_style_or_tone",
] as const;
export type ModeId = (typeof MODE_IDS)[number];

export interface FailureClass {
  id: ClassId;
  name: string;
  definition: string;
  example: TaxonomyExample;
  counterexample: TaxonomyExample;
  /** Where the class comes from: UKP error/response types and coding-assistant failure reports. */
  evidence: string[];
}

export interface FailureMode {
  id: ModeId;
  name: string;
  class_id: ClassId;
  definition: string;
  example: TaxonomyExample;
  counterexample: TaxonomyExample;
  evidence: string[];
}

export const classes: readonly FailureClass[] = [
  {
    id: "ignored_instruction",
    name: "Ignored the request",
    definition:
      "The reply does not do what the owner explicitly asked in the request it answers, or leaves a direct question unanswered.",
    example: {
      reply_end: "I've refactored the parser into three modules.",
      prompt: "I asked you to fix the failing test, not refactor the parser. Fix the test.",
    },
    counterexample: {
      reply_end: "The failing test now passes; the cause was an off-by-one in the tokenizer.",
      prompt: "Great, now refactor the parser into modules.",
      note: "A new request after the old one was done.",
    },
    evidence: ["UKP E1 Ignore Question", "UKP E2 Ignore Request", "UKP UR4 make aware with correction"],
  },
  {
    id: "broke_standing_rule",
    name: "Broke a standing rule",
    definition:
      "The reply violates a rule or preference the owner set earlier or keeps in standing instructions (a project rules file, an 'always'/'never' said before), not just the current request.",
    example: {
      reply_end: "Committed and pushed to main.",
      prompt: "I told you NEVER to push without asking me first. It's in CLAUDE.md.",
    },
    counterexample: {
      reply_end: "Committed and pushed to main.",
      prompt: "From now on, ask before pushing.",
      note: "A new rule is being set; nothing shows an earlier one was broken.",
    },
    evidence: ["coding assistants: ignoring a standing rule or CLAUDE.md", "UKP E3 Ignore Expectation"],
  },
  {
    id: "misunderstood_intent",
    name: "Misunderstood the intent",
    definition:
      "The assistant tried to do what was asked but read the request wrongly: the wrong target, the wrong meaning of an ambiguous word, an expectation the owner reasonably held.",
    example: {
      reply_end: "I've deleted the staging config as requested.",
      prompt: "No, by 'clean up the config' I meant tidy the formatting, not delete it.",
    },
    counterexample: {
      reply_end: "I've tidied the formatting of the staging config.",
      prompt: "Thanks. Also bump the timeout to 30s.",
    },
    evidence: ["UKP E8 Unclear Intention", "UKP E3 Ignore Expectation", "UKP UR5 ask for clarification"],
  },
  {
    id: "false_success",
    name: "Claimed success that did not happen",
    definition:
      "The reply states that something is done, fixed, tested or passing when it is not, or reports results it did not obtain.",
    example: {
      reply_end: "All tests pass now. ✅",
      prompt: "They don't. I just ran npm test and 4 fail. Did you even run them?",
    },
    counterexample: {
      reply_end: "I couldn't run the tests because the database is down.",
      prompt: "OK, I'll start the database.",
      note: "The assistant was honest about what it could not do.",
    },
    evidence: ["coding assistants: claiming success that did not happen", "UKP E5 Factually Incorrect (about its own work)"],
  },
  {
    id: "incomplete_work",
    name: "Stopped short",
    definition:
      "The assistant did part of the job and stopped, left placeholders or TODOs, or handed back a plan where the work itself was asked for.",
    example: {
      reply_end: "I've updated the first two files; the rest follow the same pattern.",
      prompt: "Do the rest too, all 12 files. Don't stop halfway.",
    },
    counterexample: {
      reply_end: "Updated all 12 files; the build passes.",
      prompt: "Now write a changelog entry.",
    },
    evidence: ["coding assistants: stopping short, TODO placeholders", "UKP UR2 repeat or rephrase"],
  },
  {
    id: "risky_action",
    name: "Risky action without asking",
    definition:
      "The assistant took a destructive, irreversible or risky action (deleting data, force-pushing, dropping tables, spending money, touching production) without the owner's go-ahead.",
    example: {
      reply_end: "Ran git reset --hard to clean the tree.",
      prompt: "WHAT? I had uncommitted work in there! Never do that without asking.",
    },
    counterexample: {
      reply_end: "This would need git reset --hard, which discards your uncommitted work. Shall I?",
      prompt: "No, stash it first.",
      note: "It asked first; the owner declining is not a failure.",
    },
    evidence: ["coding assistants: destructive or risky action without asking"],
  },
  {
    id: "fabrication",
    name: "Invented a fact",
    definition:
      "The reply asserts something invented: an API, flag, file, function, citation, version or fact that does not exist or was never checked.",
    example: {
      reply_end: "Use the --auto-migrate flag of prisma deploy.",
      prompt: "There is no --auto-migrate flag. You made that up.",
    },
    counterexample: {
      reply_end: "I'm not sure that flag exists; let me check the docs.",
      prompt: "Good, check it.",
    },
    evidence: ["UKP E5 Factually Incorrect", "UKP E4 Attribute Error", "coding assistants: invented APIs and files"],
  },
  {
    id: "incorrect_output",
    name: "Wrong result",
    definition:
      "The work or answer is wrong in substance (code that does not work, a broken change, a miscalculation, a lack of common sense) without being an invention or a false claim of success.",
    example: {
      reply_end: "Here is the fixed date parser.",
      prompt: "It still parses 03/04 as March 4th for UK dates, that's wrong.",
    },
    counterexample: {
      reply_end: "Here is the fixed date parser.",
      prompt: "Works. Can you add tests for it?",
    },
    evidence: ["UKP E10 Lack of Common Sense", "UKP E5 Factually Incorrect", "coding assistants: regressions"],
  },
  {
    id: "off_topic",
    name: "Off topic",
    definition:
      "The reply answers something else: it changes the subject, talks about an unrelated file or topic, or makes no sense in context.",
    example: {
      reply_end: "Allergies can sometimes be annoying when it comes to cooking.",
      prompt: "What are you talking about? I asked about the weekend.",
    },
    counterexample: {
      reply_end: "The weekend forecast is sunny.",
      prompt: "Nice. What about Monday?",
    },
    evidence: ["UKP E6 Topic Transition Error (59 annotations)", "UKP E1 Ignore Question", "UKP UR5 ask for clarification (86)"],
  },
  {
    id: "wrong_language",
    name: "Wrong language",
    definition:
      "The reply is in a language other than the one the owner writes in or asked for (natural language, or the wrong programming language).",
    example: {
      reply_end: "Voici la fonction corrigée.",
      prompt: "Why French? Answer in English please.",
    },
    counterexample: {
      reply_end: "Voici la fonction corrigée.",
      prompt: "Merci, et maintenant les tests.",
      note: "The owner writes French; French is right.",
    },
    evidence: ["coding assistants: answering in the wrong language"],
  },
  {
    id: "offloaded_work",
    name: "Made the owner do it",
    definition:
      "The assistant told the owner to do something it could have done itself (run a command, edit a file, look something up) or asked a question it could have answered itself.",
    example: {
      reply_end: "Please run `npm install` and paste the output here.",
      prompt: "You have a shell. Run it yourself.",
    },
    counterexample: {
      reply_end: "Please enter your 2FA code; I can't read your phone.",
      prompt: "123456",
      note: "Only the owner could do that.",
    },
    evidence: ["coding assistants: making the owner do what the assistant could do"],
  },
  {
    id: "scope_creep",
    name: "Unrequested change",
    definition:
      "The assistant did more than asked: changed files, behaviour, style or dependencies nobody requested.",
    example: {
      reply_end: "Fixed the typo, and also migrated the project to ESM and renamed the folders.",
      prompt: "I only asked for the typo. Undo the rest.",
    },
    counterexample: {
      reply_end: "Fixed the typo. I noticed the imports could move to ESM; want me to?",
      prompt: "Not now.",
      note: "It offered instead of doing.",
    },
    evidence: ["coding assistants: unrequested refactors and edits", "UKP E3 Ignore Expectation"],
  },
  {
    id: "repeated_failure",
    name: "Repeated a failed attempt",
    definition:
      "The assistant repeats a mistake, an approach or a fix that already failed or was already rejected in this conversation.",
    example: {
      reply_end: "Let's try increasing the timeout again.",
      prompt: "That's the third time you've suggested the timeout. It didn't work. Try something else.",
    },
    counterexample: {
      reply_end: "Increasing the timeout didn't help, so I profiled the query instead.",
      prompt: "Good, what did the profile show?",
    },
    evidence: ["UKP E7 Conversationality (repetition)", "UKP UR2 repeat or rephrase", "coding assistants: loops"],
  },
  {
    id: "style_or_tone",
    name: "Style or tone",
    definition:
      "The content may be fine but the form is wrong: rude, sycophantic, preachy, far too long, the wrong format, or ignoring social cues.",
    example: {
      reply_end: "You're absolutely right! Great question! Here's a 2,000-word essay…",
      prompt: "Stop flattering me and keep it short. One line.",
    },
    counterexample: {
      reply_end: "Done: renamed in 3 files.",
      prompt: "Thanks.",
    },
    evidence: ["UKP E9 Lack of Sociality", "UKP E7 Conversationality"],
  },
];

export const modes: readonly FailureMode[] = [
  {
    id: "ignored_request",
    name: "Ignored an explicit request",
    class_id: "ignored_instruction",
    definition: "The reply does not carry out an explicit instruction in the request it answers.",
    example: {
      reply_end: "I've rewritten the README intro.",
      prompt: "I asked you to update the install section, not the intro.",
    },
    counterexample: {
      reply_end: "Updated the install section.",
      prompt: "Thanks, now the intro too.",
    },
    evidence: ["UKP E2 Ignore Request"],
  },
  {
    id: "unanswered_question",
    name: "Left a question unanswered",
    class_id: "ignored_instruction",
    definition: "The owner asked a direct question and the reply does not answer it.",
    example: {
      reply_end: "I've also cleaned up the imports.",
      prompt: "You didn't answer my question: why does the build take 10 minutes?",
    },
    counterexample: {
      reply_end: "The build is slow because type-checking runs twice.",
      prompt: "Can you make it run once?",
    },
    evidence: ["UKP E1 Ignore Question (69 annotations)"],
  },
  {
    id: "broke_standing_rule",
    name: "Broke a standing rule",
    class_id: "broke_standing_rule",
    definition: "The reply violates a rule the owner set before this request (standing instructions or an earlier 'always'/'never').",
    example: {
      reply_end: "I used npm to add the package.",
      prompt: "We use pnpm in this repo, it's in the rules file. Again.",
    },
    counterexample: {
      reply_end: "I used npm to add the package.",
      prompt: "Fine. Now run the tests.",
    },
    evidence: ["coding assistants: ignoring a standing rule"],
  },
  {
    id: "misread_intent",
    name: "Misread what was meant",
    class_id: "misunderstood_intent",
    definition: "The assistant acted on a wrong reading of the request (wrong target, wrong sense of a word, missed an obvious expectation).",
    example: {
      reply_end: "Renamed the variable `user` to `customer` everywhere.",
      prompt: "I meant only in the billing module, not everywhere.",
    },
    counterexample: {
      reply_end: "Renamed `user` to `customer` in the billing module.",
      prompt: "Perfect.",
    },
    evidence: ["UKP E8 Unclear Intention", "UKP UR5 ask for clarification"],
  },
  {
    id: "claimed_false_success",
    name: "Claimed success that did not happen",
    class_id: "false_success",
    definition: "The reply says something is done, fixed, verified or passing when it is not.",
    example: {
      reply_end: "Deployed and verified — the site is live.",
      prompt: "It's not live, I get a 502. Did you actually check?",
    },
    counterexample: {
      reply_end: "Deployed; I could not verify because the health check timed out.",
      prompt: "I'll check it myself.",
    },
    evidence: ["coding assistants: claiming success that did not happen"],
  },
  {
    id: "stopped_short",
    name: "Stopped short",
    class_id: "incomplete_work",
    definition: "The assistant did part of the job and stopped, left placeholders, or returned a plan instead of the work.",
    example: {
      reply_end: "// TODO: implement the remaining handlers",
      prompt: "Implement them. I asked for all of it.",
    },
    counterexample: {
      reply_end: "All handlers are implemented and tested.",
      prompt: "Nice, open a PR.",
    },
    evidence: ["coding assistants: stopping short"],
  },
  {
    id: "risky_action_unasked",
    name: "Risky action without asking",
    class_id: "risky_action",
    definition: "The assistant did something destructive, irreversible or risky without the owner's go-ahead.",
    example: {
      reply_end: "Dropped and recreated the users table to fix the schema.",
      prompt: "That was the production database!! You can't just drop tables.",
    },
    counterexample: {
      reply_end: "Dropped and recreated the users table in the local test database, as you asked.",
      prompt: "Good, rerun the migration.",
    },
    evidence: ["coding assistants: destructive action without asking"],
  },
  {
    id: "invented_fact",
    name: "Invented a fact",
    class_id: "fabrication",
    definition: "The reply states as true something invented: an API, option, file, citation, number or event.",
    example: {
      reply_end: "As the pandas docs say, DataFrame.smart_merge() handles this.",
      prompt: "smart_merge doesn't exist. Stop making things up.",
    },
    counterexample: {
      reply_end: "DataFrame.merge() with how='outer' handles this.",
      prompt: "Thanks, that worked.",
    },
    evidence: ["UKP E5 Factually Incorrect", "UKP E4 Attribute Error"],
  },
  {
    id: "wrong_answer",
    name: "Wrong result",
    class_id: "incorrect_output",
    definition: "The answer or the work is wrong in substance: broken code, a regression, a miscalculation, a lack of common sense.",
    example: {
      reply_end: "The total is 1,240 EUR.",
      prompt: "That's wrong, 3 x 420 is 1,260.",
    },
    counterexample: {
      reply_end: "The total is 1,260 EUR.",
      prompt: "Great, send the invoice.",
    },
    evidence: ["UKP E10 Lack of Common Sense", "UKP UR4 make aware with correction (42)"],
  },
  {
    id: "off_topic",
    name: "Off topic or incoherent",
    class_id: "off_topic",
    definition: "The reply talks about something other than what the owner was discussing, or makes no sense in context.",
    example: {
      reply_end: "Do you ride on him then?",
      prompt: "What do you mean?",
    },
    counterexample: {
      reply_end: "Do you ride your horse often?",
      prompt: "Every weekend.",
    },
    evidence: ["UKP E6 Topic Transition Error (59)", "UKP UR5 ask for clarification (86)"],
  },
  {
    id: "wrong_language",
    name: "Wrong language",
    class_id: "wrong_language",
    definition: "The reply is in a natural or programming language other than the one the owner uses or asked for.",
    example: {
      reply_end: "Hier ist die Zusammenfassung.",
      prompt: "English please, I don't speak German.",
    },
    counterexample: {
      reply_end: "Here is the summary.",
      prompt: "Now translate it into German.",
      note: "A request for German, not a complaint.",
    },
    evidence: ["coding assistants: answering in the wrong language"],
  },
  {
    id: "offloaded_to_owner",
    name: "Made the owner do it",
    class_id: "offloaded_work",
    definition: "The reply asks the owner to do something the assistant could have done itself.",
    example: {
      reply_end: "Could you open the log file and tell me what it says?",
      prompt: "You can read files. Read it yourself.",
    },
    counterexample: {
      reply_end: "I need your API key to continue; paste it into .env.",
      prompt: "Done.",
    },
    evidence: ["coding assistants: making the owner do what the assistant could do"],
  },
  {
    id: "unrequested_change",
    name: "Unrequested change",
    class_id: "scope_creep",
    definition: "The assistant changed things nobody asked it to change.",
    example: {
      reply_end: "Fixed the bug and reformatted the whole codebase with prettier.",
      prompt: "Why did you reformat everything? Revert that, the diff is unreadable.",
    },
    counterexample: {
      reply_end: "Fixed the bug; the diff is 3 lines.",
      prompt: "Merge it.",
    },
    evidence: ["coding assistants: unrequested edits"],
  },
  {
    id: "repeated_mistake",
    name: "Repeated a failed attempt",
    class_id: "repeated_failure",
    definition: "The reply repeats a mistake or an approach that already failed or was rejected earlier in the conversation.",
    example: {
      reply_end: "Let's add `await` before the call.",
      prompt: "You already tried that twice. It still hangs.",
    },
    counterexample: {
      reply_end: "Adding await didn't fix it, so I looked at the event loop instead.",
      prompt: "OK, what did you find?",
    },
    evidence: ["UKP UR2 repeat or rephrase", "UKP E7 Conversationality"],
  },
  {
    id: "bad_style_or_tone",
    name: "Bad style or tone",
    class_id: "style_or_tone",
    definition: "The form of the reply is wrong: rude, sycophantic, preachy, far too long, or the wrong format.",
    example: {
      reply_end: "That's just so rude of you to say.",
      prompt: "Excuse me? I only asked a question.",
    },
    counterexample: {
      reply_end: "Sorry, I misread that. Here's the answer.",
      prompt: "Thanks.",
    },
    evidence: ["UKP E9 Lack of Sociality"],
  },
];

export const classById: ReadonlyMap<ClassId, FailureClass> = new Map(classes.map((c) => [c.id, c]));
export const modeById: ReadonlyMap<ModeId, FailureMode> = new Map(modes.map((m) => [m.id, m]));

export function isClassId(s: string): s is ClassId {
  return (CLASS_IDS as readonly string[]).includes(s);
}
export function isModeId(s: string): s is ModeId {
  return (MODE_IDS as readonly string[]).includes(s);
}
