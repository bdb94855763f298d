// The capture in the real Claude Code client (pinned; test/e2e/client.ts), Errata installed as
// the README says: corrections, ratings, praise and a standing directive typed in English,
// German and Finnish, each from the payload the client really sends; an ordinary prompt writes
// nothing; the row's reply hash is the hash of the reply the client wrote to its transcript;
// the host line reaches the model; InstructionsLoaded records the files that loaded.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { clientReady, clientSession, CLAUDE_CODE_VERSION, HANG_GUARD_MS, installErrata, ledgerRows, readmeHooks, readPayloads, runClient, transcripts, workspace, type ClientSession, type Workspace } from "./client.js";
import { contentText, startModelServer, type ModelServer, type RecordedRequest } from "./model-server.js";

const ready = clientReady();
const sha = (s: string) => `sha256:${createHash("sha256").update(s, "utf8").digest("hex")}`;

/** The last assistant text of a transcript the client wrote. */
function lastReply(file: string): string {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { type?: string; message?: { content?: unknown } });
  for (const l of lines.reverse()) {
    if (l.type !== "assistant" || !Array.isArray(l.message?.content)) continue;
    const text = (l.message.content as Array<{ type: string; text?: string }>).filter((b) => b.type === "text").map((b) => b.text ?? "").join("\n");
    if (text !== "") return text;
  }
  return "";
}

// From test/classifier/lang/<code>.jsonl: the labelled prompts, each with the reply it answers.
const LANGS = [
  {
    code: "en",
    reply: "I've updated the config loader and the tests pass now.",
    ordinary: "Now add a test for the empty config file.",
    correction: "No, that's wrong. The config lives in ~/.config",
    rating: "3/10",
    praise: "Great job!",
    directive: "From now on, always run the linter before committing.",
  },
  {
    code: "de",
    reply: "Ich habe den Konfigurationslader aktualisiert, die Tests laufen jetzt durch.",
    ordinary: "Füge jetzt einen Test für die leere Konfigurationsdatei hinzu.",
    correction: "Nein, das ist falsch. Die Config liegt unter ~/.config",
    rating: "3/10",
    praise: "Gut gemacht!",
    directive: "Ab jetzt bitte immer den Linter vor dem Commit laufen lassen.",
  },
  {
    code: "fi",
    reply: "Päivitin konfiguraation latauksen ja testit menevät nyt läpi.",
    ordinary: "Lisää nyt testi tyhjälle asetustiedostolle.",
    correction: "Ei, tuo on väärin. Asetukset ovat kotihakemistossa.",
    rating: "3/10",
    praise: "Hienoa työtä!",
    directive: "Tästä lähtien aja aina linteri ennen committia.",
  },
] as const;

// kind typed -> (row kind, rating kept, the host line's words)
const EXPECT = {
  correction: { kind: "correction", rating: null, said: "a correction" },
  rating: { kind: "complaint", rating: 3, said: "a complaint" },
  praise: { kind: "praise", rating: null, said: "praise" },
  directive: { kind: "directive", rating: null, said: "a standing directive" },
} as const;

