// Writes schemas/json/*.schema.json from the compiled zod schemas.
// Usage: npm run build && node scripts/export-json-schemas.js
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const root = fileURLToPath(new URL("..", import.meta.url));
const { jsonSchemaFiles } = await import(new URL("../dist/schemas/json-schemas.js", import.meta.url).href);
const dir = join(root, "schemas", "json");
mkdirSync(dir, { recursive: true });
for (const [file, text] of Object.entries(jsonSchemaFiles())) {
  writeFileSync(join(dir, file), text);
  process.stdout.write(`wrote schemas/json/${file}\n`);
}
