/**
 * Synthetic rule scenarios: made-up projects, each with instruction files whose rules are
 * written in the shapes of real ones (see rule-templates.ts), and failures of three kinds:
 * the assistant breaks a rule and the owner corrects it (citing the rule or not), a failure
 * no rule covers, and a failure dated before the rule that covers it was written. The plan
 * says, for every failure, which rule covers it (or none) and its root cause, so retrieval,
 * `rules.rule_covers` and `rules.same_root_cause` can be trained and measured on it. Always
 * reported as synthetic.
 *
 * Seeded and pure: the same options give the same projects.
 *
 * Example: `generateRuleScenarios({seed: 11, projects: 12, failuresPerProject: 14})` -> 12
 * projects; each has a CLAUDE.md (and sometimes .claude/rules/*.md), 8-16 rules, 14 failures.
 */
import type { ClassId } from "../../../questions/index.js";
import { rng, type Rng } from "./prng.js";
import { FILLER_RULES, GAP_TEMPLATES, RULE_TEMPLATES, type RuleLang, type RuleTemplate } from "./rule-templates.js";

export interface RuleScenarioOptions {
  seed: number;
  projects: number;
  failuresPerProject: number;
}

export interface ScenarioFile {
  /** Relative to the project root. */
  path: string;
  text: string;
  /** Per 1-based line, the date the line was written (index 0 unused). */
  lineDates: Array<string | undefined>;
}

export interface ScenarioRule {
  key: string;
  lang: RuleLang;
  file: string;
  /** The rule as written (a bullet's text after its marker, or a table row). */
  text: string;
  introduced: string;
}

export interface ScenarioFailure {
  id: string;
  project: string;
  session_id: string;
  date: string;
  prompt: string;
  reply: string;
  tools: Array<{ name: string; summary: string }>;
  cls: ClassId;
  component: string;
  /** Key of the rule that covers it, or null for a gap. */
  covering: string | null;
  /** Dated before its covering rule was written: it broke no rule. */
  before_rule: boolean;
  cites_rule: boolean;
  root_cause: string;
  /** Language of the covering rule (or of the failure, for a gap). */
  lang: RuleLang;
}

export interface RuleScenarioProject {
  name: string;
  lang: RuleLang;
  files: ScenarioFile[];
  rules: ScenarioRule[];
  failures: ScenarioFailure[];
}

const DAY = 86_400_000;
const EPOCH = Date.parse("2026-03-01T00:00:00.000Z");
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function projectLang(i: number): RuleLang {
  const m = i % 8;
  return m === 3 || m === 6 ? "zh" : m === 5 ? "de" : "en";
}

interface Placed {
  t: RuleTemplate;
  form: string;
  introduced: number;
  inRulesFile: boolean;
}

function renderFile(sections: Map<string, Array<{ text: string; date: string }>>, title: string, epoch: string): { text: string; lineDates: Array<string | undefined> } {
  const lines: string[] = [`# ${title}`, ""];
  const dates: Array<string | undefined> = [undefined, epoch, epoch];
  for (const [section, rules] of sections) {
    lines.push(`## ${section}`, "");
    dates.push(epoch, epoch);
    const bullets = rules.filter((r) => !r.text.startsWith("|"));
    const rows = rules.filter((r) => r.text.startsWith("|"));
    for (const b of bullets) {
      lines.push(`- ${b.text}`);
      dates.push(b.date);
    }
    if (bullets.length > 0) {
      lines.push("");
      dates.push(epoch);
    }
    if (rows.length > 0) {
      lines.push("| Don't | Do instead |", "|---|---|");
      dates.push(epoch, epoch);
      for (const r of rows) {
        lines.push(r.text);
        dates.push(r.date);
      }
      lines.push("");
      dates.push(epoch);
    }
  }
  return { text: `${lines.join("\n").trimEnd()}\n`, lineDates: dates };
}

