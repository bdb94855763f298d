/**
 * The owner's own values of the project a door writes from, never learned: found by the walk of
 * issue 34 as a user (docs/privacy.md, "Walked as a user on 2026-12-07"). The owner ran `errata
 * secrets learn` once, when they installed Errata, before the ledger knew any project; a bare
 * random value of the project's `.env` (`ORDERS_DB_PASS=...`), typed in a correction, in
 * `errata add`, in a reply the Stop hook kept, or in a prompt of a transcript, was written in
 * clear: no rule can know it, and the store did not hold it. Each door now reads the `.env`
 * files of the project it writes from (in memory, as the environment's values are).
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { setKnownSecrets } from "../../runtime/privacy/known-store.js";
import { knowProjectValues } from "../../runtime/privacy/index.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import type { HookIo } from "../../runtime/hooks/hook-main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { openRuleLedger } from "../../runtime/ladder/index.js";
import { pnpm, writeSession } from "../ladder/helpers.js";

// Drawn once with a seeded generator for this file (mixed case and digits: what the scrubber
// remembers; no rule finds a bare one in prose).
const BARE = "WAoDXAEv6vcdg7t3b3axIO";
const REPLY_ONLY = "q7RTm2Lx9KbVw4NcZp8Hs3Ye";
// A password of words: the pre-filter clears it in prose, so a Stop hook with no transcript kept it.
const WORDS = "maple orchard 42 lantern";

let tmp: { dir: string; cleanup: () => void };
let project: string;
let env: Record<string, string>;

/** Every file under `dir` whose text holds `value` (its relative path). */
function holding(dir: string, value: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => readFileSync(p, "utf8").includes(value))
    .map((p) => p.slice(dir.length + 1));
}

function hookIo(stdin: string, cwd: string): HookIo {
  return { readStdin: async () => stdin, stdout: { write: () => true }, stderr: { write: () => true }, env, cwd, now: () => Date.parse("2026-11-30T12:00:00.000Z") };
}

beforeEach(() => {
  setKnownSecrets({ values: [], store: null }); // nothing learned, no secret-looking environment
  tmp = tempDir("errata-project-values-");
  project = join(tmp.dir, "shop");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, ".env"), `ORDERS_DB_PASS=${BARE}\nREPORTS_API_KEY=${REPLY_ONLY}\nSTAGING_PASSWORD="${WORDS}"\nPORT=3000\n`);
  env = { HOME: tmp.dir, USER: "ana", XDG_DATA_HOME: join(tmp.dir, "data"), ERRATA_STATE_DIR: join(tmp.dir, "state"), ERRATA_V4_DIR: join(tmp.dir, "v4") };
});
afterEach(() => {
  setKnownSecrets({ values: [], store: null });
  tmp.cleanup();
});

