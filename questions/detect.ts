import type { Question } from "../schemas/question.js";

/**
 * Detect: is the owner reacting to something that went wrong in the assistant's previous
 * turn? Corpus dissatisfaction labels (rating <= 2, DBDC3 breakdown, ConTurE dislike) map
 * onto `detect.unhappy`; the other three are the UKP user-response types made askable
 * (UR4 correction, UR2 repeat or rephrase, UR5 clarification).
 *
 * Example: `detectQuestions[0].id` → `"detect.unhappy"`.
 */
export const detectQuestions: readonly Question[] = [
  {
    id: "detect.unhappy",
    version: 1,
    group: "detect",
    text: "Is the person unhappy with the assistant's previous reply or what the assistant just did?",
    guidance:
      "Answer yes when the prompt shows displeasure with the assistant's last turn: a complaint, a correction, annoyance, sarcasm, a curt 'no', or a request to undo. " +
      "Read it against the reply before it: 'What about colleges?' after 'there are no parks in the west' can be mild dissatisfaction. " +
      "Answer no for displeasure about the topic itself ('that movie was awful'), a polite closing ('No, we're done, thanks'), or a new request after a good reply.",
    positive: [
      { reply_end: "All tests pass now.", prompt: "No they don't. Stop saying that." },
      { reply_end: "How about the Italian place on 5th?", prompt: "Oh, that won't work. I need it to be cheap." },
      { reply_end: "do you ride on him then", prompt: "what do you mean?", note: "UKP: topic transition error, user asks for clarification." },
    ],
    negative: [
      { reply_end: "Anything else I can help with?", prompt: "No, we are done here. Thanks!", note: "A polite closing, not a complaint." },
      { reply_end: "Saw is a horror film from 2004.", prompt: "I watched it, that movie was awful.", note: "Unhappy with the film, not the assistant." },
      { reply_end: "Renamed the function in 4 files.", prompt: "Great. Now update the docs." },
    ],
  },
  {
    id: "detect.correction",
    version: 1,
    group: "detect",
    text: "Is the person correcting, redirecting or undoing what the assistant just said or did?",
    guidance:
      "Yes when the prompt says the reply was wrong or off and supplies the right thing, or tells the assistant to revert or take another path because of its last turn. " +
      "No when the person changes their own plan without any sign the assistant erred, or simply continues.",
    positive: [
      { reply_end: "The meeting is at 3pm.", prompt: "It's at 2pm, not 3." },
      { reply_end: "I switched the project to yarn.", prompt: "Revert that, we use npm." },
    ],
    negative: [
      { reply_end: "Booked a table for 7pm.", prompt: "Thanks! Can you also find a taxi?" },
      { reply_end: "Here is the draft email.", prompt: "Looks good, send it." },
    ],
  },
  {
    id: "detect.repeat",
    version: 1,
    group: "detect",
    text: "Is the person repeating or rephrasing something they already asked because the assistant did not do it?",
    guidance:
      "Yes when the prompt restates an earlier request or question (same intent, maybe new words or more emphasis) because the last reply missed it. Compare with the previous ask. " +
      "No for a genuinely new request, or for a follow-up that builds on a good reply.",
    positive: [
      { reply_end: "I've updated the header styles.", prompt: "AGAIN: fix the footer. The footer." },
      { reply_end: "There are many kinds of pasta.", prompt: "I asked which pasta goes with pesto. Which one?" },
    ],
    negative: [
      { reply_end: "The footer is fixed.", prompt: "Now fix the header too." },
      { reply_end: null, prompt: "Can you fix the footer?", note: "The first prompt of a session cannot repeat anything." },
    ],
  },
  {
    id: "detect.confused",
    version: 1,
    group: "detect",
    text: "Is the person confused by the assistant's previous reply, asking what it meant or why it said that?",
    guidance:
      "Yes when the prompt signals that the reply made no sense or was unclear ('what do you mean?', 'what are you talking about?', 'huh?'). " +
      "No for a clarification question about the person's own topic that does not question the reply.",
    positive: [
      { reply_end: "allergies can sometimes be annoying when it comes to cooking", prompt: "what are you talking about?" },
      { reply_end: "That's just so rude of you to say.", prompt: "what do you mean?" },
    ],
    negative: [
      { reply_end: "The train leaves at 9:40 from platform 3.", prompt: "Which platform does the return train use?" },
      { reply_end: "I added retry logic with exponential backoff.", prompt: "What's the maximum delay?" },
    ],
  },
];
