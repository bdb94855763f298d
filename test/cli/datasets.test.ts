import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/** `errata datasets list|copy`: the bundled data sets, copied where the examples read them. */
const bundled = fileURLToPath(new URL("../../datasets/", import.meta.url));
let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

async function cli(argv: string[]) {
  const m = memoryIo({ env: { HOME: t.dir }, cwd: t.dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata datasets", () => {
  it("list names every bundled set with its files; a folder of folders names its subfolders", async () => {
    const r = await cli(["datasets", "list", "--json"]);
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out) as { sets: { name: string; files: string[]; bytes: number }[] };
    const names = v.sets.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["ab-redial", "claude-code/spotter", "spotter", "synthetic", "weights"]));
    expect(names).not.toContain("claude-code");
    const ab = v.sets.find((s) => s.name === "ab-redial")!;
    expect(ab.files).toEqual(readdirSync(join(bundled, "ab-redial")).sort());
    expect(ab.bytes).toBe(ab.files.reduce((n, f) => n + readFileSync(join(bundled, "ab-redial", f)).length, 0));
    expect(v.sets.find((s) => s.name === "synthetic")!.files.filter((f) => f.startsWith("transcripts")).length).toBe(60);
  });

  it("copy writes the set's files byte for byte under ./datasets/<set>; a second copy finds them there", async () => {
    const r = await cli(["datasets", "copy", "ab-redial", "claude-code/spotter"]);
    expect(r.code, r.err).toBe(0);
    for (const f of ["exchanges.jsonl", "labels.jsonl", "LICENSE"]) {
      expect(readFileSync(join(t.dir, "datasets", "ab-redial", f))).toEqual(readFileSync(join(bundled, "ab-redial", f)));
    }
    expect(readdirSync(join(t.dir, "datasets", "claude-code", "spotter"))).toEqual(readdirSync(join(bundled, "claude-code", "spotter")));
    const again = await cli(["datasets", "copy", "ab-redial", "--json"]);
    expect(JSON.parse(again.out).sets[0]).toMatchObject({ name: "ab-redial", copied: [], already: ["LICENSE", "NOTICE.md", "exchanges.jsonl", "labels.jsonl"] });
  });

  it("--out names the folder, --dry-run copies nothing", async () => {
    const dry = await cli(["datasets", "copy", "spotter", "--out", "data", "--dry-run", "--json"]);
    expect(dry.code, dry.err).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ written: false, sets: [{ name: "spotter", to: join(t.dir, "data", "spotter") }] });
    expect(existsSync(join(t.dir, "data"))).toBe(false);
    expect((await cli(["datasets", "copy", "spotter", "--out", "data"])).code).toBe(0);
    expect(existsSync(join(t.dir, "data", "spotter", "exchanges.jsonl"))).toBe(true);
  });

  it("an unknown set, or a file there that differs, is exit 2 and copies nothing", async () => {
    const unknown = await cli(["datasets", "copy", "spotter", "uss"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown data set uss \(expected one of ab-redial, /);
    expect(existsSync(join(t.dir, "datasets"))).toBe(false);
    mkdirSync(join(t.dir, "datasets", "ab-redial"), { recursive: true });
    writeFileSync(join(t.dir, "datasets", "ab-redial", "labels.jsonl"), "mine\n");
    const clash = await cli(["datasets", "copy", "spotter", "ab-redial"]);
    expect(clash.code).toBe(2);
    expect(clash.err).toMatch(/labels\.jsonl exists and differs from the bundled ab-redial\/labels\.jsonl/);
    expect(existsSync(join(t.dir, "datasets", "spotter"))).toBe(false);
    expect(readFileSync(join(t.dir, "datasets", "ab-redial", "labels.jsonl"), "utf8")).toBe("mine\n");
  });
});
