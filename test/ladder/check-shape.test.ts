// The hook validates checks by hand (it cannot load zod); the writers use the zod schema.
// On generated near-valid checks the two must agree, or a check the CLI writes could be
// refused by the hook (or a hand-written one accepted that the CLI would refuse).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHECK_ACTIONS, CHECK_FIELDS, CHECK_OPERATORS, REWRITE_FIELDS } from "../../core/check-vocabulary.js";
import { CheckFileError, validateCheck } from "../../runtime/hooks/tool-checks.js";
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
