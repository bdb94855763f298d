import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classify, unhappyWithReply } from "../../runtime/classifier/classify.js";
import { expandPattern } from "../../runtime/classifier/compile.js";
import { checkLangData, LANGUAGE_CODES, languages, readLangFile } from "../../runtime/classifier/lang-data.js";
import { LANG_FILES } from "../../runtime/classifier/lang-files.js";
import { loadIndex } from "../../runtime/classifier/index-file.js";
import { freshIndex } from "../../runtime/classifier/index-write.js";
import { capturingGroups, expandPattern as expand } from "../../runtime/classifier/compile.js";
import { replyShape } from "../../runtime/classifier/reply-shape.js";

const LANGUAGES = languages();
const STATEMENT = "I've updated the config loader and the tests pass now.";
const OFFER = "Done. Want me to commit these changes?";
const MENU = "Two ways to fix it:\n1. Patch the parser\n2. Rewrite the tokenizer\nWhich do you prefer?";
const v = (text: string, previousReply: string | null = STATEMENT) => classify(text, { previousReply });

describe("ratings", () => {
  it.each([
    ["8/10", 8],
    ["8 / 10", 8],
    ["Rating: 7/10, close but the docs are thin", 7],
    ["seven out of ten", 7],
    ["works now, 9/10", 9],
    ["7.5/10", 7.5],
    ["I'd give it a 6", 6],
    ["score: 4", 4],
    ["10/10 would merge again", 10],
  ])("%j is rating %d", (text, rating) => {
    expect(v(text)).toMatchObject({ kind: "rating", rating });
  });

  it.each([
    "1 go",
    "1 commit and push",
    "2 tickets for later today.",
    "One of my favorite movies is Inception.",
    "3 files changed",
    "1. Fix the bug\n2. Add a test",
    "10:30",
    "meet at 10:30 tomorrow",
    "bump it to 2.1.9",
    "step 3/10 is failing",
    "3/10 tests pass",
    "due 5/10/2024",
    "0/10",
    "11/10",
    "it's a 2 step process",
  ])("trap %j is not a rating", (text) => {
    const r = v(text);
    expect(r.kind).not.toBe("rating");
    expect(r.rating).toBeNull();
  });

  it("a bare number is a rating only after a reply that asked for one", () => {
    const ASK = "Done. How would you rate this answer from 1 to 10?";
    expect(v("7", ASK)).toMatchObject({ kind: "rating", rating: 7, signals: ["rating.bare_after_request"] });
    expect(v("Eight.", ASK)).toMatchObject({ kind: "rating", rating: 8 });
    expect(v("7")).toMatchObject({ kind: "none", rating: null, signals: ["rating.bare_no_context"] });
    expect(v("2", MENU)).toMatchObject({ kind: "none", rating: null, signals: ["rating.menu_pick"] });
    expect(v("2", "How many retries should I allow?")).toMatchObject({ kind: "none", signals: ["rating.answer_to_question"] });
    expect(v("2", null)).toMatchObject({ kind: "none", signals: ["rating.bare_unverified"] });
    // A real reply that listed choices and ended on a statement (m-claude session).
    const listed = "**Would you like to:**\n1. **Push to GitHub**\n2. **Clean up temp files**\n3. **Review the commit**\n\nThe repo is now cycled with a signed commit!";
    expect(v("1", listed).kind).toBe("none");
  });
});

