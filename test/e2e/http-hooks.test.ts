// A team's client reporting to one server, in the real client: the project's settings hold
// `type: "http"` hooks (UserPromptSubmit, Stop, PreToolUse, InstructionsLoaded) pointed at an
// in-process `errata serve` (the installed package's modules) with the developer's token in a
// header taken from the environment, as docs/intake.md writes them. No errata process runs on
// the developer's side: the check the server holds for the developer denies the model's `npm`
// call (the reason reaches the model in the tool's result), the owner's correction is captured
// in the developer's folder on the server, and the instruction file the client loaded is
// logged there.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ServerModule from "../../runtime/server/index.js";
import type * as StoresModule from "../../runtime/stores/index.js";
import { tempDir } from "../helpers/io.js";
import { clientReady, clientSession, CLAUDE_CODE_VERSION, HANG_GUARD_MS, installErrata, workspace, type Workspace } from "./client.js";
import { startModelServer, type ModelServer } from "./model-server.js";

describe.skipIf(!clientReady())(`http hooks to one server, in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let model: ModelServer;
  let app: FastifyInstance;
  let url: string;
  let token: string;
  let ws: Workspace;
  const get = async (path: string) => (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<Record<string, unknown>>;
  /** A ladder log of the developer's folder on the server, each line parsed. */
  const log = async (file: string) => ((await get(`/v1/hooks/ladder/${file}`))["lines"] as string[]).map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    tmp = tempDir("errata-e2e-http-");
    // The server as the team installs it: the packed tarball's compiled modules, which Node
    // loads itself (a package under node_modules is not transformed by vitest). Importing the
    // TypeScript sources instead had vitest transform the server's whole module graph: 87 s of
    // transform and 131 s of import (wall, load average ~18) and ~6 CPU-s, for a 14 s test.
    const pkg = join(dirname(await installErrata()), "errata");
    const load = <T>(rel: string) => import(pathToFileURL(join(pkg, "dist", "runtime", rel)).href) as Promise<T>;
    const [{ buildServer }, { openJsonlStore }] = await Promise.all([load<typeof ServerModule>("server/index.js"), load<typeof StoresModule>("stores/index.js")]);
    model = await startModelServer();
    const dir = join(tmp.dir, "srv");
    const store = openJsonlStore(dir);
    token = (await store.addToken("acme", "ana", new Date().toISOString())).token;
    app = await buildServer({ store, dir });
    url = await app.listen({ port: 0, host: "127.0.0.1" });
    const http = (route: string) => ({ type: "http" as const, url: `${url}/v1/hooks/${route}`, headers: { Authorization: "Bearer $ERRATA_TOKEN" }, allowedEnvVars: ["ERRATA_TOKEN"] });
    // No errata on the developer's PATH: only the server answers.
    const bin = join(tmp.dir, "bin");
    mkdirSync(bin);
    ws = workspace(join(tmp.dir, "ws"), bin, {
      hooks: {
        UserPromptSubmit: [{ hooks: [http("user-prompt-submit")] }],
        Stop: [{ hooks: [http("stop")] }],
        PreToolUse: [{ matcher: "*", hooks: [http("pre-tool-use")] }],
        InstructionsLoaded: [{ hooks: [http("instructions-loaded")] }],
      },
      claudeMd: "# Demo\n\n- Use pnpm, never npm, to list or install packages.\n",
    });
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await app?.close();
    await model?.close();
    tmp?.cleanup();
  });

  it("the server's check denies the npm call, the correction is captured there, and the loaded CLAUDE.md is logged there", async () => {
    // The check the developer's ladder pushed (errata sync --hooks does this PUT).
    const put = await fetch(`${url}/v1/hooks/ladder/checks.json`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ version: 1, checks: [{ id: "no-npm", rule_id: "claude.tools.1a2b3c", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm, not npm.", mode: "active" }] }),
    });
    expect(put.status).toBe(200);
    model.script([
      { tool: "Bash", input: { command: "npm ls --depth=0", description: "List the packages" } },
      { text: "npm was refused; the project has no packages." },
      { text: "Understood: pnpm from now on." },
    ]);
    const session = clientSession(ws, model.url, { env: { ERRATA_TOKEN: token } });
    const first = await session.turn("Which packages does the project have?");
    expect(first).toMatchObject({ subtype: "success", is_error: false });
    const second = await session.turn("No, that's wrong. I told you to use pnpm, not npm.");
    expect(second).toMatchObject({ subtype: "success", is_error: false, session_id: first.session_id });
    const ended = await session.end();
    expect(ended.code, ended.stderr).toBe(0);
    expect(model.pending()).toBe(0);

    // The deny's reason came back to the model as the tool's result.
    const bodies = model.requests.filter((q) => q.main).map((q) => JSON.stringify(q.body.messages ?? []));
    expect(bodies.some((b) => b.includes("[errata check no-npm, rule claude.tools.1a2b3c] Use pnpm, not npm."))).toBe(true);
    // The server logged the deny, the instruction file, and captured the correction, all in ana's folder.
    const tools = await log("tool-events.jsonl");
    expect(tools.some((l) => l["session_id"] === first.session_id && JSON.stringify(l).includes("no-npm"))).toBe(true);
    const loaded = await log("instructions-loaded.jsonl");
    expect(loaded.map((l) => [l["session_id"], l["file_path"], l["load_reason"]])).toContainEqual([first.session_id, join(ws.project, "CLAUDE.md"), "session_start"]);
    const errata = (await get("/v1/hooks/errata"))["errata"] as Array<{ erratum: { kind: string; context: { session_id: string | null } } }>;
    expect(errata.map((e) => [e.erratum.kind, e.erratum.context.session_id])).toEqual([["correction", first.session_id]]);
  });
});
