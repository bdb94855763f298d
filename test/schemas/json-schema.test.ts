import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonSchemaFiles } from "../../schemas/json-schemas.js";

const dir = fileURLToPath(new URL("../../schemas/json/", import.meta.url));

describe("committed JSON Schema", () => {
  const generated = jsonSchemaFiles();
  it("has exactly the generated files", () => {
    expect(readdirSync(dir).filter((f) => f.endsWith(".json")).sort()).toEqual(Object.keys(generated).sort());
  });
  for (const [file, text] of Object.entries(generated)) {
    it(`${file} matches z.toJSONSchema (regenerate: npm run build && node scripts/export-json-schemas.js)`, () => {
      expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    });
  }
  it("states the rating scale and the required model", () => {
    const erratum = JSON.parse(generated["erratum.schema.json"]!);
    expect(erratum.properties.rating.anyOf[0]).toMatchObject({ minimum: 1, maximum: 10 });
    expect(erratum.required).toContain("schema");
    const enrichment = JSON.parse(generated["enrichment.schema.json"]!);
    expect(enrichment.required).toContain("model");
    expect(enrichment.properties.model.minLength).toBe(1);
  });
  it("states the answer union: scored carries p_yes in [0, 1], unscored a reason and no probability", () => {
    const answer = JSON.parse(generated["answer.schema.json"]!);
    const [scored, unscored] = answer.oneOf;
    expect(scored.properties.status.const).toBe("scored");
    expect(scored.properties.p_yes).toEqual({ type: "number", minimum: 0, maximum: 1 });
    expect(scored.properties.reason).toEqual({ type: "null" });
    expect(unscored.properties.status.const).toBe("unscored");
    expect(unscored.properties.p_yes).toEqual({ type: "null" });
    expect(unscored.properties.reason).toEqual({ type: "string", minLength: 1 });
    expect(scored.required).toEqual(expect.arrayContaining(["status", "p_yes", "reason", "computed_from"]));
  });
});
