import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/**
 * `errata by-model` and `errata skills`: one command (cli/shared/rates.ts) over two joins of
 * the same complaints and host outputs. Two outputs, one with skill release-notes by model
 * claude-sonnet-4-5, one with no skill by gpt-x; complaints: one citing the first output, one
 * by model m2 citing nothing.
 */
const NOW = Date.parse("2026-11-30T12:00:00Z");
let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
  mkdirSync(join(t.dir, "host"));
  const out = (id: string, ts: string, skill: string | null, model: string) => JSON.stringify({ schema: "output/1", id, ts, session_id: null, skill, model });
  writeFileSync(join(t.dir, "host", "outputs.jsonl"), [out("out-1", "2026-11-29T10:00:00Z", "release-notes", "claude-sonnet-4-5"), out("out-2", "2026-11-29T11:00:00Z", null, "gpt-x")].join("\n") + "\n");
});
afterEach(() => t.cleanup());

async function cli(argv: string[], host = true) {
  const m = memoryIo({ env: { ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir, ...(host ? { ERRATA_HOST_DIR: join(t.dir, "host") } : {}) }, now: NOW, cwd: t.dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

async function seed(): Promise<string> {
  const a = await cli(["add", "the notes missed two fixes", "--output-id", "out-1", "--model", "claude-sonnet-4-5", "--ts", "2026-11-29T12:00:00Z", "--json"]);
  expect(a.code, a.err).toBe(0);
  expect((await cli(["add", "no, not that", "--model", "m2", "--ts", "2026-11-29T13:00:00Z"])).code).toBe(0);
  return (JSON.parse(a.out) as { erratum: { id: string } }).erratum.id;
}

describe("errata by-model and errata skills", () => {
  it("print one line a row, each with its own join", async () => {
    await seed();
    const m = await cli(["by-model"]);
    expect(m.code, m.err).toBe(0);
    expect(m.out).toBe(
      [
        "claude-sonnet-4-5             complaints    1  outputs      1  rate 100.0%",
        "m2                            complaints    1  outputs      0  rate n/a",
        "gpt-x                         complaints    0  outputs      1  rate 0.0%",
        "",
      ].join("\n"),
    );
    const s = await cli(["skills"]);
    expect(s.code, s.err).toBe(0);
    expect(s.out).toBe(["release-notes             outputs      1  complaints    1  rate 100.0%", "(none)                    outputs      1  complaints    0  rate 0.0%", ""].join("\n"));
  });

  it("--json is {since, until, <rows>}; the window defaults to 30 days back and --since moves its start", async () => {
    const id = await seed();
    const m = JSON.parse((await cli(["by-model", "--json"])).out);
    expect(m).toEqual({
      since: "2026-10-31T12:00:00.000Z",
      until: "2026-11-30T12:00:00.000Z",
      models: [
        { model: "claude-sonnet-4-5", complaints: 1, outputs: 1, rate: 1 },
        { model: "m2", complaints: 1, outputs: 0, rate: null },
        { model: "gpt-x", complaints: 0, outputs: 1, rate: 0 },
      ],
    });
    const s = JSON.parse((await cli(["skills", "--json", "--since", "2026-11-01"])).out);
    expect(s).toEqual({
      since: "2026-11-01T00:00:00.000Z",
      until: "2026-11-30T12:00:00.000Z",
      skills: [
        { skill: "release-notes", outputs: 1, complaints: 1, rate: 1, complaint_ids: [id] },
        { skill: "(none)", outputs: 1, complaints: 0, rate: 0, complaint_ids: [] },
      ],
    });
  });

  it("an empty window says so, a missing host says where to point it, a bad --since is exit 2", async () => {
    await seed();
    expect((await cli(["by-model", "--since", "2026-11-30"])).out).toBe("no complaints or outputs in the window\n");
    expect((await cli(["skills", "--since", "2026-11-30"])).out).toBe("no outputs or complaints in the window\n");
    const noHost = await cli(["skills"], false);
    expect(noHost.code).toBe(0);
    expect(noHost.err).toMatch(/no host outputs or receipts found \(set ERRATA_HOST_DIR/);
    for (const cmd of ["by-model", "skills"]) {
      const bad = await cli([cmd, "--since", "last week"]);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/bad --since/);
    }
  });
});
