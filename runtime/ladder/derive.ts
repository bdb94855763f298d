/**
 * What code can read off a rule's text about the tool calls and replies that break it: the
 * commands it forbids (a backticked command or a named action after "never", "don't", "avoid",
 * 不要 ...), and the language it asks replies in. Both are used twice: as the rule's witness
 * (did the reply or its tool calls break it?) and as the makings of a drafted check, which is
 * then tested against the calls the owner corrected and the project's recorded calls
 * (checks-draft.ts). A pattern is a candidate, never a verdict: nothing here decides alone.
 *
 * Hand-written: no library reads a forbidding clause out of an instruction line; the action
 * lexicon below is short on purpose (actions whose command forms are many and fixed).
 *
 * Example: commandPatterns("Don't use `git push --force` on main") -> [{source: "`git push --force`",
 * pattern: "(^|[;&|(]\\s*|\\s)git\\s(?:[^;&|\\n]*\\s)?push\\s(?:[^;&|\\n]*\\s)?--force\\b", qualifiers: ["main"]}].
 */
import type { Witness } from "../../schemas/rule-ledger.js";
import type { LedgerRule } from "./ledger.js";
import type { OwnerTurn } from "./signals.js";

/** What a witness reads: the reply before the owner's turn and its tool calls. */
export type WitnessTurn = Pick<OwnerTurn, "reply_before" | "tools_before">;

/** A forbidding clause: the words that say "not this". */
const NEGATION = /\b(never|don'?t|do not|avoid|no|stop|not|without|must not|mustn'?t|instead of|rather than|nie|niemals|jamais|ne pas|nunca|nunca|älä|ei|не|нельзя)\b|不要|不能|禁止|勿|别|しない|禁止/iu;

/** Actions with a fixed family of command forms. */
const ACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/force[- ]?push|push\s+--force|push\s+-f\b|rewrite (the )?(remote )?history/i, String.raw`\bgit\s(?:[^;&|\n]*\s)?push\s(?:[^;&|\n]*\s)?(?:-f\b|--force\b|--force-with-lease\b|\+\S)`],
  [/\bamend\b/i, String.raw`\bgit\s(?:[^;&|\n]*\s)?commit\s(?:[^;&|\n]*\s)?--amend\b`],
  [/release (profile|build|mode)|--release\b/i, String.raw`\s--release\b`],
  [/--no-verify|skip(ping)? (the )?(git )?hooks/i, String.raw`\s--no-verify\b`],
  [/\bsudo\b/i, String.raw`(^|[;&|(]\s*)sudo\s`],
  [/推送到远程|push(ing)? to (the )?remote/i, String.raw`\bgit\s(?:[^;&|\n]*\s)?push\b`],
];

const WORDS = ["main", "master", "production", "prod", "release"];