describe("corrections", () => {
  it.each([
    "no, that's wrong",
    "That's not what I asked for",
    "not what I asked",
    "I already told you to use pnpm",
    "still broken",
    "it still doesn't compile",
    "undo that",
    "revert your last change",
    "put it back the way it was",
    "you deleted my tests!",
    "you edited the wrong file",
    "that doesn't work",
    "why did you change the API?",
    "Are you sure? The docs say otherwise.",
    "No, I said the staging branch",
    "no no no",
  ])("%j is a correction", (text) => {
    expect(v(text).kind).toBe("correction");
  });

  it.each(["No, we are done here.", "Nope, thanks for all your help.", "No thanks", "No problem!", "no worries", "Nope, that should be it.", "No, you have been very helpful."])(
    "polite closing %j is not a correction",
    (text) => {
      expect(v(text).kind).not.toBe("correction");
    },
  );

  it("a bare 'No.' is a correction after a statement or a check, an answer after an offer, unknown without a reply", () => {
    expect(v("No.").kind).toBe("correction");
    expect(v("No.", "I moved it to utils/. Is that right?").kind).toBe("correction");
    expect(v("No.", OFFER)).toMatchObject({ kind: "none" });
    expect(v("No.", OFFER).signals).toContain("context.answer_to_question");
    expect(v("No.", null)).toMatchObject({ kind: "none", signals: ["context.no_reply"] });
  });

  it("a 'no' that turns down an offer marks the offer as missed without writing a correction", () => {
    const r = v("No, just push it to the branch", OFFER);
    expect(r.kind).toBe("none");
    expect(r.signals).toContain("unhappy.en.declined_offer");
    expect(unhappyWithReply(r)).toBe(true);
  });

  it.each(["what's wrong with this regex?", "if it doesn't work, try the other flag", "is it wrong to use a singleton here?", "add a test for the parser", "Did you remove the temp folder?"])(
    "%j is not a correction",
    (text) => {
      expect(v(text).kind).toBe("none");
    },
  );

  it("text about the topic is not about the assistant", () => {
    expect(v("that movie was awful").kind).toBe("none");
  });
});

describe("directives and praise", () => {
  it.each(["From now on, always run the linter.", "Always use pnpm in this repo.", "Never commit without signing.", "going forward use tabs", "please remember that I use fish"])(
    "%j is a directive",
    (text) => expect(v(text).kind).toBe("directive"),
  );
  it.each(["Never seen it", "never mind", "Always the same error with this lib"])("%j is not a directive", (text) => {
    expect(v(text).kind).not.toBe("directive");
  });
  it.each(["Great job!", "perfect, thanks", "That's exactly what I wanted.", "works perfectly now, thank you!", "lgtm"])("%j is praise", (text) => {
    expect(v(text)).toMatchObject({ kind: "praise", rating: null });
  });
  it("thanks alone is politeness, not praise", () => {
    expect(v("thanks").kind).toBe("none");
  });
  it("a correction outranks praise; a rating outranks both", () => {
    expect(v("Great, but the tests still fail").kind).toBe("correction");
    expect(v("3/10, still broken")).toMatchObject({ kind: "rating", rating: 3 });
  });
});

describe("statements about the person, not about the reply", () => {
  const TASTES = "What kind of movies do you like?";
  const SUGGESTION = "You might like \"Alien (1979)\". It is a classic.";
  it("a dislike is about the reply when its object is the reply's (an anaphor, or left out), not when it names a taste", () => {
    expect(v("I'm not a big fan of horror movies, I like comedies.", TASTES).kind).toBe("none");
    expect(v("i am not a huge fan of board games", SUGGESTION).kind).toBe("none");
    expect(v("I'm not a fan of that one.", SUGGESTION).kind).toBe("correction");
    expect(v("Not a fan of that. Anything else?", SUGGESTION).kind).toBe("correction");
    expect(v("I'm not a fan, give me more titles.", SUGGESTION).kind).toBe("correction");
    expect(v("I didn't like that one either", SUGGESTION).kind).toBe("correction");
  });
  it("recalling earlier talk is a complaint only when marked as insisting", () => {
    expect(v("As I mentioned earlier, I need four tickets.").kind).toBe("none");
    expect(v("Like I said, I need four tickets.").kind).toBe("none");
    expect(v("As I already said, I need four tickets.").kind).toBe("correction");
    expect(v("I literally just told you the time!").kind).toBe("correction");
    expect(v("I asked you to update the install section, not the intro.").kind).toBe("correction");
    expect(classify("wie gesagt, ich brauche vier Karten", { previousReply: STATEMENT }).kind).toBe("none");
    expect(classify("wie ich schon gesagt habe: vier Karten", { previousReply: STATEMENT }).kind).toBe("correction");
    expect(classify("como dije, necesito cuatro", { previousReply: STATEMENT }).kind).toBe("none");
    expect(classify("como ya dije, necesito cuatro", { previousReply: STATEMENT }).kind).toBe("correction");
  });
  it("a bare 'always/never X' answering a question to the person is about them; addressed to the assistant it is a directive", () => {
    const HABIT = "How often do you go to the cinema?";
    expect(v("Never go, too expensive.", HABIT).kind).toBe("none");
    expect(v("Never go, too expensive.", HABIT).signals).toContain("context.answer_to_question");
    expect(v("Never commit without signing.").kind).toBe("directive");
    expect(v("Never commit without signing.", null).kind).toBe("directive");
    expect(v("Please never commit without signing.", OFFER).kind).toBe("directive");
    expect(v("Always use pnpm. Is that clear?", "I moved it to utils/. Is that right?").kind).toBe("directive");
    expect(v("Never enough").kind).not.toBe("directive");
  });
});