describe.skipIf(!ready)(`capture in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let bin: string;
  /** Each language's workspace, once its test has run it. */
  const staged: Partial<Record<(typeof LANGS)[number]["code"], Workspace>> = {};
  /** The first request of the English session (its `claude -p` run). */
  let enFirst: RecordedRequest | undefined;
  beforeAll(async () => {
    tmp = tempDir("errata-e2e-capture-");
    bin = await installErrata();
    server = await startModelServer();
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  for (const lang of LANGS) {
    it(`${lang.code}: a correction, a rating, praise and a directive are captured; an ordinary prompt writes nothing`, async () => {
      // The README's hooks; in English the recorder beside each as well, whose payloads the last
      // test reads (one client start fewer than a session of its own). The session id is the
      // client's own, from the name of the transcript it writes (the last test holds that name
      // to the hook payload's session_id).
      const ws: Workspace = workspace(join(tmp.dir, lang.code), bin, { hooks: readmeHooks({ record: lang.code === "en" }), claudeMd: "# Project\n\n- Keep the config loader small.\n" });
      staged[lang.code] = ws;
      // Every prompt answers the same reply, so each row's reply is known.
      server.script(Array.from({ length: 6 }, () => ({ text: lang.reply })));
      // One client process takes the language's six prompts, one turn each (clientSession). In
      // English the first prompt is a `claude -p` run of its own and the other five continue it
      // (`-c`), as an owner at a terminal would: the continued session is the same session.
      let session: ClientSession;
      const opening = "Update the config loader so it reads the user's settings.";
      if (lang.code === "en") {
        const asked = server.requests.length;
        const first = await runClient(ws, server.url, opening);
        enFirst = server.requests.slice(asked).find((q) => q.main);
        expect(first.code, first.stderr).toBe(0);
        expect(first.stdout.trim()).toBe(lang.reply);
        session = clientSession(ws, server.url, { args: ["-c"] });
      } else {
        session = clientSession(ws, server.url);
        const first = await session.turn(opening);
        expect(first).toMatchObject({ subtype: "success", is_error: false, result: lang.reply });
      }
      const [transcript] = transcripts(ws);
      expect(transcript).toBeDefined();
      expect(lastReply(transcript!)).toBe(lang.reply);

      const ordinary = await session.turn(lang.ordinary);
      expect(ordinary).toMatchObject({ subtype: "success", is_error: false, result: lang.reply });
      expect(ledgerRows(ws)).toEqual([]);

      const sessionId = basename(transcript!, ".jsonl");
      expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(ordinary.session_id).toBe(sessionId);
      for (const typed of ["correction", "rating", "praise", "directive"] as const) {
        const before = ledgerRows(ws).length;
        const asked = server.requests.length;
        const r = await session.turn(lang[typed]);
        expect(r, `${lang.code} ${typed}`).toMatchObject({ subtype: "success", is_error: false, result: lang.reply });
        const rows = ledgerRows(ws);
        expect(rows.length, `${lang.code} ${typed}`).toBe(before + 1);
        const row = rows.at(-1)!;
        const ctx = row["context"] as Record<string, unknown>;
        expect({ kind: row["kind"], rating: row["rating"], complaint: row["complaint"], source: row["source"], channel: row["channel"] }).toEqual({
          kind: EXPECT[typed].kind,
          rating: EXPECT[typed].rating,
          complaint: lang[typed],
          source: "owner",
          channel: "hook",
        });
        // The reply it answered, read from the client's own transcript, by hash and preview.
        expect(ctx["response_hash"]).toBe(sha(lang.reply));
        expect(ctx["response_preview"]).toBe(lang.reply);
        expect(ctx["session_id"]).toBe(sessionId);
        expect(ctx["version"]).toBe(CLAUDE_CODE_VERSION);
        expect(ctx["cwd"]).toBe(ws.project);
        // The host line reached the model in the same turn's request, and claims no more than the append.
        const turn = server.requests.slice(asked).find((q) => q.main)!;
        const seen = (turn.body.messages ?? []).map((m) => contentText(m.content)).join("\n");
        expect(seen).toContain(`Errata captured this prompt as ${EXPECT[typed].said} (${String(row["id"])}); acceptance pending.`);
      }
      const ended = await session.end();
      expect(ended.code, ended.stderr).toBe(0);
      // One transcript: every prompt went to the one session.
      expect(transcripts(ws)).toEqual([transcript]);
      // The Stop hook kept the last reply by its hash only (the session has a transcript).
      const hookState = join(ws.state, "hook");
      const records = readdirSync(hookState).filter((f) => f.startsWith("last-reply-")).map((f) => JSON.parse(readFileSync(join(hookState, f), "utf8")) as Record<string, unknown>);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ session_id: sessionId, reply: null, reply_withheld: true });
      expect(String(records[0]!["reply_sha256"]).replace(/^(sha256:)?/, "sha256:")).toBe(sha(lang.reply));
      expect(server.pending()).toBe(0);
    });
  }

  it("InstructionsLoaded records which files loaded, as the client reported them", () => {
    // The English session above: a `claude -p` run and its `-c` continuation, the recorder beside each hook.
    const ws = staged.en;
    expect(ws, "the English test ran first").toBeDefined();
    const file = join(ws!.ledger, "ladder", "instructions-loaded.jsonl");
    expect(existsSync(file)).toBe(true);
    const rows = readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    const sent = readPayloads(ws!).filter((p) => p.event === "InstructionsLoaded").map((p) => p.payload);
    expect(sent.length).toBeGreaterThan(0);
    // The transcript is named by the session id the hooks receive (the language tests above read it from there).
    expect(transcripts(ws!).map((f) => basename(f, ".jsonl"))).toEqual([String(sent[0]!["session_id"])]);
    expect(rows.map((x) => [x["session_id"], x["file_path"], x["memory_type"], x["load_reason"]])).toEqual(sent.map((p) => [p["session_id"], p["file_path"], p["memory_type"], p["load_reason"]]));
    expect(rows.map((x) => x["file_path"])).toContain(join(ws!.project, "CLAUDE.md"));
    // And the model saw that file's text in the session's first request.
    expect(enFirst, "the English session's first request").toBeDefined();
    expect((enFirst!.body.messages ?? []).map((m) => contentText(m.content)).join("\n")).toContain(`Contents of ${join(ws!.project, "CLAUDE.md")}`);
  });
});
