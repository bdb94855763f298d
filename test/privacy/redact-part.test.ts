// The hook's redactor part (dist/runtime/hooks/hook-redact.bundle.cjs) holds gitleaks' rule
// data in another form than the ES module (each rule's data a JSON string parsed on first use,
// scripts/bundle-hook.js): it must redact exactly as the ES module's engine does. `npm test`
// builds the bundles first. The readers part (hook-readers.bundle.cjs) must read as the ES modules do.
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as engine from "../../runtime/privacy/engine.js";
import { candidates } from "../../runtime/privacy/prefilter.js";
import { loadReaders } from "../../runtime/privacy/readers-load.js";
import { HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { tempDir } from "../helpers/io.js";
import { built } from "../helpers/built.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const require = createRequire(import.meta.url);
const { createLoader } = require(join(repoRoot, "bin", "errata.cjs")) as { createLoader: (dir: string) => { load: (name: string) => typeof engine } };

describe.skipIf(!built)("the hook's redactor part", () => {
  const part = createLoader(join(repoRoot, "dist", "runtime", "hooks")).load("hook-redact.bundle.cjs");
  const corpus = loadCorpus();
  const held = loadCorpus(PREFILTER_HELD_OUT_FILE);
  const texts = [...corpus.secrets.map((s) => s.text), ...corpus.lookAlikes.map((l) => l.text), ...held.secrets.map((s) => s.text)];

  it("redacts every corpus and held-out text as the ES module's engine does, with and without the pre-filter's candidates", () => {
    let changed = 0;
    for (const t of texts) {
      const c = candidates(t);
      expect(part.redactAll(t), t).toEqual(engine.redactAll(t));
      expect(part.redactAll(t, c.rules, c.keyword !== null), t).toEqual(engine.redactAll(t, c.rules, c.keyword !== null));
      if (engine.redactAll(t).text !== t) changed++;
    }
    // Not vacuous: most corpus secrets are changed by both.
    expect(changed).toBeGreaterThan(corpus.secrets.length * 0.9);
  });

  it("agrees on texts spliced from the corpus (fast-check)", () => {
    const piece = fc.tuple(fc.constantFrom(...texts), fc.nat(), fc.nat()).map(([t, a, b]) => {
      const from = a % (t.length + 1);
      return t.slice(from, from + 1 + (b % (t.length + 1)));
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.constantFrom(" ", "\n", "=", ": ", "key", "token ")), { maxLength: 8 }), (parts) => {
        const t = parts.join("");
        expect(part.redactAll(t)).toEqual(engine.redactAll(t));
      }),
      { numRuns: 500, seed: 20261202 },
    );
  });
});

describe.skipIf(!built)("the hook's readers part", () => {
  it("reads every corpus and held-out text as the ES modules do (readers-load.ts)", () => {
    const part = createLoader(join(repoRoot, "dist", "runtime", "hooks")).load("hook-readers.bundle.cjs") as unknown as ReturnType<typeof loadReaders>;
    const es = loadReaders();
    expect(Object.keys(part).sort()).toEqual(Object.keys(es).sort());
    const corpus = loadCorpus();
    let found = 0;
    for (const t of [...corpus.secrets.map((x) => x.text), ...corpus.lookAlikes.map((l) => l.text), ...loadCorpus(join(HELD_OUT_DOORS_FILE, "..", "held-out-doors-11.yaml")).secrets.map((x) => x.text)]) {
      const mine = [es.assembledValues(t), es.encodedSpans(t), es.tableSpans(t), es.contextSecretWitness(t)] as const;
      expect([part.assembledValues(t), part.encodedSpans(t), part.tableSpans(t), part.contextSecretWitness(t)], t).toEqual(mine);
      if (mine[0].length + mine[1].length + mine[2].length > 0) found++;
    }
    expect(found).toBeGreaterThan(50);
  });
});

describe.skipIf(!built)("the redactor bench's baseline build", () => {
  it("builds: the same tree with redaction stubbed out (scripts/bundle-hook.js --out DIR --stub-redaction), with no redactor part", () => {
    const tmp = tempDir("errata-stub-build-");
    try {
      const r = spawnSync(process.execPath, ["scripts/bundle-hook.js", "--out", tmp.dir, "--stub-redaction"], { cwd: repoRoot, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const hooks = join(tmp.dir, "dist", "runtime", "hooks");
      expect(existsSync(join(hooks, "hook-capture.bundle.cjs"))).toBe(true);
      expect(existsSync(join(hooks, "hook-redact.bundle.cjs"))).toBe(false);
    } finally {
      tmp.cleanup();
    }
  });
});
