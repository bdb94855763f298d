/**
 * Data for the synthetic rule scenarios (`rules.ts`): rules an owner writes into an
 * instruction file, in the shapes the bundled real files use (plain bullets, ALWAYS / NEVER
 * bullets, numbered steps, table rows), the reply that breaks each, and the owner's
 * corrections, some citing the rule and some not; failures no rule covers; filler rules that
 * no failure touches. English, Chinese and German, so retrieval is measured per language.
 * Made up for this project; no text is copied from the real files.
 */
import type { ClassId } from "../../../questions/index.js";

export type RuleLang = "en" | "zh" | "de";

export interface RuleTemplate {
  key: string;
  lang: RuleLang;
  section: string;
  /** Ways the rule is written; `|` rows are table rows (header in the section's table). */
  forms: readonly string[];
  /** Ends of replies that break it. */
  replies: readonly string[];
  /** Tool calls of the breaking turn (name, summary). */
  tools: ReadonlyArray<readonly [string, string]>;
  /** Corrections that quote or point at the rule. */
  cite: readonly string[];
  /** Corrections that do not. */
  plain: readonly string[];
  cls: ClassId;
  component: string;
}

export interface GapTemplate {
  key: string;
  lang: RuleLang;
  replies: readonly string[];
  tools: ReadonlyArray<readonly [string, string]>;
  complaints: readonly string[];
  cls: ClassId;
  component: string;
}

