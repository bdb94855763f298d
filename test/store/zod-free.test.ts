import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./compile-for-child.js";

/** Every module reachable by value imports from `file` (type-only imports are erased). */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  if (file.endsWith(".json")) return seen; // a JSON module is data (the redactor's rules)
  const src = readFileSync(join(repoRoot, file), "utf8");
  for (const m of src.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)) {
    const spec = m[1]!;
    if (spec.startsWith(".")) reachable(normalize(join(dirname(file), spec)).replace(/\.js$/, ".ts"), seen);
    else seen.add(spec);
  }
  return seen;
}

describe("the hook's write path loads neither zod nor commander", () => {
  for (const entry of [
    "runtime/store/append-line.ts",
    "runtime/store/raw-append.ts",
    "runtime/store/attachments.ts",
    "runtime/store/er-grammar.ts",
    "runtime/store/ids.ts",
    "runtime/store/record.ts",
    "runtime/privacy/redact.ts",
    "runtime/privacy/pseudonym.ts",
    "schemas/erratum-constants.ts",
  ]) {
    it(entry, () => {
      const deps = [...reachable(entry)];
      expect(deps.filter((d) => !d.startsWith("node:") && !d.endsWith(".ts") && !d.endsWith(".json"))).toEqual([]);
    });
  }
  it("the check sees through to zod where it is imported", () => {
    expect([...reachable("runtime/store/ledger.ts")]).toContain("zod");
  });
});