function project(r: Rng, i: number, failuresPerProject: number): RuleScenarioProject {
  const lang = projectLang(i);
  const name = `rules-project-${String(i + 1).padStart(2, "0")}`;
  const epoch = EPOCH + i * DAY;
  const own = RULE_TEMPLATES.filter((t) => t.lang === lang);
  const english = RULE_TEMPLATES.filter((t) => t.lang === "en");
  const chosen = lang === "en" ? r.shuffle(english).slice(0, r.int(6, 9)) : [...own, ...r.shuffle(english).slice(0, 2)];
  const placed: Placed[] = chosen.map((t) => ({
    t,
    form: r.pick(t.forms),
    // A quarter of the rules are written three weeks in, after some failures they cover.
    introduced: r.chance(0.25) ? epoch + 21 * DAY : epoch,
    inRulesFile: r.chance(0.25),
  }));
  const fillers = r.shuffle(FILLER_RULES[lang]).slice(0, Math.min(FILLER_RULES[lang].length, r.int(4, 8)));
  const main = new Map<string, Array<{ text: string; date: string }>>();
  const extra = new Map<string, Map<string, Array<{ text: string; date: string }>>>();
  for (const p of placed) {
    const target = p.inRulesFile ? (extra.get(p.t.section) ?? new Map<string, Array<{ text: string; date: string }>>()) : main;
    if (p.inRulesFile) extra.set(p.t.section, target);
    const list = target.get(p.t.section) ?? [];
    list.push({ text: p.form, date: iso(p.introduced) });
    target.set(p.t.section, list);
  }
  const fillerSection = lang === "zh" ? "风格" : lang === "de" ? "Stil" : "Style";
  const fl = main.get(fillerSection) ?? [];
  for (const f of fillers) fl.push({ text: f, date: iso(epoch) });
  main.set(fillerSection, fl);
  const files: ScenarioFile[] = [];
  const mainFile = renderFile(main, name, iso(epoch));
  files.push({ path: "CLAUDE.md", ...mainFile });
  let k = 0;
  for (const [section, m] of extra) {
    const f = renderFile(m, section, iso(epoch));
    files.push({ path: `.claude/rules/rules-${++k}.md`, ...f });
  }
  const rules: ScenarioRule[] = placed.map((p) => ({
    key: p.t.key,
    lang: p.t.lang,
    file: p.inRulesFile ? (files.find((f) => f.text.includes(p.form))?.path ?? "CLAUDE.md") : "CLAUDE.md",
    text: p.form,
    introduced: iso(p.introduced),
  }));
  const gaps = GAP_TEMPLATES.filter((g) => g.lang === lang || (lang !== "en" && g.lang === "en" && r.chance(0.5)));
  const failures: ScenarioFailure[] = [];
  for (let n = 0; n < failuresPerProject; n++) {
    const session = `syn-rules-${i + 1}-${Math.floor(n / 2) + 1}`;
    const date = epoch + Math.floor((n * 40 * DAY) / failuresPerProject) + r.int(0, 12) * 3600_000;
    const id = `syn-rf-${i + 1}-${n + 1}`;
    if (r.chance(0.68) || gaps.length === 0) {
      const p = r.pick(placed);
      const cites = r.chance(0.35);
      const tool = p.t.tools.length > 0 ? r.pick(p.t.tools) : null;
      failures.push({
        id,
        project: name,
        session_id: session,
        date: new Date(date).toISOString(),
        prompt: r.pick(cites ? p.t.cite : p.t.plain),
        reply: r.pick(p.t.replies),
        tools: tool === null ? [] : [{ name: tool[0], summary: tool[1] }],
        cls: p.t.cls,
        component: p.t.component,
        covering: p.t.key,
        before_rule: date < p.introduced,
        cites_rule: cites,
        root_cause: `rule:${p.t.key}`,
        lang: p.t.lang,
      });
    } else {
      const g = r.pick(gaps);
      const tool = g.tools.length > 0 ? r.pick(g.tools) : null;
      failures.push({
        id,
        project: name,
        session_id: session,
        date: new Date(date).toISOString(),
        prompt: r.pick(g.complaints),
        reply: r.pick(g.replies),
        tools: tool === null ? [] : [{ name: tool[0], summary: tool[1] }],
        cls: g.cls,
        component: g.component,
        covering: null,
        before_rule: false,
        cites_rule: false,
        root_cause: `gap:${g.key}`,
        lang: g.lang,
      });
    }
  }
  return { name, lang, files, rules, failures };
}

export function generateRuleScenarios(opts: RuleScenarioOptions): RuleScenarioProject[] {
  const r = rng(opts.seed);
  return Array.from({ length: opts.projects }, (_, i) => project(r, i, opts.failuresPerProject));
}

/**
 * The plan's labels: `rules.rule_covers` for every (failure, rule) pair of a project (yes for
 * the failure's covering rule, no for every other rule, fillers included, and for every rule
 * of a failure no rule covers), and the root cause of every failure. Synthetic.
 *
 * Example: a project with 12 rules and 14 failures -> 168 rule_covers labels, 14 root causes.
 */
export function planLabels(p: RuleScenarioProject): { rule_covers: Array<{ failure_id: string; rule_text: string; covers: boolean }>; root_cause: Array<{ failure_id: string; cause: string }> } {
  const ruleTexts = p.files.flatMap((f) => f.text.split("\n").filter((l) => /^(- |\d+\. |\| (?!Don't \|)(?!---))/.test(l)).map((l) => l.replace(/^(- |\d+\. )/, "")));
  const rule_covers = p.failures.flatMap((f) => {
    const covering = f.covering === null ? null : (p.rules.find((r) => r.key === f.covering)?.text ?? null);
    return ruleTexts.map((t) => ({ failure_id: f.id, rule_text: t, covers: covering !== null && t === covering }));
  });
  return { rule_covers, root_cause: p.failures.map((f) => ({ failure_id: f.id, cause: f.root_cause })) };
}
