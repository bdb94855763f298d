import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sheetItems } from "../../cli/commands/eval/label/export.js";
import { bank, bankHash, renderBrief } from "../../questions/index.js";
import { isLoopback, MAX_BODY_BYTES, startLabelServer, type LabelServer } from "../../runtime/pages/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { csvRoute, EXCHANGES, goldBed, importSheet, QUESTIONS, raterAnswers, type Bed } from "./label-fixture.js";

// The labelling server over HTTP (no browser: test/browser drives the page itself): tokens,
// one labeller's sheet per token, autosave and resume, the body limit, and the export that
// `eval label import` reads, compared row for row with the CSV route.
const tmp = tempDir("errata-label-");
let bed: Bed;
let opts: Parameters<typeof startLabelServer>[0];
let server: LabelServer;

beforeAll(async () => {
  bed = await goldBed(tmp.dir);
  const { items, questions } = sheetItems({ io: memoryIo({ env: bed.env, cwd: bed.dir }).io, exitCode: 0 }, { exchanges: [EXCHANGES], questions: QUESTIONS, split: "all" });
  opts = { host: "127.0.0.1", port: 0, stateDir: join(tmp.dir, "state"), labelers: ["ana", "ben"], items, questions, brief: renderBrief(bank, bankHash) };
  server = await startLabelServer(opts);
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const tokenOf = (l: string): string => new URL(server.urls[l] ?? "").searchParams.get("t") ?? "";
const base = (): string => `http://127.0.0.1:${server.port}`;
const api = (path: string, token: string | null, init: RequestInit = {}): Promise<Response> =>
  fetch(`${base()}${path}`, { ...init, headers: { ...(token === null ? {} : { "x-errata-token": token }), "content-type": "application/json", ...(init.headers ?? {}) } });
const post = (token: string | null, body: unknown): Promise<Response> => api("/api/change", token, { method: "POST", body: JSON.stringify(body) });

describe("the labelling server", () => {
  it("prints one URL per labeller, on loopback, each with its own 48-hex token", () => {
    expect(Object.keys(server.urls)).toEqual(["ana", "ben"]);
    expect(server.urls["ana"]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{48}$/);
    expect(tokenOf("ana")).not.toBe(tokenOf("ben"));
  });

  it("refuses a non-loopback bind unless told otherwise", async () => {
    await expect(startLabelServer({ ...opts, host: "0.0.0.0" })).rejects.toThrow(/refusing to serve on 0\.0\.0\.0.*--allow-non-loopback/);
    expect(isLoopback("127.0.0.1") && isLoopback("::1") && isLoopback("localhost")).toBe(true);
    expect(isLoopback("0.0.0.0") || isLoopback("192.168.1.4") || isLoopback("::")).toBe(false);
  });

  it("answers 403 to a missing or wrong token on every route, and writes nothing", async () => {
    const before = readdirSync(opts.stateDir).sort();
    // A real token with its last character changed (a fixed "0" was the real token whenever
    // the random one ended in "0": one run in sixteen).
    const real = tokenOf("ana");
    const nearMiss = `${real.slice(0, 47)}${real.endsWith("0") ? "1" : "0"}`;
    for (const token of [null, "0".repeat(48), nearMiss, "not-a-token"]) {
      expect((await api("/", token)).status).toBe(403);
      expect((await api("/api/sheet", token)).status).toBe(403);
      expect((await api("/api/export.csv", token)).status).toBe(403);
      expect((await post(token, { exchange_id: opts.items[0]!.exchange_id, question: "detect.unhappy", op: "answer", value: "yes" })).status).toBe(403);
    }
    expect((await fetch(`${base()}/?t=${"f".repeat(48)}`)).status).toBe(403);
    expect(readdirSync(opts.stateDir).sort()).toEqual(before);
    expect(before).toEqual(["tokens.json"]);
  });

  it(`refuses a body over ${MAX_BODY_BYTES} bytes with 413 and writes nothing`, async () => {
    const r = await post(tokenOf("ana"), { exchange_id: opts.items[0]!.exchange_id, question: "detect.unhappy", op: "answer", value: "yes", pad: "x".repeat(MAX_BODY_BYTES) });
    expect(r.status).toBe(413);
    expect(existsSync(join(opts.stateDir, "ana.json"))).toBe(false);
  });

  it("refuses an answer outside the question's scale, an unknown item and an unknown question (400), writing nothing", async () => {
    const id = opts.items[0]!.exchange_id;
    for (const body of [
      { exchange_id: id, question: "satisfaction", op: "answer", value: "7" },
      { exchange_id: "ex-0000000000000000", question: "detect.unhappy", op: "answer", value: "yes" },
      { exchange_id: id, question: "class", op: "answer", value: "none" },
      { exchange_id: id, question: "detect.unhappy", op: "maybe" },
    ]) expect((await post(tokenOf("ana"), body)).status).toBe(400);
    expect(existsSync(join(opts.stateDir, "ana.json"))).toBe(false);
  });

  it("one labeller's answers never reach another's sheet; autosave survives a restart; the export imports to the CSV route's rows", async () => {
    const answers = raterAnswers();
    const ana = tokenOf("ana");
    const sheet = (await (await api("/api/sheet", ana)).json()) as { items: { exchange_id: string }[]; questions: { id: string }[] };
    expect(sheet.items).toHaveLength(20);
    expect(sheet.questions.map((q) => q.id)).toEqual(["detect.unhappy", "satisfaction"]);
    // Half of the items, then a restart, then the rest.
    const give = async (from: number, to: number): Promise<void> => {
      for (const it of sheet.items.slice(from, to)) {
        const a = answers.get(it.exchange_id);
        for (const q of ["detect.unhappy", "satisfaction"] as const) {
          const v = a?.[q] ?? null;
          const r = await post(ana, v === null ? { exchange_id: it.exchange_id, question: q, op: "skip" } : { exchange_id: it.exchange_id, question: q, op: "answer", value: v });
          expect(r.status).toBe(200);
        }
      }
    };
    await give(0, 10);
    const ben = (await (await api("/api/sheet", tokenOf("ben"))).json()) as { answers: object; skipped: object; items: { exchange_id: string }[] };
    expect(ben.answers).toEqual({});
    expect(ben.skipped).toEqual({});
    expect(ben.items.map((i) => i.exchange_id)).not.toEqual(sheet.items.map((i) => i.exchange_id));
    const benCsv = await (await api("/api/export.csv", tokenOf("ben"))).text();
    expect(benCsv.trim().split("\n")).toHaveLength(1);

    await server.close();
    server = await startLabelServer(opts);
    const resumed = (await (await api("/api/sheet", tokenOf("ana"))).json()) as { progress: { done: number; items: number } };
    expect(resumed.progress).toEqual({ done: 10, items: 20 });
    await give(10, 20);
    // An undo (clear) and the answer again: the export holds the last word only.
    const first = sheet.items[0]!.exchange_id;
    await post(ana, { exchange_id: first, question: "detect.unhappy", op: "clear" });
    expect(((await (await api("/api/sheet", ana)).json()) as { progress: { done: number } }).progress.done).toBe(19);
    const v = answers.get(first)?.["detect.unhappy"] ?? null;
    await post(ana, v === null ? { exchange_id: first, question: "detect.unhappy", op: "skip" } : { exchange_id: first, question: "detect.unhappy", op: "answer", value: v });

    const csv = await (await api("/api/export.csv", ana)).text();
    const page = await importSheet(bed, "page-route", "ana", csv);
    const route = await csvRoute(bed, "ana", answers);
    expect(route.order).toEqual(sheet.items.map((i) => i.exchange_id));
    expect(page.length).toBeGreaterThanOrEqual(30);
    expect(page).toEqual(route.rows);
  });
});