export const RULE_TEMPLATES: readonly RuleTemplate[] = [
  {
    key: "pnpm", lang: "en", section: "Tooling",
    forms: ["Use pnpm for every install; never npm or yarn.", "NEVER run `npm install` here: the lock file is pnpm's.", "Always add dependencies with `pnpm add`."],
    replies: ["Added it with `npm install date-fns` and updated the import.", "Ran `npm i` to refresh the dependencies, all good now."],
    tools: [["Bash", "npm install date-fns"], ["Bash", "npm i"]],
    cite: ["The instructions say pnpm, not npm.", "CLAUDE.md literally says never npm install."],
    plain: ["why is there a package-lock.json now?", "npm again??", "that's the wrong package manager"],
    cls: "broke_standing_rule", component: "package manager",
  },
  {
    key: "tests-before-done", lang: "en", section: "Testing",
    forms: ["Run the whole test suite before you say a change is done.", "ALWAYS run `make test` before reporting success.", "Never claim a fix works without running its test."],
    replies: ["Fixed the off-by-one, this should work now.", "Done! The parser handles empty input correctly."],
    tools: [["Edit", "src/parser.ts"], ["Edit", "src/range.ts"]],
    cite: ["You're supposed to run the tests before saying it's done.", "the rules say run make test first"],
    plain: ["did you actually run it? two tests fail", "CI is red, it does not work", "it doesn't work, I just tried"],
    cls: "false_success", component: "tests",
  },
  {
    key: "no-push-main", lang: "en", section: "Git",
    forms: ["Never push to main; open a pull request from a branch.", "Do not commit directly on `main`.", "All changes go through a PR, no direct pushes."],
    replies: ["Committed and pushed to main, the deploy should pick it up.", "Pushed the fix straight to main."],
    tools: [["Bash", "git push origin main"], ["Bash", "git commit -am 'fix' && git push"]],
    cite: ["We never push to main, it's in the rules.", "read the git section of CLAUDE.md"],
    plain: ["you pushed to main??", "why is this on main without review", "revert that push"],
    cls: "risky_action", component: "git",
  },
  {
    key: "no-mocks", lang: "en", section: "Testing",
    forms: ["Do not mock the database in integration tests; use the test container.", "No mocks for the storage layer.", "Integration tests hit the real Postgres container, never a mock."],
    replies: ["Wrote the integration test with a mocked repository so it runs fast.", "I stubbed the db client with vi.mock for the new tests."],
    tools: [["Write", "test/orders.int.test.ts"], ["Edit", "test/helpers/db.ts"]],
    cite: ["No mocks in integration tests, like the rules say.", "we agreed: real database in these tests"],
    plain: ["No, I said don't use mocks", "that test proves nothing with a fake db", "why is everything stubbed"],
    cls: "broke_standing_rule", component: "tests",
  },
  {
    key: "answer-language", lang: "en", section: "Communication",
    forms: ["Answer in Finnish unless I write in English.", "Reply in the language of my message."],
    replies: ["Here's a summary of the changes in English.", "Sure! I've updated the README as requested."],
    tools: [],
    cite: ["Finnish please, as the instructions say.", "reply in my language, it's in CLAUDE.md"],
    plain: ["suomeksi kiitos", "why English again", "I wrote to you in Finnish"],
    cls: "wrong_language", component: "replies",
  },
  {
    key: "no-secrets-commit", lang: "en", section: "Security",
    forms: ["Never commit `.env` files or anything holding keys.", "| Committing secrets or .env files | Add them to .gitignore and use the vault |"],
    replies: ["Committed the config changes, including the updated .env.", "Added all files and committed."],
    tools: [["Bash", "git add -A && git commit -m 'config'"], ["Bash", "git add .env"]],
    cite: ["The security rules say never commit .env.", "you know the rule about secrets"],
    plain: ["you committed the keys!", "the .env is in the repo now", "rotate those tokens, they're public"],
    cls: "risky_action", component: "git",
  },
  {
    key: "ask-before-delete", lang: "en", section: "Safety",
    forms: ["Ask before deleting files or folders.", "NEVER run `rm -rf` without my confirmation.", "Confirm with me before any destructive command."],
    replies: ["Cleaned up: removed the old build folder and the cache.", "Deleted the unused fixtures directory."],
    tools: [["Bash", "rm -rf build .cache"], ["Bash", "rm -rf test/fixtures/old"]],
    cite: ["You should have asked before deleting, that's the rule.", "confirm before rm -rf, it's in the safety section"],
    plain: ["where did my fixtures go?", "you deleted the cache I needed", "why did you remove that folder"],
    cls: "risky_action", component: "filesystem",
  },
  {
    key: "conventional-commits", lang: "en", section: "Git",
    forms: ["Commit messages follow Conventional Commits (`fix:`, `feat:`, `chore:`).", "Use the `type(scope): summary` commit format."],
    replies: ["Committed with message 'updated stuff'.", "Committed: 'Fixes'."],
    tools: [["Bash", "git commit -m 'updated stuff'"]],
    cite: ["Conventional commits please, see CLAUDE.md.", "the commit format is in the rules"],
    plain: ["that commit message is useless", "reword the commit", "what does 'Fixes' tell anyone"],
    cls: "broke_standing_rule", component: "git",
  },
  {
    key: "no-new-deps", lang: "en", section: "Dependencies",
    forms: ["Do not add a dependency without asking.", "| Adding a new npm dependency | Ask first; prefer the standard library |"],
    replies: ["Added lodash to handle the deep merge.", "Pulled in moment for the date math."],
    tools: [["Bash", "pnpm add lodash"], ["Bash", "pnpm add moment"]],
    cite: ["We ask before adding dependencies, the rules say so.", "dependencies need my OK, remember"],
    plain: ["we don't need lodash for that", "why a whole library for one function", "remove moment, please"],
    cls: "scope_creep", component: "package manager",
  },
  {
    key: "typecheck", lang: "en", section: "Testing",
    forms: ["Run `npx tsc --noEmit` after every TypeScript change.", "The type-check must pass before you hand back."],
    replies: ["Refactored the handler into two functions.", "Renamed the props across the components."],
    tools: [["Edit", "src/handler.ts"], ["Edit", "src/components/Card.tsx"]],
    cite: ["You skipped the type-check again, it's a rule.", "run tsc like CLAUDE.md says"],
    plain: ["it doesn't compile", "there are 12 type errors now", "the build fails on types"],
    cls: "false_success", component: "build",
  },
  {
    key: "small-diffs", lang: "en", section: "Style",
    forms: ["Only change what the task needs; no drive-by refactors.", "Keep diffs minimal and on topic."],
    replies: ["Fixed the bug and also reorganised the utils folder while I was there.", "Done, plus I reformatted the whole file."],
    tools: [["Edit", "src/utils/index.ts"], ["Bash", "prettier --write src"]],
    cite: ["No drive-by refactors, per the rules.", "keep the diff minimal like we agreed"],
    plain: ["why did you touch the utils?", "the diff is 900 lines for a one-line fix", "revert the reformatting"],
    cls: "scope_creep", component: "code",
  },
  {
    key: "no-ts-any", lang: "en", section: "Style",
    forms: ["No `any` in TypeScript; use `unknown` and narrow.", "Never silence the compiler with `as any`."],
    replies: ["Cast the payload with `as any` so it compiles.", "Typed the response as any for now."],
    tools: [["Edit", "src/api/client.ts"]],
    cite: ["No any, it says so in the style rules.", "the rules forbid as any"],
    plain: ["as any is not a fix", "type it properly", "don't just silence the compiler"],
    cls: "broke_standing_rule", component: "code",
  },
  {
    key: "pnpm-zh", lang: "zh", section: "工具",
    forms: ["不要使用 npm 安装依赖，统一使用 pnpm。", "所有依赖都用 pnpm add 安装。"],
    replies: ["已经用 npm install 安装了 axios。", "运行了 npm i，依赖已更新。"],
    tools: [["Bash", "npm install axios"]],
    cite: ["规则里写了不要用 npm。", "CLAUDE.md 说了用 pnpm"],
    plain: ["又用 npm？", "为什么多了 package-lock.json", "包管理器用错了"],
    cls: "broke_standing_rule", component: "package manager",
  },
  {
    key: "tests-zh", lang: "zh", section: "测试",
    forms: ["提交前必须运行全部测试。", "没有跑测试之前不要说已经完成。"],
    replies: ["修复好了，应该没问题了。", "已完成，解析器可以处理空输入。"],
    tools: [["Edit", "src/parser.py"]],
    cite: ["规则要求先跑测试再说完成。", "说过要先运行测试"],
    plain: ["你跑测试了吗？有两个失败", "根本不行", "CI 又挂了"],
    cls: "false_success", component: "tests",
  },
  {
    key: "chinese-reply-zh", lang: "zh", section: "沟通",
    forms: ["始终用中文回复。", "回答必须使用简体中文。"],
    replies: ["Here is the summary of what I changed.", "Sure, I updated the config file."],
    tools: [],
    cite: ["规则说了用中文回复。", "请按照要求用中文"],
    plain: ["用中文！", "怎么又是英文", "我说中文的"],
    cls: "wrong_language", component: "replies",
  },
  {
    key: "no-delete-zh", lang: "zh", section: "安全",
    forms: ["删除文件之前必须先征得我的同意。", "禁止未经确认执行 rm -rf。"],
    replies: ["已清理旧的 build 目录和缓存。", "删除了没用的测试数据目录。"],
    tools: [["Bash", "rm -rf build"]],
    cite: ["规则写了删除前要先问我。", "删东西之前要确认，这是规定"],
    plain: ["我的数据去哪了？", "你怎么把缓存删了", "为什么删除那个目录"],
    cls: "risky_action", component: "filesystem",
  },
  {
    key: "pnpm-de", lang: "de", section: "Werkzeuge",
    forms: ["Abhängigkeiten immer mit pnpm installieren, niemals mit npm.", "Kein `npm install` in diesem Repository."],
    replies: ["Habe es mit `npm install zod` hinzugefügt.", "`npm i` ausgeführt, alles aktuell."],
    tools: [["Bash", "npm install zod"]],
    cite: ["Laut den Regeln pnpm, nicht npm.", "in der CLAUDE.md steht niemals npm"],
    plain: ["schon wieder npm?", "warum gibt es jetzt eine package-lock.json", "falscher Paketmanager"],
    cls: "broke_standing_rule", component: "package manager",
  },
  {
    key: "tests-de", lang: "de", section: "Tests",
    forms: ["Vor jeder Fertigmeldung die komplette Testsuite ausführen.", "Niemals behaupten, dass es funktioniert, ohne die Tests laufen zu lassen."],
    replies: ["Der Fehler ist behoben, sollte jetzt gehen.", "Fertig, der Parser kommt mit leeren Eingaben klar."],
    tools: [["Edit", "src/parser.ts"]],
    cite: ["Die Regeln sagen: erst Tests, dann fertig.", "du sollst vorher die Tests laufen lassen"],
    plain: ["hast du das überhaupt getestet? zwei Tests schlagen fehl", "geht nicht", "CI ist rot"],
    cls: "false_success", component: "tests",
  },
];

