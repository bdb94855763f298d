import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { NOTEBOOKS, notebookNamed, renderNotebook } from "../../notebooks/index.js";
import { parseHookBench } from "../../notebooks/hook.js";
import { memoryIo, tempDir } from "../helpers/io.js";

// Every notebook on the bundled data: renders, is the same bytes on a second render, holds
// only inline figures (nothing a viewer would fetch), and carries the figures its inputs say
// (reference values from docs/research-loop.md, which the same research run wrote).
const root = new URL("../../", import.meta.url).pathname;
const pages = new Map<string, string>();
const page = async (name: string): Promise<string> => {
  const hit = pages.get(name);
  if (hit !== undefined) return hit;
  const html = await renderNotebook(notebookNamed(name), root);
  pages.set(name, html);
  return html;
};

describe("the notebooks on the bundled data", () => {
  it("names seven notebooks, each with bundled inputs that exist", () => {
    expect(NOTEBOOKS.map((n) => n.name)).toEqual(["agreement", "calibration", "detectors", "corpus-rate", "bias", "hook", "rules"]);
    for (const nb of NOTEBOOKS) for (const i of nb.inputs) expect(existsSync(join(root, i.bundled)), `${nb.name}: ${i.bundled}`).toBe(true);
  });

  for (const nb of NOTEBOOKS) {
    it(`${nb.name}: renders a self-contained page, byte-identical on a second render`, async () => {
      const first = await page(nb.name);
      const second = await renderNotebook(nb, root);
      expect(second).toBe(first);
      expect(first.startsWith("<!doctype html>")).toBe(true);
      expect((first.match(/<svg /g) ?? []).length).toBeGreaterThan(0);
      expect((first.match(/<svg /g) ?? []).length).toBe((first.match(/class="vega-lite-spec"/g) ?? []).length);
      // Nothing fetched at view time: no external script, style, image, font or frame.
      expect(first).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
      expect(first).not.toMatch(/url\(/i);
      expect(first).toContain("default-src 'none'");
      expect(first).not.toContain(root);
    });
  }

  it("agreement: both AB-ReDial questions, Cohen for every rater pair, majorities and ties", async () => {
    const html = await page("agreement");
    expect(html).toContain("<td>detect.unhappy</td><td>yes/no</td>");
    expect(html).toContain("<td>satisfaction</td><td>rating</td>");
    expect(html).toContain("ab-redial:r1 / ab-redial:r2");
  });

  it("detectors: the research loop's AB-ReDial holdout figures, with coverage beside each detector", async () => {
    const html = await page("detectors");
    // docs/research-loop.md, AB-ReDial table: v4 precision, recall, F1.
    expect(html).toContain("0.435 [0.229, 0.632]");
    expect(html).toContain("0.525 [0.293, 0.749]");
    expect(html).toContain("0.476 [0.266, 0.643]");
    for (const d of ["regex", "v3", "v4", "combiner", "classtier"]) expect(html).toContain(`<td>${d}</td><td class="num">153</td><td class="num">100.0%</td>`);
  });

  it("corpus rate: PPI++ 0.126 [0.085, 0.167] at 90% beside the naive share of the labelled items", async () => {
    const html = await page("corpus-rate");
    expect(html).toMatch(/<td class="num">0\.126<\/td><td class="num">0\.085<\/td><td class="num">0\.167<\/td>/);
    expect(html).toContain("naive (Wilson)");
  });

  it("bias: the regex detector on AB-ReDial, prompt length the one covariate left after Holm (docs/eval.md's figures)", async () => {
    const html = await page("bias");
    expect(html).toContain("60 errors in 590 items");
    expect(html).toContain('<td>prompt_length</td><td>rank-biserial correlation</td><td class="num">0.251</td><td class="num">0.0015</td><td class="num">0.0044</td><td class="num">0.0044</td>');
    expect(html).toContain('<td>reply_length</td><td>rank-biserial correlation</td><td class="num">0.023</td><td class="num">0.7705</td>');
    expect(html).toMatch(/<td>script<\/td><td>/);
  });

  it("hook: every bench line parsed, ratios to node -e 0", async () => {
    const text = "wall time, medians of 30 alternating runs (spawnSync, stdin piped):\nenvironment as given:\n  node -e 0: 40.0 ms, ratio to node -e 0: 1.00x\n  hook, ordinary prompt: 43.2 ms, ratio to node -e 0: 1.08x\ninstructions under callgrind, stock environment, medians of 5 alternating runs:\n  node -e 0: 90.1 M (runs 89.9-90.4 M), ratio to node -e 0: 1.00x\n";
    expect(parseHookBench(text).lines).toEqual([
      { section: "wall time, environment as given", variant: "node -e 0", value: 40, unit: "ms", ratio: 1, range: null },
      { section: "wall time, environment as given", variant: "hook, ordinary prompt", value: 43.2, unit: "ms", ratio: 1.08, range: null },
      { section: "instructions (callgrind)", variant: "node -e 0", value: 90.1, unit: "M instructions", ratio: 1, range: [89.9, 90.4] },
    ]);
    expect(await page("hook")).toContain("hook, ordinary prompt");
  });

  it("calibration: raw, Platt and isotonic curves from the calibration module's bins", async () => {
    const html = await page("calibration");
    for (const c of ["raw", "platt", "isotonic"]) {
      // The module's bins never split tied probabilities, so a curve with many ties (isotonic)
      // leaves some of the ten bins empty: each curve has rows, and their ranges never overlap.
      const rows = [...html.matchAll(new RegExp(`<tr><td>${c}</td><td class="num">(\\d+)</td><td class="num">\\d+</td><td class="num">[\\d.]+</td><td>([\\d.]+)-([\\d.]+)</td>`, "g"))];
      expect(rows.length, c).toBeGreaterThan(0);
      for (let i = 1; i < rows.length; i++) {
        expect(Number(rows[i]![1]), c).toBeGreaterThan(Number(rows[i - 1]![1]));
        expect(Number(rows[i]![2]), c).toBeGreaterThanOrEqual(Number(rows[i - 1]![3]));
      }
    }
  });

  it("rules: the demo's most-broken rules, said to be synthetic", async () => {
    const html = await page("rules");
    expect(html).toContain("invoice-api-claude.workflow.8910ba");
    expect(html).toMatch(/synthetic/);
  });
});

describe("errata notebook", () => {
  it("a missing input: exit 2, names the file and the command that makes one, writes nothing", async () => {
    const tmp = tempDir();
    try {
      const io = memoryIo({ cwd: tmp.dir });
      expect(await run(["notebook", "detectors", "--input", "score=score.json", "--out", "pages"], io.io)).toBe(2);
      expect(io.err()).toContain("notebook detectors: no score report (JSON) at score.json (expected a file made by: errata eval score");
      expect(io.err()).toContain("errata eval score --predictions");
      expect(readdirSync(tmp.dir)).toEqual([]);
      const bad = memoryIo({ cwd: tmp.dir });
      expect(await run(["notebook", "nosuch", "--out", "pages"], bad.io)).toBe(2);
      expect(bad.err()).toMatch(/no such notebook.*agreement, calibration/);
    } finally {
      tmp.cleanup();
    }
  });

  it("renders all into --out, the same bytes as the module; --dry-run writes nothing", async () => {
    const tmp = tempDir();
    try {
      const dry = memoryIo({ cwd: tmp.dir });
      expect(await run(["notebook", "rules", "--out", "pages", "--dry-run", "--json"], dry.io)).toBe(0);
      expect(JSON.parse(dry.out())).toMatchObject({ written: false, pages: [{ name: "rules" }] });
      expect(readdirSync(tmp.dir)).toEqual([]);
      const io = memoryIo({ cwd: tmp.dir });
      expect(await run(["notebook", "rules", "--out", "pages", "--input", `report=${join(root, "notebooks/data/v4-report-demo.json")}`], io.io), io.err()).toBe(0);
      expect(readdirSync(join(tmp.dir, "pages"))).toEqual(["rules.html"]);
    } finally {
      tmp.cleanup();
    }
  });
});