export interface CommandPattern {
  /** The words of the rule it came from. */
  source: string;
  pattern: string;
  /** Words of the rule that narrow it ("on main"): kept only when the corrected calls carry them. */
  qualifiers: string[];
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A command written in the rule, as a pattern: its words in order, other arguments allowed between. */
export function commandRegex(cmd: string): string | null {
  const toks = cmd.trim().split(/\s+/).filter((t) => t.length > 0 && !/^<.*>$|^\.\.\.$/.test(t));
  if (toks.length === 0 || !/^[A-Za-z][\w.-]*$/.test(toks[0]!)) return null;
  const parts = toks.map((t, i) => {
    const e = escapeRe(t);
    const end = /\w$/.test(t) ? "\\b" : "";
    return i === 0 ? `${e}${end}` : `${e}${end}`;
  });
  return `(^|[;&|(]\\s*|\\s)${parts.join("\\s(?:[^;&|\\n]*\\s)?")}`;
}

/** The clauses of a rule that forbid something (split on sentence ends and semicolons, never inside a backticked span). */
function forbidding(text: string): string[] {
  const post = new RegExp(POST_CUE.source, "iu");
  return text.split(/(?<=[.;!?]\**)(?=\s|$)\s*(?=(?:[^`]*`[^`]*`)*[^`]*$)|(?<=[。；！？])\s*|\s+—\s+/u).filter((c) => NEGATION.test(c) || post.test(c));
}

const L = String.raw`[\p{L}\p{N}_]`;
/** A negation that forbids what follows it ("never X", "instead of X", 不要 X), up to the clause's next turn. */
const PRE_CUE = new RegExp(
  String.raw`(?<!${L})(?:never|don'?t|do not|avoid|no|stop|not|must not|mustn'?t|instead of|rather than|nie|niemals|nicht|kein|keine|jamais|pas|nunca|älä|ei|не|нельзя)(?!${L})(?:\s+(?:use|using|run|running|call|calling)(?!${L}))?|不要|不能|禁止|勿|别`,
  "giu",
);
/** A negation that forbids what comes before it ("X is forbidden", 「X は使わない」, "X (forbidden by ...)"). */
const POST_CUE = new RegExp(
  String.raw`(?<!${L})(?:(?:is|are) (?:forbidden|banned|prohibited|not allowed|not permitted)|(?:should|must|may|can) ?(?:never|not|n't) be (?:used|run|called)|\(?(?:forbidden|banned|prohibited)|(?:ist|sind) verboten|(?:est|sont) interdite?s?|está prohibido|on kielletty|запрещен[оа]?)(?!${L})|は?禁止|は?使わない|しない`,
  "giu",
);
/** Where the scope of a negation before its object ends: a turn to what is prescribed, or a closing bracket. */
const SCOPE_END = /[)）]|[,，]\s*(?:and\s+|then\s+)?(?:use|run|prefer|call|try|pass|write|do|but|instead)(?![\p{L}])|(?<![\p{L}])(?:but|without|unless|except|so that|so|instead(?!\s+of)|rather(?!\s+than)|use|prefer|ohne|sondern|verwende|sans|mais|sin|pero|ilman|без|а)(?![\p{L}])|，|而是|改用|请用|应该用|、(?=[^`]*$)/iu;
/** Where the scope of a negation after its object starts (looking back): the clause's last turn. */
const SCOPE_START = /(?:[,，、;(（]|(?<![\p{L}])(?:instead of|rather than|not|use|prefer|but|and)(?![\p{L}]))(?![\s\S]*(?:[,，、;(（]|(?<![\p{L}])(?:instead of|rather than|not|use|prefer|but|and)(?![\p{L}])))/iu;

/** The spans of a clause a negation forbids; backticked text is masked so a command's own words are never a cue. */
export function forbiddenSpans(clause: string): Array<readonly [number, number]> {
  const masked = clause.replace(/`[^`]*`/g, (m) => "`" + "x".repeat(m.length - 2) + "`");
  const spans: Array<readonly [number, number]> = [];
  for (const m of masked.matchAll(PRE_CUE)) {
    const from = m.index + m[0].length;
    const end = SCOPE_END.exec(masked.slice(from));
    spans.push([from, end === null ? masked.length : from + end.index]);
  }
  for (const m of masked.matchAll(POST_CUE)) {
    // A parenthesis opening the cue ("`x` (forbidden by ...)") is not the start of its scope.
    const before = masked.slice(0, m.index).replace(/[\s(（]+$/u, "");
    const start = SCOPE_START.exec(before);
    spans.push([start === null ? 0 : start.index + start[0].length, before.length]);
  }
  return spans;
}

const inSpans = (spans: ReadonlyArray<readonly [number, number]>, at: number, to: number): boolean => spans.some(([a, b]) => at >= a && to <= b);

export function commandPatterns(ruleText: string): CommandPattern[] {
  const out: CommandPattern[] = [];
  const seen = new Set<string>();
  const push = (p: CommandPattern): void => {
    if (!seen.has(p.pattern)) {
      seen.add(p.pattern);
      out.push(p);
    }
  };
  for (const clause of forbidding(ruleText)) {
    const qualifiers = WORDS.filter((w) => new RegExp(`\\b${w}\\b`, "i").test(clause));
    const spans = forbiddenSpans(clause);
    const scoped = spans.map(([a, b]) => clause.slice(a, b)).join(" ; ");
    for (const [re, pattern] of ACTIONS) if (re.test(scoped)) push({ source: clause.trim().slice(0, 80), pattern, qualifiers });
    // A command in backticks in the scope of the clause's negation; one of several forbidden (`a`, `b`) each.
    for (const m of clause.matchAll(/`([^`]{2,80})`/g)) {
      if (!inSpans(spans, m.index, m.index + m[0].length)) continue;
      const cmd = m[1]!.replace(/\$\(.*\)|"[^"]*"|'[^']*'/g, " ").trim();
      // A path, a type or an expression is not a command (`.envrc`, `Array.isArray()`, `T`).
      if (!/^[a-z][\w-]*(\s+\S+)+$/.test(cmd) && !/^[a-z][\w-]*$/.test(cmd)) continue;
      if (/^[a-z][\w-]*$/.test(cmd) && cmd.length < 3) continue;
      const rx = commandRegex(cmd);
      if (rx !== null) push({ source: `\`${m[1]}\``, pattern: rx, qualifiers });
    }
    // A bare name after "never" / "don't use|run|call" ("Use pnpm, never npm"), as a command's first word.
    const bare = /\b(?:never|don't|do not)\s+(?:use|run|call)?\s*([A-Za-z][\w-]*(?:\.[\w-]+)*)\b(?!`)/i.exec(clause.replace(/`[^`]*`/g, " ¦ "));
    if (bare && !/^(use|run|call|put|add|write|make|ask|be|do|let|the|a|an|any|it|this|that|to|on|in|more|over|anything)$/i.test(bare[1]!)) {
      push({ source: bare[0], pattern: `(^|[;&|(]\\s*)${escapeRe(bare[1]!)}\\b`, qualifiers });
    }
  }
  return out;
}

/** Languages a reply rule may ask for, with a test of a reply written in it. */
const LANGS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(finnish|suomeksi|suomi)\b/i, String.raw`\b(ja|on|ei|se|että|tämä|olen|kanssa|mutta|tässä|kun|myös|sinun|voit)\b`],
  [/\b(german|deutsch)\b/i, String.raw`\b(und|der|die|das|nicht|ist|ich|mit|auf|für|ein|eine)\b`],
  [/\b(french|français|francais)\b/i, String.raw`\b(le|la|les|et|est|une|pour|dans|pas|vous|je|avec)\b`],
  [/\b(spanish|español|espanol)\b/i, String.raw`\b(el|la|los|las|y|es|una|para|con|no|que|por)\b`],
  [/\b(chinese)\b|中文/i, String.raw`\p{Script=Han}`],
  [/\b(japanese)\b|日本語/i, String.raw`[\p{Script=Hiragana}\p{Script=Katakana}]`],
];

/**
 * The witness code reads off a rule: a reply-language rule ("reply in Finnish") is broken by a
 * reply with none of that language's commonest words; a rule forbidding a command is broken
 * by a command it matches. Null when the text says neither.
 */
export function derivedWitness(ruleText: string): Witness | null {
  if (/\b(reply|respond|answer|write|speak|talk|replies|answers)\b|回复|回答/i.test(ruleText)) {
    for (const [re, pattern] of LANGS) if (re.test(ruleText)) return { field: "reply", pattern, broken_when_absent: true };
  }
  const cmds = commandPatterns(ruleText).filter((c) => c.qualifiers.length === 0);
  if (cmds.length > 0) return { field: "command", pattern: cmds.map((c) => `(?:${c.pattern})`).join("|"), broken_when_absent: false };
  return null;
}

/** true: the reply or tool calls before show the rule broken; false: kept; null: the witness has nothing to read. */
export function witnessSays(w: Witness, turn: WitnessTurn): boolean | null {
  const re = new RegExp(w.pattern, "iu");
  const values =
    w.field === "reply"
      ? turn.reply_before !== null
        ? [turn.reply_before]
        : []
      : turn.tools_before.map((t) => t.input[w.field]).filter((v): v is string => typeof v === "string");
  if (values.length === 0) return null;
  const matched = values.some((v) => re.test(v));
  return w.broken_when_absent ? !matched : matched;
}

/**
 * A rule's witness reading: its own witness; else one read off its text, where a command
 * pattern that does not match says nothing (the breach may be in an earlier reply), while a
 * reply-language witness says kept as well as broken.
 */
export function witnessOf(rule: LedgerRule, turn: WitnessTurn): boolean | null {
  if (rule.witness) return witnessSays(rule.witness, turn);
  const w = derivedWitness(rule.text);
  if (w === null) return null;
  const says = witnessSays(w, turn);
  return says === false && w.field !== "reply" ? null : says;
}
