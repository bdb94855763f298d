import type { Question } from "../schemas/question.js";
import { type ModeId, modes, type TaxonomyExample } from "./taxonomy.js";

/**
 * Mode: one yes/no question per v4 failure mode (several may be true of one failure). Each
 * question's id is `mode.<mode id>` and `maps_to_class` is the mode's v3 class. The first
 * positive and negative examples are the taxonomy's example and counterexample; the second
 * come from the table below.
 *
 * Example: `modeQuestions.find(q => q.id === "mode.stopped_short")?.maps_to_class` →
 * `"incomplete_work"`.
 */

interface ModeWording {
  text: string;
  guidance: string;
  positive: TaxonomyExample;
  negative: TaxonomyExample;
}

const wording: Record<ModeId, ModeWording> = {
  ignored_request: {
    text: "Did the assistant's reply fail to carry out an explicit instruction the person gave in the request it was answering?",
    guidance: "Compare the reply with the previous ask. Yes when a clear instruction was skipped or replaced with something else. No when it was done, or the person is asking something new.",
    positive: { reply_end: "Here's a summary of the article.", prompt: "I asked for three bullet points, not a paragraph." },
    negative: { reply_end: "Here are the three bullet points.", prompt: "Make the second one shorter." },
  },
  unanswered_question: {
    text: "Did the person ask a direct question that the assistant's reply did not answer?",
    guidance: "Yes when the previous ask contained a question and the reply skipped or dodged it (UKP 'ignore question'). No when the question was answered, even if the person dislikes the answer.",
    positive: { reply_end: "Here's the updated config.", prompt: "And my question? Is it safe to run on prod?" },
    negative: { reply_end: "No, it's not safe on prod: it drops the cache.", prompt: "OK, run it on staging then." },
  },
  broke_standing_rule: {
    text: "Did the assistant break a rule or preference the person had set before this request (standing instructions, a rules file, an earlier 'always' or 'never')?",
    guidance: "Yes only when the prompt or context shows the rule existed before the reply ('I told you', 'it's in CLAUDE.md', 'as always'). A rule stated for the first time now is not broken.",
    positive: { reply_end: "I added emojis to the commit message 🎉.", prompt: "No emojis in commits, that's in the rules. Every time." },
    negative: { reply_end: "I added emojis to the commit message 🎉.", prompt: "Cute. Let's keep commits plain from now on." },
  },
  misread_intent: {
    text: "Did the assistant act on a wrong reading of what the person meant?",
    guidance: "Yes when the assistant tried to do the request but understood it wrongly: wrong target, wrong sense of a word, a missed obvious expectation. No when it understood and simply did it badly (that is a wrong result) or skipped it.",
    positive: { reply_end: "Booked a table for tomorrow at 7.", prompt: "I meant 7 in the morning, a breakfast place." },
    negative: { reply_end: "Booked a breakfast table for 7am tomorrow.", prompt: "Great, thanks." },
  },
  claimed_false_success: {
    text: "Did the assistant claim that something was done, fixed, tested or working when it was not?",
    guidance: "Yes when the reply asserts success or verification and the prompt shows it did not happen. No when the assistant reported honestly that it failed or could not check.",
    positive: { reply_end: "I've run the migration successfully.", prompt: "The table isn't there. You never ran it." },
    negative: { reply_end: "The migration failed with a lock timeout.", prompt: "Retry it at night then." },
  },
  stopped_short: {
    text: "Did the assistant do only part of the job, leave placeholders, or stop before finishing what was asked?",
    guidance: "Yes for partial work, TODOs, 'the rest is similar', or a plan where the work was requested. No when the work was complete, even if imperfect.",
    positive: { reply_end: "I translated the first section; the others follow the same way.", prompt: "Translate ALL sections please." },
    negative: { reply_end: "All five sections are translated.", prompt: "Thanks. Now proofread them." },
  },
  risky_action_unasked: {
    text: "Did the assistant take a destructive, irreversible or risky action without the person's go-ahead?",
    guidance: "Yes for deleting, overwriting, force-pushing, dropping, spending, sending or touching production without permission. No when the person had asked for it or the assistant asked first.",
    positive: { reply_end: "Force-pushed the rebased branch.", prompt: "You force-pushed over my colleague's commits?!" },
    negative: { reply_end: "Shall I force-push? It will overwrite the remote branch.", prompt: "No, open a new branch." },
  },
  invented_fact: {
    text: "Did the assistant state as true something it made up: an API, option, file, citation, number or event that does not exist?",
    guidance: "Yes when the prompt shows the claimed thing does not exist or was never checked. No for a real thing used wrongly (a wrong result) or a hedged guess.",
    positive: { reply_end: "See src/utils/retry.ts, which already handles this.", prompt: "There is no retry.ts in this repo." },
    negative: { reply_end: "I couldn't find a retry helper; shall I write one?", prompt: "Yes please." },
  },
  wrong_answer: {
    text: "Was the assistant's answer or work wrong in substance: broken code, a regression, a miscalculation, a lack of common sense?",
    guidance: "Yes when the content is wrong (not invented, not a false claim of success): code that fails, a broken feature, a wrong figure. No when it was right and the person wants something else.",
    positive: { reply_end: "Fixed the login bug.", prompt: "Now signup is broken. Your change broke it." },
    negative: { reply_end: "Fixed the login bug.", prompt: "Works. Now the signup page." },
  },
  off_topic: {
    text: "Did the assistant's reply talk about something other than what the person was discussing, or make no sense in context?",
    guidance: "Yes for a sudden change of topic, an unrelated answer, or a reply that does not follow (UKP 'topic transition error'). No when the reply is on topic, even if wrong.",
    positive: { reply_end: "i just watch but i will send them some vibes to leave my new friend alone", prompt: "sorry?" },
    negative: { reply_end: "I don't play in a band, but I sing in a choir.", prompt: "Cool, what do you sing?" },
  },
  wrong_language: {
    text: "Did the assistant answer in a different language (natural or programming) from the one the person uses or asked for?",
    guidance: "Yes when the language itself is the problem. No when the person asked for that language, or writes in it themselves.",
    positive: { reply_end: "Here it is in Python.", prompt: "This is a Go project. I need Go." },
    negative: { reply_end: "Here it is in Go.", prompt: "Now add a test." },
  },
  offloaded_to_owner: {
    text: "Did the assistant ask the person to do something the assistant could have done itself?",
    guidance: "Yes when the assistant had the means (shell, files, search) but handed the step to the person. No when only the person could do it (credentials, physical actions, decisions).",
    positive: { reply_end: "You can check the version by running node -v.", prompt: "Just run it, you have a terminal." },
    negative: { reply_end: "Which of the two designs do you prefer?", prompt: "The second one." },
  },
  unrequested_change: {
    text: "Did the assistant change things nobody asked it to change?",
    guidance: "Yes for edits, refactors, renames, dependency or behaviour changes beyond the request. No for changes needed to do the request, or changes it only offered.",
    positive: { reply_end: "Updated the button colour and upgraded React to 19.", prompt: "Why did you upgrade React? I only wanted the colour." },
    negative: { reply_end: "Updated the button colour.", prompt: "Nice." },
  },
  repeated_mistake: {
    text: "Did the assistant repeat a mistake or an approach that had already failed or been rejected in this conversation?",
    guidance: "Yes when the prompt points out the same thing was tried or said before ('again', 'you already tried that'). No for the first occurrence of a mistake.",
    positive: { reply_end: "Let me clear the cache and rebuild.", prompt: "We did that already, twice. It's not the cache." },
    negative: { reply_end: "Clearing the cache didn't help, so I checked the lockfile.", prompt: "And?" },
  },
  bad_style_or_tone: {
    text: "Was the form of the assistant's reply the problem: rude, sycophantic, preachy, far too long, or the wrong format?",
    guidance: "Yes when the person objects to how the reply was said rather than what it said. No when the form was fine and the content was the problem.",
    positive: { reply_end: "Great question! You're absolutely right! Let me explain in detail…", prompt: "Stop with the flattery and just answer." },
    negative: { reply_end: "The bug is on line 12.", prompt: "Fix it." },
  },
};

export const modeQuestions: readonly Question[] = modes.map((m) => {
  const w = wording[m.id];
  return {
    id: `mode.${m.id}`,
    version: 1,
    group: "mode" as const,
    text: w.text,
    guidance: `${m.name}: ${m.definition} ${w.guidance}`,
    positive: [m.example, w.positive],
    negative: [m.counterexample, w.negative],
    maps_to_class: m.class_id,
  };
});
