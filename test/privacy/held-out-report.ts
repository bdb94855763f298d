/**
 * The figures every held-out set of secret shapes reports (held-out-doors-4..8.test.ts): each
 * secret's text goes through the redactor alone and through every door Errata writes by
 * (doors.ts), and two lines are printed: secrets caught and look-alikes kept by the redactor
 * alone, then secrets found in clear in any file written. A set still held out (no `expected`)
 * only prints them, in one test, and fails only on a crash; a set in dev since its first run
 * also asserts that the misses, the hurt look-alikes and the door-only leaks are exactly its
 * listed ones. Apart from held-out-form.ts, whose checks never run the redactor.
 *
 * Example: `describeHeldOutReport({ title: "the seventh held-out set (dev since its first run)",
 * name: "seventh held-out set", tag: "doors7", set, expected: { missed: [], hurt: [...], doorOnly: [] } })`
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import { tempDir } from "../helpers/io.js";
import { leakIn, type LookAlike, type SecretCase } from "./corpus.js";
import { leaksThroughDoors, throughEveryDoor, world, type World } from "./doors.js";

export interface HeldOutReport {
  /** The describe block's title. */
  title: string;
  /** How the printed lines name the set ("seventh held-out set"). */
  name: string;
  /** The scratch folder's tag ("doors7"). */
  tag: string;
  set: { secrets: SecretCase[]; lookAlikes: LookAlike[] };
  /** Whether the block runs at all (a report-only set runs only when its variable is set). */
  run?: boolean;
  /** A dev set's listed misses, hurt look-alikes and door-only leaks, asserted exactly; none for a set still held out. */
  expected?: { missed: readonly string[]; hurt: readonly string[]; doorOnly?: readonly string[] };
}

/** The secrets the redactor alone leaves in clear (in part or whole) and the look-alikes it changes, by id. */
function redactorAlone(set: HeldOutReport["set"]): { missed: string[]; hurt: string[] } {
  const missed = set.secrets.filter((s) => leakIn(redactSecrets(s.text).text, s.secret) !== null).map((s) => s.id);
  const hurt = set.lookAlikes.filter((l) => redactSecrets(l.text).text !== l.text).map((l) => l.id);
  return { missed, hurt };
}

export function describeHeldOutReport(o: HeldOutReport): void {
  const { set, name } = o;
  const aloneLine = (label: string, r: { missed: string[]; hurt: string[] }): string =>
    `${name}${label}: ${set.secrets.length - r.missed.length}/${set.secrets.length} secrets caught (missed: ${r.missed.join(", ") || "none"}); ${set.lookAlikes.length - r.hurt.length}/${set.lookAlikes.length} look-alikes kept (hurt: ${r.hurt.join(", ") || "none"})\n`;
  const doorsLine = (label: string, d: { ids: string[]; rows: string[] }): string =>
    `${name}${label}: ${d.ids.length}/${set.secrets.length} secrets found in clear${d.rows.length ? `: ${d.rows.join("; ")}` : ""}\n`;

  describe.runIf(o.run ?? true)(o.title, () => {
    let t: { dir: string; cleanup: () => void };
    let w: World;
    beforeAll(async () => {
      t = tempDir(`errata-${o.tag}-`);
      w = world(join(t.dir, o.tag));
      await throughEveryDoor(w, set.secrets.map((s) => s.text));
    });
    afterAll(() => t?.cleanup());

    const expected = o.expected;
    if (expected === undefined) {
      it("the redactor alone, then every file Errata wrote through every door", () => {
        process.stdout.write(aloneLine(", redactor alone (report-only)", redactorAlone(set)));
        process.stdout.write(doorsLine(" through every door (report-only)", leaksThroughDoors(w, set.secrets)));
      });
      return;
    }

    it("the redactor alone: misses and hurt look-alikes are the ones listed", () => {
      const r = redactorAlone(set);
      process.stdout.write(aloneLine(" (dev), redactor alone", r));
      expect(r).toEqual({ missed: [...expected.missed], hurt: [...expected.hurt] });
    });

    it("the secrets found in clear in any file Errata wrote through every door are the listed misses and door-only leaks, no more", () => {
      const d = leaksThroughDoors(w, set.secrets);
      process.stdout.write(doorsLine(" (dev) through every door", d));
      expect([...d.ids].sort()).toEqual([...expected.missed, ...(expected.doorOnly ?? [])].sort());
    });
  });
}
