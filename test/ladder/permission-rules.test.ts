// A check in Claude Code's permission-rule syntax: the `if` rules that cover every call it can
// fire on, and the native deny rules for a pure command pattern (runtime/ladder-formats/permission-rules.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateChecks, type Check } from "../../runtime/ladder-formats/checks.js";
import { ifRules, nativeDenyRules } from "../../runtime/ladder-formats/permission-rules.js";

const drafted = (word: string, over: Partial<Check> = {}): Check => ({ id: `no-${word}`, rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: `(^|[;&|]\\s*)${word}\\b` }], action: "deny", message: "m", mode: "active", ...over });

/** How the client reads a prefix rule on one simple command (no chains): `Bash(x)` exactly, `Bash(x *)` and `Bash(x*)` by prefix. */
function ruleMatches(rule: string, command: string): boolean {
  const body = /^Bash\((.*)\)$/.exec(rule)?.[1];
  if (body === undefined) return false;
  return body.endsWith("*") ? command.startsWith(body.slice(0, -1)) : command === body;
}

describe("permission rules of a check", () => {
  it("reference values: the drafted word check, a starts_with check, and checks with no prefix form", () => {
    expect(ifRules(drafted("npm"))).toEqual(["Bash(npm*)"]);
    expect(nativeDenyRules(drafted("npm"))).toEqual(["Bash(npm)", "Bash(npm *)"]);
    const push: Check = { ...drafted("x"), id: "push", conditions: [{ field: "command", operator: "starts_with", pattern: "git push" }], action: "warn" };
    expect(ifRules(push)).toEqual(["Bash(git push*)"]);
    expect(nativeDenyRules(push)).toBeNull();
    expect(ifRules({ ...push, conditions: [{ field: "command", operator: "contains", pattern: "colour" }] })).toBeNull();
    expect(ifRules({ ...push, conditions: [{ field: "command", operator: "starts_with", pattern: "a*b" }] })).toBeNull();
    expect(ifRules({ ...drafted("npm"), tools: ["Bash", "Write"] })).toBeNull();
    // Negated, a shadow check, a second condition: no native rule (the hook decides those).
    expect(nativeDenyRules({ ...drafted("npm"), conditions: [{ ...drafted("npm").conditions[0]!, not: true }] })).toBeNull();
    expect(nativeDenyRules(drafted("npm", { mode: "shadow" }))).toBeNull();
    expect(nativeDenyRules(drafted("npm", { action: "ask" }))).toBeNull();
    expect(nativeDenyRules({ ...drafted("npm"), conditions: [...drafted("npm").conditions, { field: "command", operator: "contains", pattern: "i" }] })).toBeNull();
    // Any one condition's rules cover the check (conditions all hold when it fires).
    expect(ifRules({ ...drafted("npm"), conditions: [{ field: "command", operator: "contains", pattern: "install" }, ...drafted("npm").conditions] })).toEqual(["Bash(npm*)"]);
  });

  it("property: every simple command a check fires on is matched by one of its if rules (a superset: the handler never misses a call)", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
    const command = fc.tuple(fc.constantFrom("", "npm", "pnpm", "git"), fc.constantFrom("", " ", " i", "-x", " run build", "x")).map(([a, b]) => `${a}${b}`);
    fc.assert(
      fc.property(word, fc.array(command, { minLength: 1, maxLength: 8 }), fc.boolean(), (w, commands, startsWith) => {
        const check: Check = startsWith ? { ...drafted(w), conditions: [{ field: "command", operator: "starts_with", pattern: w }] } : drafted(w);
        const rules = ifRules(check)!;
        for (const c of [...commands, w, `${w} x`, `${w}-x`, `${w}.y`]) {
          const fired = evaluateChecks([check], { tool_name: "Bash", tool_input: { command: c } }).fired.length > 0;
          if (fired && !/[;&|]/.test(c)) expect(rules.some((r) => ruleMatches(r, c)), `${c} under ${JSON.stringify(rules)}`).toBe(true);
        }
      }),
    );
  });

  it("property: a native deny rule blocks only commands its check also denies (never more than the owner approved)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), fc.stringMatching(/^[a-z0-9 .-]{0,10}$/), (w, rest) => {
        const check = drafted(w);
        const c = `${w}${rest}`;
        if ((nativeDenyRules(check) ?? []).some((r) => ruleMatches(r, c))) expect(evaluateChecks([check], { tool_name: "Bash", tool_input: { command: c } }).decision).toBe("deny");
      }),
    );
  });
});
