/**
 * The metamorphic texts (metamorphic.ts) through every door Errata writes by (doors.ts): a
 * seeded sample of the dev fixtures' caught secrets under each transform, eight a transform,
 * written by `errata add`, the hooks, `errata mine` and `errata exchanges`, and every file read
 * back. A secret the redactor alone takes under a transform must be in clear in no file: the
 * door-only leaks are listed (none) and asserted exactly, as the held-out sets list theirs; the
 * redactor alone's leaks (metamorphic-leaks.json) are printed beside them.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import { tempDir } from "../helpers/io.js";
import { CORPUS_FILE, fixedLead, HELD_OUT_DOORS_FILE, leakIn, loadCorpus } from "./corpus.js";
import { throughEveryDoor, world, written, type World } from "./doors.js";
import { LeakFinder } from "./leak-find.js";
import { leakOf, leakOfPieces, randFor, TRANSFORMS, type Transformed } from "./metamorphic.js";

const FILES = [CORPUS_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9].map((n) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`))];
const secrets = FILES.flatMap((f) => loadCorpus(f).secrets);
/** Eight texts a transform with ERRATA_METAMORPHIC_FULL=1 (run by .ci/run), the first four of them in `npm test` (its five minutes). */
const FULL = process.env["ERRATA_METAMORPHIC_FULL"] === "1";
const PER_TRANSFORM = FULL ? 8 : 4;

/**
 * Door-only leaks, `transform id`, as measured: none. Measured at 27 on the text views' branch;
 * 5 once the tenth-set pass's door fix merged beside it (a tool call's input redacted before its
 * summary folds it to one line, clips cut at whitespace: runtime/transcripts/clip.ts). Of those 5,
 * 4 were no door's: the same secret (a case's value comes from its id) under another transform
 * the redactor alone leaves (html-quoted, json-2) was in the files from that text; they are told
 * apart now (SHADOWED). The fifth, a JSON text after a writer's words (`please deploy it:
 * {"type":…`), whose prose value the views' JSON step put on a line of its own only when the text
 * opened with the object, was closed by reading an object opened on the first line after words
 * or at the second line's start (view-lines.ts).
 */
const DOOR_ONLY: readonly string[] = [];
/**
 * Samples whose secret the redactor alone leaves under another transform's sample (listed in its
 * output above), so a file holding it in clear does not say which text put it there: not counted,
 * listed so a change is seen. Three more were here (json-2 h4-openweather-query, html-numeric
 * h8-braze-rest-key-bearer, ansi-value+wrap-80 h4-openweather-query) until the views' unquoted
 * view took their html-quoted samples: none of them is in clear since, as the by-hand run of each
 * in a world of its own had said.
 */
const SHADOWED: readonly string[] = FULL ? ["quote h8-curseforge-lua-headers", "ansi-line+log-prefix h8-curseforge-lua-headers"] : [];

interface Case {
  key: string;
  x: Transformed;
  lead: number;
}

/** For each transform, PER_TRANSFORM caught secrets it applies to, picked by a PRNG seeded by the transform's name. */
function sample(): Case[] {
  const caught = secrets.filter((s) => leakIn(redactSecrets(s.text).text, s.secret) === null);
  const out: Case[] = [];
  for (const t of TRANSFORMS) {
    const rand = randFor("door-sample", t.name);
    const pool = caught.map((s) => ({ s, k: rand() })).sort((a, b) => a.k - b.k);
    let n = 0;
    for (const { s } of pool) {
      if (n === PER_TRANSFORM) break;
      const x = t.apply(s.text, s.secret, randFor(s.id, t.name));
      if (x === null) continue;
      out.push({ key: `${t.name} ${s.id}`, x, lead: fixedLead(s.secret) });
      n++;
    }
  }
  return out;
}

describe("the metamorphic texts through every door", () => {
  const cases = sample();
  let t: { dir: string; cleanup: () => void };
  let w: World;
  beforeAll(async () => {
    t = tempDir("errata-metamorphic-doors-");
    w = world(join(t.dir, "mm"));
    await throughEveryDoor(w, cases.map((c) => c.x.text));
  });
  afterAll(() => t?.cleanup());

  it("no secret the redactor alone takes is in clear in any file written, but the listed door-only ones", () => {
    const texts = w.dirs.flatMap(written).flatMap((f) => f.texts);
    const alone = cases.filter((c) => leakOf(redactSecrets(c.x.text).text, c.x, c.lead) !== null).map((c) => c.key);
    // The cases some text of a file holds a piece of (leakOf), all at once (leak-find.ts).
    const finder = new LeakFinder(cases, (c) => leakOfPieces(c.x, c.lead));
    const found = new Set<number>();
    for (const x of texts) finder.foundIn(x, found);
    const inFiles = cases.filter((_, i) => found.has(i)).map((c) => c.key);
    // A secret is one value under every transform (it comes from its case's id): where the redactor
    // alone leaves it under one transform, the files hold it in clear from that text, and its other
    // samples cannot be told apart there (they are printed, not counted).
    const idOf = (k: string): string => k.slice(k.indexOf(" ") + 1);
    const aloneIds = new Set(alone.map(idOf));
    const shadowed = inFiles.filter((k) => !alone.includes(k) && aloneIds.has(idOf(k)));
    const doorOnly = inFiles.filter((k) => !alone.includes(k) && !aloneIds.has(idOf(k)));
    process.stdout.write(
      `metamorphic through every door: ${cases.length} texts (${PER_TRANSFORM} a transform); in clear in a file: ${inFiles.length} (the redactor alone leaves ${alone.length}: ${alone.join("; ") || "none"}; ` +
        `the same secret as one of those, not told apart: ${shadowed.join("; ") || "none"}); door-only: ${doorOnly.join("; ") || "none"}\n`,
    );
    expect(cases.length).toBeGreaterThan(TRANSFORMS.length * (PER_TRANSFORM / 2));
    expect(doorOnly).toEqual([...DOOR_ONLY]);
    expect(shadowed).toEqual([...SHADOWED]);
  });
});
