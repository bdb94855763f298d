// The assistant's own memory as rung 0: the project's auto-memory folder indexed as rule units
// with dates, a Read of a note as the "note was read" sensor, and a rule corrected twice whose
// only home is a note, read both times, diagnosed to climb one rung.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diagnose } from "../../runtime/ladder/diagnose.js";
import { inView } from "../../runtime/ladder/incidents.js";
import { foldLedger } from "../../runtime/ladder/ledger.js";
import { memoryDir, memoryRuleRow, memoryUnits, noteReads, projectSlug } from "../../runtime/ladder/memory.js";
import type { OwnerTurn } from "../../runtime/ladder/signals.js";
import { RuleRowSchema, type IncidentRow } from "../../schemas/rule-ledger.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { run } from "../../cli/main.js";
import { openRuleLedger } from "../../runtime/ladder/ledger.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-memory-")));
afterEach(() => tmp.cleanup());

function folder(): string {
  const dir = memoryDir(join(tmp.dir, "home"), "/home/me/app");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "MEMORY.md"), "# Memory\n\n- [Finnish replies](reply-in-finnish.md): the owner writes Finnish\n- Tests run with pnpm test\n");
  writeFileSync(join(dir, "reply-in-finnish.md"), "---\nname: Reply in Finnish\ndescription: language of replies\ntype: feedback\nmodified: 2026-11-02T08:00:00Z\n---\n\nReply in Finnish when I write Finnish.\n");
  writeFileSync(join(dir, "no-sudo.md"), "Never run sudo in this repository.\n");
  const t = new Date("2026-10-20T12:00:00Z");
  for (const f of ["MEMORY.md", "no-sudo.md"]) utimesSync(join(dir, f), t, t);
  return dir;
}

describe("the auto-memory folder as rule units", () => {
  it("finds the project's folder by Claude Code's slug", () => {
    expect(projectSlug("/home/me/app")).toBe("-home-me-app");
    expect(memoryDir("/h", "/home/me/my_app.v2")).toBe("/h/.claude/projects/-home-me-my-app-v2/memory");
  });
  it("one unit per note and per index line, each dated (frontmatter `modified`, else the file's time), at rung 0", () => {
    const dir = folder();
    const units = memoryUnits(dir);
    expect(units.map((u) => [u.kind, u.name, u.text, u.date, u.date_from])).toEqual([
      ["note", "no-sudo", "Never run sudo in this repository.", "2026-10-20", "file"],
      ["note", "Reply in Finnish", "Reply in Finnish when I write Finnish.", "2026-11-02", "frontmatter"],
      ["index", "MEMORY.md", "[Finnish replies](reply-in-finnish.md): the owner writes Finnish", "2026-10-20", "file"],
      ["index", "MEMORY.md", "Tests run with pnpm test", "2026-10-20", "file"],
    ]);
    // Stable ids: the same folder gives the same ids.
    expect(memoryUnits(dir).map((u) => u.rule_id)).toEqual(units.map((u) => u.rule_id));
    for (const u of units) expect(RuleRowSchema.parse(memoryRuleRow(u))).toMatchObject({ rung: 0, origin: "index" });
    expect(memoryUnits(join(tmp.dir, "nowhere"))).toEqual([]);
  });
});

describe("the note-was-read sensor, and a climb from memory", () => {
  it("a Read of the note is in view; none is not; two corrections read both times diagnose a climb to rung 1", () => {
    const dir = folder();
    const note = memoryUnits(dir).find((u) => u.name === "Reply in Finnish")!;
    const row = memoryRuleRow(note);
    const turn = (read: boolean): OwnerTurn => ({ exchange_id: "ex-1", session_id: "s1", ts: "2026-11-10T10:00:00Z", origin: "typed" as OwnerTurn["origin"], text: "suomeksi, kiitos", reply_before: "Sure, here it is.", tools_before: read ? [{ name: "Read", input: { file_path: note.file } } as unknown as OwnerTurn["tools_before"][number]] : [], tools_after: [] });
    const rule = foldLedger([row]).rules.get(row.rule_id)!;
    expect(inView(rule, turn(true), [])).toBe(true);
    expect(inView(rule, turn(false), [])).toBe(false);
    expect(noteReads([{ session_id: "s1", tool_name: "Read", file_path: note.file }, { session_id: "s1", tool_name: "Read", file_path: "/elsewhere/x.md" }, { session_id: "s1", tool_name: "Edit", file_path: note.file }], dir)).toEqual([{ session_id: "s1", file: note.file, ts: null }]);
    const inc = (k: number): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i${k}`, rule_id: row.rule_id, exchange_id: `e${k}`, session_id: `s${k}`, date: `2026-11-1${k}`, severity: 2, signal: "explicit", in_view: true, rung: 0, cause: "rule_gap" });
    const twice = foldLedger([row, inc(1), inc(2)]).rules.get(row.rule_id)!;
    expect(diagnose(twice, [], { position: 0, lines: 0 })).toMatchObject({ diagnosis: "climb", from: 0, to: 1 });
  });
});

describe("errata rules audit --root <project's transcripts folder>", () => {
  it("adds its memory notes to the rule ledger at rung 0, once", async () => {
    const dir = folder();
    const root = join(dir, "..");
    const env = { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: join(tmp.dir, "home") };
    for (let k = 0; k < 2; k++) {
      const m = memoryIo({ env, cwd: tmp.dir });
      expect(await run(["rules", "audit", "--root", root, "--json"], m.io), m.err()).toBe(0);
    }
    const rules = [...openRuleLedger(join(tmp.dir, "ledger", "ladder")).read().ledger.rules.values()];
    expect(rules.map((r) => [r.rung, r.text])).toEqual(memoryUnits(dir).map((u) => [0, u.text]));
  });
});
