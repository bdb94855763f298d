/**
 * Only the commands in the scope of a negation are forbidden: a backticked command that a rule
 * prescribes before its "not / instead of" is not read as broken by the witness, nor drafted
 * into a check. The two rules are real (datasets/claude-md: TensorTemplar__slopometry/CLAUDE.md,
 * Shopify__ruby-lsp/AGENTS.md); each gave a false incident in the naming set.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandPatterns, derivedWitness } from "../../runtime/ladder/index.js";

const sources = (text: string): string[] => commandPatterns(text).map((p) => p.source);
const fires = (text: string, command: string): boolean => {
  const w = derivedWitness(text);
  return w !== null && w.field === "command" && new RegExp(w.pattern, "iu").test(command);
};

describe("a command is forbidden only in the scope of a negation", () => {
  it("the prescribed command before 'not' / 'instead of' is not forbidden (real rules)", () => {
    const slop = "- Complexity analysis uses `rust-code-analysis` (via Python package), not the abandoned `radon` tool";
    expect(sources(slop)).toEqual(["`radon`"]);
    expect(fires(slop, "rust-code-analysis-cli -m -p src")).toBe(false);
    expect(fires(slop, "uvx radon cc src")).toBe(true);
    const lsp = "Pass flags through `pnpm run test --` so they reach `vscode-test` instead of being consumed by pnpm:";
    expect(sources(lsp)).toEqual([]);
    expect(derivedWitness(lsp)).toBeNull();
    expect(fires(lsp, "pnpm run test -- --run out/test/suite/workspace.test.js")).toBe(false);
  });

  it("each form of the negation keeps its own scope", () => {
    expect(sources("- Install: `pnpm install` (never `npm`/`yarn`).")).toEqual(["`npm`", "`yarn`"]);
    expect(sources("- TypeScript scripts: `npx tsx <script>` — never `ts-node`.")).toEqual(["`ts-node`"]);
    expect(sources("Avoid `make typecheck` and `make test` between edits — both are slow.")).toEqual(["`make typecheck`", "`make test`"]);
    expect(sources("Don't use `npm install`, use `pnpm install` instead.")).toEqual(["`npm install`"]);
    expect(sources("Instead of `npm ci`, run `pnpm install --frozen-lockfile`.")).toEqual(["`npm ci`"]);
    expect(sources("`git commit --amend` is forbidden on shared branches.")).toContain("`git commit --amend`");
    expect(sources("Use `uv run pytest`; `pip install` is not allowed.")).toEqual(["`pip install`"]);
    expect(sources("Never commit without running `npm test` first.")).not.toContain("`npm test`");
    // A statement of what a command does not do forbids nothing.
    expect(sources("- Root `npm run lint` does not typecheck the website client.")).toEqual([]);
    expect(sources("- Before `gh pr merge`: every `statusCheckRollup` entry must be non-FAILURE (not just required ones).")).toEqual([]);
    // The languages the clause reader knows: German, Chinese (before), Japanese (after).
    expect(sources("Verwende `pnpm install`, niemals `npm install`.")).toEqual(["`npm install`"]);
    expect(sources("请用 `pnpm install`，不要用 `npm install`。")).toEqual(["`npm install`"]);
    expect(sources("`pnpm install` を使い、`npm install` は使わないでください。")).toEqual(["`npm install`"]);
  });

  it("a backticked span with a full stop inside stays one command (the clause is not cut inside it)", () => {
    expect(sources("- Use `.nullish()` instead of `.optional()`")).toEqual([]);
    expect(sources("Run `make test.unit`, never `go test ./...` directly.")).toEqual(["`go test ./...`"]);
  });

  it("property: in 'Use `a` instead of `b`' and '`a`, not `b`' only b is forbidden", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{2,10}$/);
    fc.assert(
      fc.property(name, name, fc.constantFrom("Use `A` instead of `B`.", "Run `A`, not `B`.", "Prefer `A`; never `B`.", "`A` rather than `B`"), (a, b, form) => {
        fc.pre(a !== b);
        const text = form.replace("A", a).replace("B", b);
        expect(sources(text)).toEqual([`\`${b}\``]);
        expect(fires(text, `${a} --help`)).toBe(false);
        expect(fires(text, `${b} --help`)).toBe(true);
      }),
    );
  });
});