describe("frustration", () => {
  it("counts families of signals, capped at 3", () => {
    expect(v("add a retry").frustration).toBe(0);
    expect(v("still broken").frustration).toBe(1);
    expect(v("it's still broken!!").frustration).toBe(2);
    expect(v("WHY IS THIS STILL BROKEN?! come on, fuck").frustration).toBe(3);
  });
  it("capitals need enough letters: an acronym is not shouting", () => {
    expect(v("LGTM").signals).not.toContain("frustration.caps");
    expect(v("STOP DELETING MY FILES").signals).toContain("frustration.caps");
  });
  it("profanity plus shouting with no fixed phrase is a correction", () => {
    expect(v("WHAT THE FUCK IS THIS")).toMatchObject({ kind: "correction" });
    expect(v("WHAT THE FUCK IS THIS").signals).toContain("correction.frustration");
  });
  it("thanks again!! is not a repeat marker", () => {
    expect(v("Thank you, you were great, thanks again!!").kind).toBe("praise");
  });
});

describe("skip rules", () => {
  it.each([
    ["<system-reminder>The user opened a file</system-reminder>", "skip.system_reminder"],
    ["/compact", "skip.slash_command"],
    ["/review src/app.ts", "skip.slash_command"],
    ["<task-notification><task-id>1</task-id></task-notification>", "skip.task_notification"],
    ["This session is being continued from a previous conversation that ran out of context.", "skip.continuation"],
    ["<command-name>/clear</command-name>", "skip.command_echo"],
    ["<local-command-stdout>ok</local-command-stdout>", "skip.command_echo"],
    ["[Request interrupted by user for tool use]", "skip.interrupted"],
    ["Caveat: The messages below were generated by the user while running local commands.", "skip.caveat"],
    ["   ", "skip.empty"],
  ])("%j is skipped", (text, signal) => {
    expect(v(text)).toEqual({ kind: "skip", rating: null, frustration: null, language: null, signals: [signal] });
  });
  it("a reminder inside typed text is cut out and the rest classified", () => {
    expect(v("<system-reminder>x</system-reminder>\nthat's wrong").kind).toBe("correction");
    expect(v("<ide_selection>const a = 1</ide_selection> why did you rename this?").kind).toBe("correction");
  });
  it("a path is not a slash command", () => {
    expect(v("/home/me/app.ts is still broken").kind).toBe("correction");
  });
  it("pasted code is not the person's words", () => {
    expect(v("here is the log:\n```\nError: wrong type, still failing\n```\nwhat does it mean?").kind).toBe("none");
  });
});