describe("a project's .env values, never learned, are not written in clear", () => {
  it("errata add, run in the project: the complaint, the context fields and the attachment", async () => {
    const attach = join(tmp.dir, "notes.txt");
    writeFileSync(attach, `the staging one: ${BARE}\n`);
    const m = memoryIo({ env, cwd: project });
    const code = await run(["add", "--complaint", `it printed ${BARE}`, "--requested", `use ${BARE}`, "--response", `the password is ${BARE}`, "--attach", attach], m.io);
    expect(code, m.err()).toBe(0);
    expect(m.out()).not.toContain(BARE);
    expect(holding(join(tmp.dir, "data"), BARE)).toEqual([]);
    expect(holding(join(tmp.dir, "state"), BARE)).toEqual([]);
    expect(readdirSync(join(tmp.dir, "data", "errata")).some((f) => f.startsWith("errata-"))).toBe(true);
  });

  it("the prompt hook's capture and its deep context, with the hook run in the project", async () => {
    const transcript = join(tmp.dir, "s1.jsonl");
    const line = (type: "user" | "assistant", content: unknown, uuid: string, parent: string | null, ts: string) =>
      `${JSON.stringify({ type, uuid, parentUuid: parent, sessionId: "s1", cwd: project, timestamp: ts, message: type === "user" ? { role: "user", content } : { id: `m${uuid}`, role: "assistant", model: "claude-e2e", content } })}\n`;
    writeFileSync(
      transcript,
      line("user", `Why does the deploy fail? The staging password is ${BARE}.`, "u1", null, "2026-11-30T11:50:00.000Z") +
        line("assistant", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: `psql -c 'select 1' # ${BARE}` } }], "u2", "u1", "2026-11-30T11:50:10.000Z") +
        line("user", [{ type: "tool_result", tool_use_id: "t1", content: "ok" }], "u3", "u2", "2026-11-30T11:50:20.000Z") +
        line("assistant", [{ type: "text", text: `I used the reports key ${REPLY_ONLY}; ran npm install.` }], "u4", "u3", "2026-11-30T11:50:30.000Z"),
    );
    const prompt = `No, that's wrong, use pnpm not npm! And the value ${BARE} must never be printed.`;
    expect(await runHook(["user-prompt-submit"], hookIo(JSON.stringify({ session_id: "s1", cwd: project, transcript_path: transcript, prompt }), project))).toBe(0);
    const ledger = join(tmp.dir, "data", "errata");
    expect(readdirSync(ledger).some((f) => f.startsWith("errata-"))).toBe(true);
    expect(holding(ledger, BARE)).toEqual([]);
    expect(holding(ledger, REPLY_ONLY)).toEqual([]);
    expect(holding(join(tmp.dir, "state"), BARE)).toEqual([]);
    expect(holding(join(tmp.dir, "state"), REPLY_ONLY)).toEqual([]);
  });

  it("the Stop hook's kept reply, when there is no transcript to read it from later", async () => {
    const stop = JSON.stringify({ session_id: "s2", cwd: project, last_assistant_message: `Done: the staging login is ${WORDS} now.` });
    expect(await runHook(["stop"], hookIo(stop, project))).toBe(0);
    const kept = holding(join(tmp.dir, "state"), "s2");
    expect(kept.length).toBeGreaterThan(0);
    expect(holding(join(tmp.dir, "state"), WORDS)).toEqual([]);
    // The reply is withheld (its hash kept), as a reply holding any secret is.
    expect(JSON.parse(readFileSync(join(tmp.dir, "state", kept[0]!), "utf8"))).toMatchObject({ reply: null, reply_withheld: true });
  });

  it("the Stop hook's kept reply holds no learned value either (the pre-filter alone kept a password of words)", async () => {
    setKnownSecrets({ values: ["juniper kettle 7 harbor"], store: null });
    const stop = JSON.stringify({ session_id: "s4", last_assistant_message: "Done: log in with juniper kettle 7 harbor." });
    expect(await runHook(["stop"], hookIo(stop, tmp.dir))).toBe(0);
    expect(holding(join(tmp.dir, "state"), "s4").length).toBeGreaterThan(0);
    expect(holding(join(tmp.dir, "state"), "juniper kettle")).toEqual([]);
    // A reply with no secret at all is still kept as text.
    const plain = JSON.stringify({ session_id: "s5", last_assistant_message: "Done: the tests pass." });
    expect(await runHook(["stop"], hookIo(plain, tmp.dir))).toBe(0);
    expect(holding(join(tmp.dir, "state"), "the tests pass")).toHaveLength(1);
  });

  it("errata exchanges and errata mine, run from elsewhere over a transcript of the project", async () => {
    const root = join(tmp.dir, "projects", "shop");
    mkdirSync(root, { recursive: true });
    const line = (type: "user" | "assistant", content: unknown, uuid: string, parent: string | null, ts: string) =>
      `${JSON.stringify({ type, uuid, parentUuid: parent, sessionId: "s3", cwd: project, isSidechain: false, userType: "external", version: "2.1.9", timestamp: ts, message: type === "user" ? { role: "user", content } : { id: `m${uuid}`, role: "assistant", model: "claude-e2e", content } })}\n`;
    writeFileSync(
      join(root, "s3.jsonl"),
      line("user", `Deploy it. The staging password is ${BARE}.`, "v1", null, "2026-11-30T11:50:00.000Z") +
        line("assistant", [{ type: "text", text: `Deployed with ${REPLY_ONLY}.` }], "v2", "v1", "2026-11-30T11:50:30.000Z") +
        line("user", `No, that's wrong, you broke it again: ${BARE}`, "v3", "v2", "2026-11-30T11:51:00.000Z"),
    );
    for (const argv of [["exchanges", "--root", join(tmp.dir, "projects")], ["mine", "--root", join(tmp.dir, "projects")]]) {
      const m = memoryIo({ env, cwd: tmp.dir });
      expect(await run(argv, m.io), m.err()).toBe(0);
    }
    expect(statSync(join(tmp.dir, "v4", "exchanges.jsonl")).size).toBeGreaterThan(0);
    expect(readdirSync(join(tmp.dir, "data", "errata")).some((f) => f.startsWith("errata-"))).toBe(true);
    for (const dir of ["v4", "data", "state"]) {
      expect(holding(join(tmp.dir, dir), BARE), dir).toEqual([]);
      expect(holding(join(tmp.dir, dir), REPLY_ONLY), dir).toEqual([]);
    }
  });

  it("every command run in the project: the owner's reason for saying no (errata rules reject --why) and for loosening", async () => {
    const ledger = join(tmp.dir, "ledger");
    const ladder = join(ledger, "ladder");
    mkdirSync(ladder, { recursive: true });
    writeFileSync(join(project, "CLAUDE.md"), "- Use pnpm, never npm.\n");
    openRuleLedger(ladder).append([{ ...pnpm, text: "Use pnpm, never npm.", location: { kind: "text", file: join(project, "CLAUDE.md"), section: null } }]);
    const slip = [
      { prompt: "add lodash", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed with npm." },
      { prompt: "No, that's wrong. I told you to use pnpm, not npm.", reply: "Redone." },
    ];
    const t = [writeSession(tmp.dir, "a", "2026-11-20T10:00:00Z", slip), writeSession(tmp.dir, "b", "2026-11-24T10:00:00Z", slip)];
    const cli = async (argv: string[]) => {
      const m = memoryIo({ env: { ...env, ERRATA_DIR: ledger }, cwd: project, now: Date.parse("2026-11-26T03:00:00Z") });
      const code = await run(argv, m.io);
      expect(code, m.err()).toBe(0);
      return m.out();
    };
    const id = (JSON.parse(await cli(["rules", "audit", "--transcript", ...t, "--json"])) as { proposals: string[] }).proposals[0]!;
    await cli(["rules", "reject", id, "--why", `not now, it needs ${BARE}`]);
    await cli(["rules", "loosen", pnpm.rule_id, "--why", `it blocked the deploy with ${REPLY_ONLY}`]);
    expect(readFileSync(join(ladder, "proposals.jsonl"), "utf8")).toContain("[REDACTED:known-secret]");
    expect(holding(ledger, BARE)).toEqual([]);
    expect(holding(ledger, REPLY_ONLY)).toEqual([]);
  });

  it("knowProjectValues: the .env values of a folder, in memory; a folder with none, or none at all, adds nothing", () => {
    expect(redactSecrets(`x ${BARE} y`).text).toBe(`x ${BARE} y`);
    knowProjectValues(join(tmp.dir, "no-such-folder"));
    knowProjectValues(tmp.dir);
    expect(redactSecrets(`x ${BARE} y`).text).toBe(`x ${BARE} y`);
    knowProjectValues(project);
    expect(redactSecrets(`x ${BARE} y ${REPLY_ONLY}`).text).toBe("x [REDACTED:known-secret] y [REDACTED:known-secret]");
    // Nothing of the project is written: the values stay in this process's memory.
    expect(readdirSync(tmp.dir).sort()).toEqual(["shop"]);
    expect(redactSecrets("PORT 3000 stays").text).toBe("PORT 3000 stays");
  });
});
