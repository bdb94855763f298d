// The hook validates checks by hand (it cannot load zod); the writers use the zod schema.
// On generated near-valid checks the two must agree, or a check the CLI writes could be
// refused by the hook (or a hand-written one accepted that the CLI would refuse).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHECK_ACTIONS, CHECK_FIELDS, CHECK_OPERATORS, REWRITE_FIELDS } from "../../core/check-vocabulary.js";
import { preToolUseOutput } from "../../runtime/hooks/pre-tool-use.js";
import { CheckFileError, compileChecks, evaluateChecks, validateCheck, type Check } from "../../runtime/ladder-formats/checks.js";
import { CheckSchema } from "../../schemas/ladder-checks.js";

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Mostly a valid value, sometimes a wrong one: most candidates are near the boundary. */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) => fc.oneof({ weight: 12, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: bad });
const word = fc.constantFrom("", "x", 3, null, "nope");
const condition = fc.record({
  field: mostly(fc.constantFrom(...CHECK_FIELDS), word),
  operator: mostly(fc.constantFrom(...CHECK_OPERATORS), word),
  pattern: mostly(fc.string({ maxLength: 4 }), fc.constant(3)),
  not: maybe(mostly(fc.boolean(), fc.constant("yes"))),
});
const candidate = fc.record(
  {
    id: mostly(fc.constantFrom("a", "no-npm"), word),
    rule_id: maybe(mostly(fc.constantFrom(null, "r1"), fc.constant(7))),
    tools: mostly(fc.oneof(fc.constant("*"), fc.array(fc.constantFrom("Bash", "Edit"), { minLength: 1, maxLength: 2 })), fc.oneof(fc.constant([]), fc.constant([""]), fc.constant("Bash"))),
    conditions: mostly(fc.array(condition, { minLength: 1, maxLength: 2 }), fc.constant([])),
    action: mostly(fc.constantFrom(...CHECK_ACTIONS), word),
    message: mostly(fc.constant("Use pnpm."), fc.constantFrom("", "  ")),
    rewrite: maybe(
      fc.record({
        field: mostly(fc.constantFrom(...REWRITE_FIELDS), word),
        pattern: mostly(fc.constant("^npm"), fc.constant("")),
        replacement: mostly(fc.constantFrom("pnpm", ""), fc.constant(1)),
        decision: maybe(mostly(fc.constantFrom("ask", "allow"), fc.constant("maybe"))),
      }),
    ),
    mode: mostly(fc.constantFrom("active", "shadow"), fc.constant("off")),
    holdout: maybe(mostly(fc.record({ one_in: fc.constantFrom(2, 5, 1000), seed: fc.constantFrom(0, 1, -7) }), fc.constantFrom({ one_in: 1, seed: 1 }, { one_in: 1001, seed: 1 }, { one_in: 2.5, seed: 1 }, { one_in: 5, seed: 0.5 }, { one_in: 5 }, [5, 1], "1-in-5"))),
  },
  { requiredKeys: ["id", "tools", "conditions", "action", "message", "mode"] },
);

const strip = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));

describe("a check's shape: the hook's validator and the zod schema agree", () => {
  it("on generated candidates, each accepts exactly what the other accepts", () => {
    let accepted = 0;
    fc.assert(
      fc.property(candidate, (raw) => {
        const v = strip(raw as Record<string, unknown>);
        const zodOk = CheckSchema.safeParse(v).success;
        let handOk = true;
        try {
          validateCheck(v, "f", "c");
        } catch (err) {
          expect(err).toBeInstanceOf(CheckFileError);
          handOk = false;
        }
        if (zodOk) accepted++;
        expect(handOk).toBe(zodOk);
      }),
      { numRuns: 3000, seed: 22 },
    );
    expect(accepted).toBeGreaterThan(300); // the generator reaches both sides of the boundary
  });
});

describe("the PreToolUse output, on generated checks and calls", () => {
  it("only Claude Code's PreToolUse fields; never systemMessage; a deny or ask always carries its reason", () => {
    const valid = candidate.filter((c) => CheckSchema.safeParse(strip(c as Record<string, unknown>)).success);
    const call = fc.record({ tool_name: fc.constantFrom("Bash", "Edit", "Write", "mcp__x"), tool_input: fc.record({ command: fc.constantFrom("npm i", "ls", "x"), file_path: fc.constantFrom("/a.ts", "/b.lock"), content: fc.string({ maxLength: 3 }) }, { requiredKeys: [] }) });
    let nonEmpty = 0;
    fc.assert(
      fc.property(fc.array(valid, { maxLength: 4 }), call, (checks, c) => {
        const list = checks.map((k) => strip(k as Record<string, unknown>)) as unknown as Check[];
        let compiles = true;
        try {
          compileChecks(list);
        } catch {
          compiles = false; // refused at load (a pattern that is not a regex): never evaluated
        }
        fc.pre(compiles);
        const out = preToolUseOutput(evaluateChecks(list, c));
        if (out === "") return;
        nonEmpty++;
        const v = JSON.parse(out) as Record<string, Record<string, unknown>>;
        expect(Object.keys(v)).toEqual(["hookSpecificOutput"]);
        const h = v["hookSpecificOutput"]!;
        expect(Object.keys(h).every((k) => ["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"].includes(k))).toBe(true);
        expect(h["hookEventName"]).toBe("PreToolUse");
        if (h["permissionDecision"] === "deny" || h["permissionDecision"] === "ask") expect(typeof h["permissionDecisionReason"]).toBe("string");
        if (h["permissionDecision"] === undefined) expect(typeof h["additionalContext"]).toBe("string");
      }),
      { numRuns: 1500, seed: 23 },
    );
    expect(nonEmpty).toBeGreaterThan(50);
  });
});