/** Failures no rule covers: an instruction file that lacks a rule for them. */
export const GAP_TEMPLATES: readonly GapTemplate[] = [
  {
    key: "invented-api", lang: "en",
    replies: ["Use `Decimal.roundHalfEvenSafe()` to round the totals.", "Call `fs.readJsonSync()` from node:fs for that."],
    tools: [], complaints: ["that function doesn't exist", "there is no such API", "you made that method up"],
    cls: "fabrication", component: "api",
  },
  {
    key: "misread-task", lang: "en",
    replies: ["I rewrote the export as a PDF generator.", "Changed the login page colours as asked."],
    tools: [["Edit", "src/export.ts"]], complaints: ["no, I wanted CSV, not PDF", "I asked about the signup page", "that's not what I meant at all"],
    cls: "misunderstood_intent", component: "export",
  },
  {
    key: "stopped-short", lang: "en",
    replies: ["Updated the first two handlers; the rest follow the same pattern.", "I've done the model part, you can wire up the routes."],
    tools: [["Edit", "src/routes/a.ts"]], complaints: ["you only did two of the six", "finish all of them please", "the routes are still missing"],
    cls: "incomplete_work", component: "routes",
  },
  {
    key: "wrong-answer", lang: "en",
    replies: ["The timeout is 30 seconds by default.", "That flag was added in version 3."],
    tools: [], complaints: ["it's 60 seconds, check the config", "no, it was version 2", "that's wrong"],
    cls: "incorrect_output", component: "config",
  },
  {
    key: "gap-zh", lang: "zh",
    replies: ["使用 pandas.read_magic() 读取数据。", "调用 os.fastcopy() 即可。"],
    tools: [], complaints: ["这个函数根本不存在", "你编的吧", "没有这个 API"],
    cls: "fabrication", component: "api",
  },
  {
    key: "gap-de", lang: "de",
    replies: ["Ich habe nur die ersten zwei Endpunkte angepasst.", "Das Modell ist fertig, die Routen kannst du selbst machen."],
    tools: [], complaints: ["du hast nur zwei von sechs gemacht", "bitte alle fertig machen", "die Routen fehlen noch"],
    cls: "incomplete_work", component: "routes",
  },
];

