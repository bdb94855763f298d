// The hook fields the real client sends, against the recorded fixture the docs table is made
// from (scripts/hook-fields.mjs -> docs/claude-code-hooks.md): a client upgrade that adds,
// drops or retypes a field fails here. Re-record with ERRATA_E2E_UPDATE_PAYLOADS=1, then run
// `node scripts/hook-fields.mjs`. The page's agreement with the fixture is checked without the client.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { clientReady, CLAUDE_CODE_VERSION, HANG_GUARD_MS, installErrata, readmeHooks, readPayloads, repoRoot, runClient, workspace, type Workspace } from "./client.js";
import { startModelServer, type ModelServer } from "./model-server.js";

const FIXTURE = join(repoRoot, "test", "e2e", "fixtures", "hook-payloads.json");
type Fixture = { client_version: string; events: Record<string, Array<Record<string, unknown>>> };

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
/** event -> sorted "path: type" lines, one level into objects (scripts/hook-fields.mjs reads the same). */
function shape(events: Fixture["events"]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [event, payloads] of Object.entries(events)) {
    const set = new Set<string>();
    for (const p of payloads) {
      for (const [k, v] of Object.entries(p)) {
        set.add(`${k}: ${typeOf(v)}`);
        if (typeOf(v) === "object") for (const [k2, v2] of Object.entries(v as object)) set.add(`${k}.${k2}: ${typeOf(v2)}`);
      }
    }
    out[event] = [...set].sort();
  }
  return out;
}

/** Paths and ids of this run replaced by placeholders, so the fixture is the same on every machine. */
function normalize(ws: Workspace, root: string, v: unknown): unknown {
  if (typeof v === "string") {
    return v
      .replaceAll(ws.project, "<project>")
      .replaceAll(ws.home, "<home>")
      .replaceAll(root, "<tmp>")
      .replaceAll(root.replaceAll("/", "-"), "<tmp-slug>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/toolu_e2e\d+/g, "<tool_use_id>");
  }
  if (Array.isArray(v)) return v.map((x) => normalize(ws, root, x));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(ws, root, x)]));
  return v;
}

describe("docs/claude-code-hooks.md", () => {
  it("is what scripts/hook-fields.mjs makes of the recorded payloads", () => {
    const r = spawnSync(process.execPath, [join(repoRoot, "scripts", "hook-fields.mjs"), "--check"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe.skipIf(!clientReady())(`the hook fields the real client sends (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let ws: Workspace;
  beforeAll(async () => {
    tmp = tempDir("errata-e2e-fields-");
    server = await startModelServer();
    ws = workspace(tmp.dir, await installErrata(), { hooks: readmeHooks({ record: true }), claudeMd: "# Project\n\n- Use pnpm, never npm.\n" });
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  it("sends the fields the fixture holds, each of the same type, for every event", async () => {
    server.script([{ tool: "Bash", input: { command: "ls", description: "List the files" } }, { text: "Two files." }, { text: "You're welcome." }]);
    expect((await runClient(ws, server.url, "List the files.")).code).toBe(0);
    expect((await runClient(ws, server.url, "Thanks.", { continue: true })).code).toBe(0);
    const events: Fixture["events"] = {};
    for (const { event, payload } of readPayloads(ws)) (events[event] ??= []).push(normalize(ws, tmp.dir, payload) as Record<string, unknown>);
    if (process.env["ERRATA_E2E_UPDATE_PAYLOADS"] === "1") writeFileSync(FIXTURE, `${JSON.stringify({ client_version: CLAUDE_CODE_VERSION, events }, null, 2)}\n`);
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;
    expect(fixture.client_version).toBe(CLAUDE_CODE_VERSION);
    expect(shape(events)).toEqual(shape(fixture.events));
  });
});
