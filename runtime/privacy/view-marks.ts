/**
 * The views' steps for a terminal's and a tool's marks (text-views.ts): backspaces a terminal
 * capture keeps (an erased typo), Markdown's backslash escapes of its emphasis marks, a word
 * diff's `[-…-]{+…+}`, a stream of server-sent events whose values make one text. Each is called
 * only when the text holds its trigger (view-triggers.ts) and is null when it changes nothing.
 *
 * Example: `backspaceStep("ab\b \bc")!.out` -> `"ac"`; `wordDiffStep("k: [-old-]{+new+}")!.out`
 * -> `"k: old\n\nk: new"`.
 */
import { Builder, copy, type Step } from "./view-build.js";

/**
 * Each backspace erases the character before it on its line, as a terminal shows it (`x\b \b`,
 * the erase a line editor echoes, leaves nothing; `a\ba`, a manual's overstrike, one `a`).
 */
export const backspaceStep: Step = (text) => {
  const b = new Builder();
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 8) {
      copy(b, text, i, i + 1);
      continue;
    }
    changed = true;
    const n = b.out.length;
    if (n > 0 && b.out.charCodeAt(n - 1) !== 10) {
      b.out = b.out.slice(0, -1);
      b.from.pop();
      b.to.pop();
    }
  }
  return changed ? b : null;
};

/** The marks Markdown writers escape in a name or a value (`PAYOUT\_HMAC\_SECRET`): emphasis's (another, `\.` or `\[`, is a pattern's as often). */
const MD_ESCAPED = new Set(["_", "*"]);

/** Markdown's backslash escapes of its emphasis marks decoded (`\_` -> `_`); another backslash is kept. */
export const markdownEscapeStep: Step = (text) => {
  let i = text.indexOf("\\");
  const b = new Builder();
  let at = 0;
  for (; i >= 0 && i < text.length - 1; i = text.indexOf("\\", i + 2)) {
    if (!MD_ESCAPED.has(text[i + 1]!)) continue;
    copy(b, text, at, i);
    at = i + 1;
  }
  if (at === 0) return null;
  copy(b, text, at, text.length);
  return b;
};

/**
 * A word diff (`api_key: [-old-]{+new+}`) read as the two texts it stands for: the old one (the
 * removed words kept, the added dropped), a blank line, then the new one, each whole, so a rule
 * that reads a value's line after its heading or its prompt (a CSV's header, an `expect`) reads
 * each version as it was. A mark may hold a newline (a value of several lines changed). Null when
 * the text holds no mark.
 */
export const wordDiffStep: Step = (text) => {
  const marks = diffMarks(text);
  if (marks.length === 0) return null;
  const b = new Builder();
  for (const side of ["-", "+"] as const) {
    // Mapped to the last character's place (a place past the text's end has none in a view before).
    if (side === "+") b.push("\n\n", text.length - 1, text.length - 1);
    let p = 0;
    for (const m of marks) {
      copy(b, text, p, m.start);
      if (m.side === side) copy(b, text, m.start + 2, m.end - 2);
      p = m.end;
    }
    copy(b, text, p, text.length);
  }
  return b;
};

/** The longest mark read: a `[-` and a `-]` further apart are no one mark (an index `[-1]`, then a mark far below). */
const MARK_MAX = 4000;

/** The word diff's marks: `[-…-]` and `{+…+}`, [start, end) each, in order. */
function diffMarks(text: string): Array<{ start: number; end: number; side: "-" | "+" }> {
  const out: Array<{ start: number; end: number; side: "-" | "+" }> = [];
  for (let i = 0; i < text.length - 3; i++) {
    const c = text.charCodeAt(i);
    const side = c === 0x5b && text.charCodeAt(i + 1) === 0x2d ? "-" : c === 0x7b && text.charCodeAt(i + 1) === 0x2b ? "+" : null;
    if (side === null) continue;
    const close = text.indexOf(side === "-" ? "-]" : "+}", i + 2);
    if (close < 0 || close - i > MARK_MAX) continue;
    out.push({ start: i, end: close + 2, side });
    i = close + 1;
  }
  return out;
}

/**
 * A stream of server-sent events (`data: {…}` lines, two or more) read as the text it streams:
 * each event's last string value (a delta's text: the key names differ from one stream to the
 * next, the streamed text comes last), one after the other, so a value streamed alone is read
 * after the words streamed before it. Its escapes are left to the JSON step. The first line may
 * have a writer's words before its event.
 */
export const eventStep: Step = (text) => {
  const b = new Builder();
  let events = 0;
  let at = 0;
  for (const line of text.split("\n")) {
    // The first line may hold a writer's own words before its event ("please deploy it: data: {…}").
    if (line.startsWith("data:") || (at === 0 && line.includes(" data: {"))) {
      const v = lastStringValue(line);
      if (v !== null) {
        copy(b, text, at + v[0], at + v[1]);
        events++;
      }
    }
    at += line.length + 1;
  }
  return events >= 2 ? b : null;
};

/** The last `"…"` after a `:` in a JSON line, [start, end) of its characters; null when none. */
function lastStringValue(line: string): [number, number] | null {
  let end = line.length;
  for (;;) {
    const close = line.lastIndexOf('"', end - 1);
    if (close < 0) return null;
    // Its opening quote: the closest unescaped quote before it.
    let open = close - 1;
    while (open >= 0 && (line[open] !== '"' || backslashesBefore(line, open) % 2 === 1)) open--;
    if (open < 0) return null;
    let k = open - 1;
    while (k >= 0 && line[k] === " ") k--;
    if (line[k] === ":") return [open + 1, close];
    end = open;
  }
}

function backslashesBefore(s: string, i: number): number {
  let n = 0;
  while (i - 1 - n >= 0 && s[i - 1 - n] === "\\") n++;
  return n;
}
