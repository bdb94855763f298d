// The classifier's verdicts on every bundled prompt and on the shared sets present here, one
// digest per corpus: sha256 of the verdicts in order as canonical JSON (keys sorted). The
// committed file holds only digests and item counts, never texts or per-item results (USS
// must not leave this machine). A changed digest means some verdict changed: find which with
// a before/after diff of the verdicts, and when the change is meant, regenerate:
//
//   ERRATA_UPDATE_VERDICT_DIGESTS=1 npx vitest run test/classifier/verdict-digests.test.ts
//
// (entries of sets absent from this machine are kept as they are).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { classify } from "../../runtime/classifier/classify.js";
import { corpora, present, type Corpus } from "./verdict-corpora.js";

interface Digest {
  items: number;
  sha256: string;
}
interface DigestFile {
  schema: "verdict-digests/1";
  corpora: Record<string, Digest>;
}

const FILE = fileURLToPath(new URL("./verdict-digests.json", import.meta.url));
const UPDATE = process.env["ERRATA_UPDATE_VERDICT_DIGESTS"] === "1";
const committed = JSON.parse(readFileSync(FILE, "utf8")) as DigestFile;

/** JSON with every object's keys sorted (verdicts hold only plain values, arrays and objects). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

function digestOf(c: Corpus): Digest {
  const items = c.items();
  const h = createHash("sha256").update("[");
  items.forEach((item, k) => h.update(`${k > 0 ? "," : ""}${canonicalJson(classify(item.text, { previousReply: item.reply }))}`));
  return { items: items.length, sha256: h.update("]").digest("hex") };
}

const computed: Record<string, Digest> = {};

describe("verdict digests per corpus (the classifier's verdicts unchanged)", () => {
  it("canonical JSON sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: "x" })).toBe('{"a":"x","b":[2,{"c":null,"d":1}]}');
    expect(createHash("sha256").update(canonicalJson([])).digest("hex")).toBe("4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945");
  });

  for (const c of corpora()) {
    if (!present(c)) {
      const line = `${c.name}: skipped, not found at ${c.path}; get it from ${c.source} (or set ERRATA_SHARED_DATASETS)`;
      console.warn(line);
      it.skip(line, () => {});
      continue;
    }
    it(`${c.name}: the committed digest`, () => {
      const d = digestOf(c);
      computed[c.name] = d;
      expect(d.items, `${c.name} read no items`).toBeGreaterThan(0);
      if (UPDATE) return;
      expect(d, `${c.name}: verdicts (or the items read) differ from the committed digest; see the header to regenerate`).toEqual(committed.corpora[c.name]);
    });
  }

  afterAll(() => {
    if (!UPDATE) return;
    const out: DigestFile = { schema: "verdict-digests/1", corpora: { ...committed.corpora, ...computed } };
    writeFileSync(FILE, `${JSON.stringify(out, null, 2)}\n`);
  });
});