/** Rules no failure touches, in the shapes of the real files (filler an index must rank below the right rule). */
export const FILLER_RULES: Readonly<Record<RuleLang, readonly string[]>> = {
  en: [
    "Keep functions under fifty lines where the logic allows it.",
    "Prefer early returns over nested conditionals.",
    "Name test files after the module they test.",
    "Document every exported function with a one-line summary.",
    "Use UTC for every stored timestamp.",
    "Log at info level only what an operator needs; details go to debug.",
    "PREFER composition over inheritance.",
    "AVOID global mutable state.",
    "Feature flags live in `config/flags.ts`.",
    "Write user-facing strings through the i18n helper.",
    "| Raw SQL built from strings | Use the query builder's bindings |",
    "| Catching and ignoring errors | Log with context and rethrow |",
    "Benchmarks go in `bench/`, never in unit tests.",
    "Migrations are append-only; never edit one that has shipped.",
  ],
  zh: ["函数尽量不超过五十行。", "所有时间戳使用 UTC。", "优先使用组合而不是继承。", "公开函数必须写注释。", "日志中不要打印用户数据。"],
  de: ["Funktionen möglichst unter fünfzig Zeilen halten.", "Zeitstempel immer in UTC speichern.", "Komposition statt Vererbung bevorzugen.", "Öffentliche Funktionen dokumentieren."],
};