describe("reply shape", () => {
  it("reads questions, checks, offers and menus", () => {
    expect(replyShape(OFFER)).toMatchObject({ endsWithQuestion: true, checkQuestion: false, offerQuestion: true });
    expect(replyShape("I put it in utils/. Is that right?")).toMatchObject({ endsWithQuestion: true, checkQuestion: true });
    expect(replyShape('Have you seen "Dunkirk (2017)"')).toMatchObject({ endsWithQuestion: true });
    expect(replyShape(MENU)).toMatchObject({ numberedChoices: true });
    expect(replyShape("Done:\n1. Fixed the parser\n2. Added tests")).toMatchObject({ numberedChoices: false, endsWithQuestion: false });
  });
});

describe("language data", () => {
  it("every language loads, has rules in every category it needs and compiles", () => {
    expect(LANGUAGES.map((l) => l.code)).toEqual(["en", "fi", "de", "es", "fr", "pt", "ru", "ja", "zh"]);
    for (const l of LANGUAGES) {
      expect(l.correction.length, l.code).toBeGreaterThan(5);
      expect(l.praise.length, l.code).toBeGreaterThan(1);
      expect(l.directive.length, l.code).toBeGreaterThan(0);
      expect(l.profanity.length, l.code).toBeGreaterThan(0);
      // Japanese and Chinese spell no rating in words: a one-character number ("一") is in
      // every other sentence; "8/10" in digits is read as in every language.
      expect(Object.keys(l.numbers), l.code).toHaveLength(l.unspaced === true ? 0 : 10);
    }
  });
  it("the committed lang/index.json matches the language files (regenerate: see index-file.ts)", () => {
    expect(loadIndex()).toEqual(freshIndex());
  });
  it("the files read with fs are the files tsc copies as modules", () => {
    for (const code of LANGUAGE_CODES) expect(readLangFile(code)).toEqual(LANG_FILES[code]);
  });
  it("every rule compiles, has no capturing group and has keys", () => {
    for (const l of LANGUAGES) {
      for (const cat of ["correction", "closing", "unhappy", "praise", "directive", "profanity", "exasperation", "repeat"] as const) {
        for (const r of l[cat]) {
          expect(capturingGroups(expand(r.re)), `${l.code}.${cat}.${r.id}`).toBe(0);
          expect(r.keys.length, `${l.code}.${cat}.${r.id}`).toBeGreaterThan(0);
        }
      }
    }
  });
  it("refuses malformed data with the path and what was expected", () => {
    const bad = { ...LANGUAGES[0], correction: [{ id: "x", at: "any", re: "wrong" }] };
    expect(() => checkLangData(bad, "bad.json")).toThrow(/correction\[0\]\.keys.*expected key words/);
  });
  it("expands the pattern shorthand", () => {
    expect(expandPattern("i told you")).toBe("i\\s+told\\s+you");
    expect(expandPattern("[ ,]x ?y")).toBe("[\\s,]x\\s*y");
    expect(new RegExp(`^${expandPattern("ты уверен{w}?")}$`, "u").test("ты уверен")).toBe(true);
  });
});

describe("invariants", () => {
  it("never throws, is deterministic, and keeps its fields consistent", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.option(fc.string({ maxLength: 200 })), (text, reply) => {
        const a = classify(text, { previousReply: reply });
        expect(classify(text, { previousReply: reply })).toEqual(a);
        if (a.kind === "skip") expect(a.frustration).toBeNull();
        else expect([0, 1, 2, 3]).toContain(a.frustration);
        if (a.kind === "rating") expect(a.rating).toBeGreaterThanOrEqual(1);
        else expect(a.rating).toBeNull();
        if (a.rating !== null) expect(a.rating).toBeLessThanOrEqual(10);
      }),
      { numRuns: 500, seed: 42 },
    );
  });
  it("handles a huge prompt", () => {
    const huge = `${"lorem ipsum dolor sit amet ".repeat(40_000)} that's wrong`;
    expect(v(huge).kind).toBe("correction");
  });
});
