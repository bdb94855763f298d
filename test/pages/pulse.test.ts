import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

// `errata report --html`: the Pulse page on a small ledger with a host: counts by system and
// kind, a skill's complaint rate over its outputs, a false pass, stuck entries and missing
// runs, by id and count only: the complaints' own words never reach the page.
const tmp = tempDir("errata-pulse-");
afterAll(() => tmp.cleanup());
const host = join(tmp.dir, "host");
const env = { ERRATA_DIR: join(tmp.dir, "ledger"), ERRATA_STATE_DIR: join(tmp.dir, "state"), ERRATA_HOST_DIR: host };
const now = Date.parse("2026-11-30T12:00:00Z");
const cli = async (argv: string[], at = now) => {
  const io = memoryIo({ env, cwd: tmp.dir, now: at });
  const code = await run(argv, io.io);
  return { code, out: io.out(), err: io.err() };
};
const SECRET_WORDS = ["release notes missed two fixes", "pushed to main without asking", "wrong timezone again"];

describe("errata report --html", () => {
  it("writes one self-contained page of ids and counts, no complaint text; --dry-run writes nothing", async () => {
    mkdirSync(host, { recursive: true });
    writeFileSync(join(host, "outputs.jsonl"), [1, 2, 3, 4].map((i) => JSON.stringify({ schema: "output/1", id: `out-${i}`, ts: "2026-11-29T10:02:09Z", session_id: null, skill: i <= 2 ? "release-notes" : "calendar" })).join("\n") + "\n");
    writeFileSync(join(host, "receipts.jsonl"), `${JSON.stringify({ schema: "receipt/1", id: "rc-1", ts: "2026-11-29T10:02:10Z", output_id: "out-1", passed: true })}\n`);
    const added: string[] = [];
    for (const [text, extra] of [
      [SECRET_WORDS[0], ["--output-id", "out-1"]],
      [SECRET_WORDS[1], []],
      [SECRET_WORDS[2], ["--output-id", "out-3"]],
    ] as const) {
      const r = await cli(["add", `bug: ${text}`, "--ts", "2026-11-27T09:00:00Z", ...extra, "--json"]);
      expect(r.code, r.err).toBe(0);
      added.push((JSON.parse(r.out) as { erratum: { id: string } }).erratum.id);
    }
    // A report three days ago leaves a receipt; no daily run since: three days without one.
    expect((await cli(["report"], now - 3 * 86_400_000)).code).toBe(0);
    const dry = await cli(["report", "--html", "--out", "pulse.html", "--dry-run", "--json"]);
    expect(JSON.parse(dry.out)).toMatchObject({ dry_run: true, html: join(tmp.dir, "pulse.html") });
    expect(existsSync(join(tmp.dir, "pulse.html"))).toBe(false);

    const r = await cli(["report", "--html", "--out", "pulse.html"]);
    expect(r.code, r.err).toBe(1); // days without a daily run receipt: the report's alarm
    expect(r.out).toContain(`wrote ${join(tmp.dir, "pulse.html")}`);
    const html = readFileSync(join(tmp.dir, "pulse.html"), "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
    for (const words of SECRET_WORDS) expect(html).not.toContain(words);
    // The false pass: the complaint about out-1, whose receipt passed, by id.
    expect(html).toContain(`${added[0]} → out-1`);
    // Per-skill rates over delivered outputs: one complaint each over two outputs.
    expect(html).toContain("<td>release-notes</td><td class=\"num\">2</td><td class=\"num\">1</td><td class=\"num\">50.0%</td>");
    expect(html).toContain("<td>calendar</td><td class=\"num\">2</td><td class=\"num\">1</td><td class=\"num\">50.0%</td>");
    // Stuck entries (new for over 48 h) and the seven days without a daily run receipt.
    expect(html).toMatch(/<td>stuck in new\/enriched<\/td><td class="num">3<\/td>/);
    expect(html).toMatch(/<td>days without a daily run receipt<\/td><td class="num">3<\/td><td>2026-11-27, 2026-11-28, 2026-11-29<\/td>/);
    expect(html).toContain('class="vega-lite-spec"');
    expect(html).toContain("No v4 folder yet");
  });
});
