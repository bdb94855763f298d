import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { MODE_IDS } from "../../questions/taxonomy.js";
import { importSynthetic } from "../../runtime/synthetic/index.js";
import { generateCorpus } from "../../runtime/synthetic/index.js";
import { exchangesPath, sweepExchanges } from "../../runtime/transcripts/sweep.js";
import { tempDir } from "../helpers/io.js";
import { bundled, bundledExchanges, bundledLabels, readRows } from "./helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});
function tmp(): string {
  const t = tempDir("errata-synth-");
  cleanups.push(t.cleanup);
  return t.dir;
}

function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe("synthetic generator", () => {
  it("is deterministic: the same seed gives byte-identical transcripts, exchanges and labels", async () => {
    const a = tmp();
    const b = tmp();
    const ra = await importSynthetic({ seed: 3, sessions: 12, transcriptsDir: a });
    const rb = await importSynthetic({ seed: 3, sessions: 12, transcriptsDir: b });
    expect(rb.exchanges).toEqual(ra.exchanges);
    expect(rb.labels).toEqual(ra.labels);
    const fa = filesUnder(a);
    const fb = filesUnder(b);
    expect([...fb.keys()]).toEqual([...fa.keys()]);
    for (const [k, v] of fa) expect(fb.get(k)?.equals(v)).toBe(true);
    const other = await importSynthetic({ seed: 4, sessions: 12, transcriptsDir: null });
    expect(other.exchanges.map((e) => e.id)).not.toEqual(ra.exchanges.map((e) => e.id));
  });

  it.each([1, 5, 15])("plants every one of the 15 modes even in %i session(s)", async (n) => {
    const r = await importSynthetic({ seed: 11, sessions: n, transcriptsDir: null });
    const planted = new Set(r.labels.filter((l) => l.question.startsWith("mode.")).map((l) => l.question.slice(5)));
    expect([...planted].sort()).toEqual([...MODE_IDS].sort());
    expect(r.stats["modesPlanted"]).toBe(15);
  });

  it("labels follow the plan: the owner's reaction to a planted failure, marked synthetic", async () => {
    const r = await importSynthetic({ seed: 5, sessions: 30, transcriptsDir: null });
    const truth = new Map<string, boolean>();
    for (const l of r.labels) if (l.question === "detect.unhappy") truth.set(l.exchange_id, l.value as boolean);
    expect(truth.size).toBe(r.exchanges.length);
    for (const ex of r.exchanges) {
      ExchangeSchema.parse(ex);
      expect(ex).toMatchObject({ corpus: "synthetic", synthetic: true });
      expect(ex.turn === 0 ? ex.model : "synthetic-claude").toBe(ex.turn === 0 ? null : ex.model);
    }
    for (const l of r.labels.filter((x) => x.question.startsWith("mode."))) {
      expect(l.value).toBe(true);
      expect(truth.get(l.exchange_id)).toBe(true);
    }
    // Every unhappy exchange names exactly one planted mode, and its reply is the failing one.
    const byId = new Map(r.exchanges.map((e) => [e.id, e]));
    const false_success = r.labels.filter((l) => l.question === "mode.claimed_false_success");
    expect(false_success.length).toBeGreaterThan(0);
    for (const l of false_success) expect(byId.get(l.exchange_id)?.reply_end).toBe("Fixed — all tests pass now.");
    // The first prompt of a session never reacts to anything.
    for (const ex of r.exchanges.filter((e) => e.turn === 0)) expect(truth.get(ex.id)).toBe(false);
  });

  it("sessions carry what real transcripts have: compactions, rewinds, queued prompts, command echoes", () => {
    const corpus = generateCorpus(7, 60);
    const all = corpus.flatMap((s) => s.lines);
    const kinds = new Set(all.map((l) => `${String(l["type"])}${l["subtype"] ? `:${String(l["subtype"])}` : ""}`));
    for (const k of ["user", "assistant", "system:turn_duration", "system:compact_boundary", "attachment", "file-history-snapshot", "progress"]) expect(kinds.has(k)).toBe(true);
    expect(corpus.filter((s) => s.features.includes("rewind")).length).toBeGreaterThan(0);
    expect(all.every((l) => l["errataSynthetic"] === true)).toBe(true);
  });
});

describe("bundled synthetic corpus (datasets/synthetic, seed 7, 60 sessions)", () => {
  it("is exactly what the generator makes of seed 7", async () => {
    const dir = tmp();
    const r = await importSynthetic({ seed: 7, sessions: 60, transcriptsDir: dir });
    expect(bundledExchanges("synthetic")).toEqual(r.exchanges);
    expect(bundledLabels("synthetic")).toEqual(r.labels);
    const fresh = filesUnder(dir);
    const shipped = filesUnder(join(bundled("synthetic"), "transcripts"));
    expect(shipped.size).toBe(60);
    for (const [k, v] of fresh) expect(shipped.get(k)?.equals(v)).toBe(true);
  });

  it("errata exchanges over its transcripts gives the bundled exchanges (rewound prompts left out)", async () => {
    const dir = tmp();
    const report = await sweepExchanges({ root: join(bundled("synthetic"), "transcripts"), v4Dir: join(dir, "v4"), stateDir: join(dir, "state") });
    expect(report.rewoundPrompts).toBeGreaterThan(0);
    const swept = readRows(exchangesPath(join(dir, "v4")));
    expect(swept).toEqual(bundledExchanges("synthetic"));
  });
});
