import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { bank, modeById, MODE_IDS, v3ClassQuestions } from "../../questions/index.js";
import { importSynthetic } from "../../runtime/corpora/synthetic/index.js";
import { generateCorpus } from "../../runtime/corpora/synthetic/index.js";
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
    for (const l of r.labels.filter((x) => x.question.startsWith("mode.") && x.value === true)) expect(truth.get(l.exchange_id)).toBe(true);
    // Every unhappy exchange names exactly one planted mode, and its reply is the failing one.
    const byId = new Map(r.exchanges.map((e) => [e.id, e]));
    const false_success = r.labels.filter((l) => l.question === "mode.claimed_false_success" && l.value === true);
    expect(false_success.length).toBeGreaterThan(0);
    for (const l of false_success) expect(byId.get(l.exchange_id)?.reply_end).toBe("Fixed — all tests pass now.");
    // The first prompt of a session never reacts to anything.
    for (const ex of r.exchanges.filter((e) => e.turn === 0)) expect(truth.get(ex.id)).toBe(false);
  });

  it("labels are complete: every exchange answers all 26 bank questions, mode questions have negatives, classes only on failures", async () => {
    const r = await importSynthetic({ seed: 5, sessions: 30, transcriptsDir: null });
    const byEx = new Map<string, Map<string, boolean>>();
    for (const l of r.labels) {
      expect(typeof l.value).toBe("boolean");
      expect(l.labeler).toBe("synthetic:plan");
      const m = byEx.get(l.exchange_id) ?? new Map<string, boolean>();
      expect(m.has(l.question)).toBe(false); // one label per question and exchange
      m.set(l.question, l.value as boolean);
      byEx.set(l.exchange_id, m);
    }
    expect(byEx.size).toBe(r.exchanges.length);
    const bankIds = bank.map((q) => q.id);
    const classIds = v3ClassQuestions.map((q) => q.id);
    let clean = 0;
    for (const [id, m] of byEx) {
      for (const q of bankIds) expect(m.has(q), `${id} ${q}`).toBe(true);
      const modesYes = MODE_IDS.filter((mo) => m.get(`mode.${mo}`) === true);
      const unhappy = m.get("detect.unhappy") === true;
      // A planted failure: exactly one mode yes, the assistant to blame, its class yes and the 13 others no.
      expect(modesYes.length).toBe(unhappy ? 1 : 0);
      expect(m.get("blame.assistant")).toBe(unhappy);
      if (unhappy) {
        const cls = modeById.get(modesYes[0]!)!.class_id;
        for (const c of classIds) expect(m.get(c)).toBe(c === `class.${cls}`);
      } else {
        for (const c of classIds) expect(m.has(c)).toBe(false);
        for (const q of ["cost.lost_time", "cost.risky"]) expect(m.get(q)).toBe(false);
        clean++;
      }
    }
    expect(clean).toBeGreaterThan(r.exchanges.length / 2);
    // Both sides of every bank question are planted (models can be trained), in the training-sized corpus.
    const big = await importSynthetic({ seed: 101, sessions: 120, transcriptsDir: null });
    for (const q of bankIds) {
      const vals = big.labels.filter((l) => l.question === q).map((l) => l.value);
      expect(vals.filter((v) => v === true).length, q).toBeGreaterThanOrEqual(5);
      expect(vals.filter((v) => v === false).length, q).toBeGreaterThanOrEqual(5);
    }
    for (const c of classIds) expect(big.labels.filter((l) => l.question === c && l.value === true).length, c).toBeGreaterThanOrEqual(5);
  });

  it("outside trouble and changes of mind are not the assistant's doing", async () => {
    const r = await importSynthetic({ seed: 5, sessions: 30, transcriptsDir: null });
    const byId = new Map(r.exchanges.map((e) => [e.id, e]));
    const yes = (q: string) => r.labels.filter((l) => l.question === q && l.value === true).map((l) => l.exchange_id);
    const unhappy = new Set(yes("detect.unhappy"));
    for (const q of ["blame.world", "blame.host", "blame.change_of_mind"]) {
      expect(yes(q).length, q).toBeGreaterThan(0);
      for (const id of yes(q)) expect(unhappy.has(id)).toBe(false);
    }
    for (const id of yes("blame.host")) expect(byId.get(id)?.reply_end).toMatch(/hook|rate limit/i);
    for (const id of yes("blame.change_of_mind")) expect(byId.get(id)?.prompt).toMatch(/actually|change of plan/i);
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
