// The owner's hard block: `errata rules approve <id> --native-deny` on a deny check on one command
// word also writes Claude Code's native permission deny rules into the project's
// .claude/settings.json; approve says which; undo removes exactly those (the owner's other
// settings byte for byte); --dry-run writes nothing; a settings file that does not parse, or a
// check with no native form, exits 2 naming it and writes nothing.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { addProposal, approve, openRuleLedger, readProposals, undo } from "../../runtime/ladder/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { pnpm } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ladder-native-")));
afterEach(() => tmp.cleanup());

const ladder = () => join(tmp.dir, "ledger", "ladder");
const project = () => join(tmp.dir, "app");
const settings = () => join(project(), ".claude", "settings.json");
const checksFile = () => join(ladder(), "checks.json");
const AT = "2026-12-06T08:00:00.000Z";
const NPM = { field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" } as const;
const check = (over: Record<string, unknown> = {}) => ({ id: "ladder-claude.tools.pnpm01", rule_id: pnpm.rule_id, tools: ["Bash"], conditions: [NPM], action: "deny", message: "Use pnpm, never npm.", mode: "shadow", ...over });

/** The owner's settings: tabs, other keys, a deny and an allow of their own. */
const OWNER = '{\n\t"model": "opus",\n\t"permissions": {\n\t\t"allow": ["Bash(git status)"],\n\t\t"deny": [\n\t\t\t"Bash(rm -rf *)"\n\t\t]\n\t},\n\t"env": { "X": "1" }\n}\n';

async function cli(args: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir }, cwd: project(), now: Date.parse("2026-12-06T07:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

/** A shadow check installed at rung 3 and its leave_shadow proposal; returns the proposal id. */
function seedLeaveShadow(over: Record<string, unknown> = {}): string {
  mkdirSync(ladder(), { recursive: true });
  mkdirSync(project(), { recursive: true });
  writeFileSync(checksFile(), `${JSON.stringify({ version: 1, checks: [check(over)] }, null, 2)}\n`);
  openRuleLedger(ladder()).append([{ ...pnpm, rung: 3, location: { kind: "check", check: "ladder-claude.tools.pnpm01" } }]);
  const text = readFileSync(checksFile(), "utf8");
  const p: Proposal = {
    kind: "proposal", v: 1, id: "pr-leave00001", at: AT, type: "leave_shadow", rule_id: pnpm.rule_id, from_rung: 3, to_rung: 3,
    diagnosis: "gate passed", why: "check passed the shadow gate: let it act", evidence: ["gate: passed"],
    edit: { kind: "check", file: checksFile(), file_hash: `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`, check: null, activate: "ladder-claude.tools.pnpm01" },
    review: "skipped offline",
  };
  addProposal(ladder(), p);
  return p.id;
}

const snapshot = () => ({
  checks: readFileSync(checksFile(), "utf8"),
  proposals: readFileSync(join(ladder(), "proposals.jsonl"), "utf8"),
  settings: existsSync(settings()) ? readFileSync(settings(), "utf8") : null,
  backups: existsSync(join(ladder(), "backups")) ? readdirSync(join(ladder(), "backups")).sort() : [],
});

describe("approve --native-deny", () => {
  it("writes the two rules into the owner's settings, says which, and undo puts the file back byte for byte", async () => {
    const id = seedLeaveShadow();
    mkdirSync(join(project(), ".claude"), { recursive: true });
    writeFileSync(settings(), OWNER);
    const r = await cli(["rules", "approve", id, "--native-deny"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`wrote native deny rules Bash(npm), Bash(npm *) in ${settings()} (check ladder-claude.tools.pnpm01)`);
    const after = JSON.parse(readFileSync(settings(), "utf8"));
    const owner = JSON.parse(OWNER);
    expect(after).toEqual({ ...owner, permissions: { ...owner.permissions, deny: ["Bash(rm -rf *)", "Bash(npm)", "Bash(npm *)"] } });
    // The owner's lines are all still there, in order, with their tabs.
    const kept = OWNER.split("\n").filter((l) => !/^\t\t\t"Bash\(rm/.test(l) && l !== "\t\t]");
    for (const line of kept) expect(readFileSync(settings(), "utf8")).toContain(line);
    expect(JSON.parse(readFileSync(checksFile(), "utf8")).checks[0].mode).toBe("active");
    expect(readFileSync(join(ladder(), "backups", `${id}.settings.bak`), "utf8")).toBe(OWNER);

    const u = await cli(["rules", "undo", id]);
    expect(u.code).toBe(0);
    expect(u.out).toContain(`removed native deny rules Bash(npm), Bash(npm *) from ${settings()}`);
    expect(readFileSync(settings(), "utf8")).toBe(OWNER);
    expect(JSON.parse(readFileSync(checksFile(), "utf8")).checks[0].mode).toBe("shadow");
  });

  it("undo after the owner changed another setting removes exactly its rules and keeps the owner's edit", () => {
    const id = seedLeaveShadow();
    mkdirSync(join(project(), ".claude"), { recursive: true });
    writeFileSync(settings(), OWNER);
    approve(ladder(), id, AT, {}, {}, { project: project() });
    const edited = readFileSync(settings(), "utf8").replace('"opus"', '"sonnet"');
    writeFileSync(settings(), edited);
    const said = undo(ladder(), id, AT);
    expect(said.native_deny?.rules).toEqual(["Bash(npm)", "Bash(npm *)"]);
    const text = readFileSync(settings(), "utf8");
    expect(JSON.parse(text)).toEqual({ ...JSON.parse(OWNER), model: "sonnet" });
    // Only the two rules' text left the file: it is the owner's edit of their own file, byte for byte.
    expect(text).toBe(OWNER.replace('"opus"', '"sonnet"'));
  });

  it("writes only the rules the file lacks, and undo leaves the owner's own copy of a rule", async () => {
    const id = seedLeaveShadow();
    mkdirSync(join(project(), ".claude"), { recursive: true });
    const own = '{\n  "permissions": {\n    "deny": ["Bash(npm)"]\n  }\n}\n';
    writeFileSync(settings(), own);
    const r = await cli(["rules", "approve", id, "--native-deny", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).native_deny).toEqual({ file: settings(), check: "ladder-claude.tools.pnpm01", rules: ["Bash(npm)", "Bash(npm *)"], written: ["Bash(npm *)"] });
    expect(JSON.parse(readFileSync(settings(), "utf8")).permissions.deny).toEqual(["Bash(npm)", "Bash(npm *)"]);
    writeFileSync(settings(), readFileSync(settings(), "utf8").replace("{\n", '{\n  "model": "opus",\n'));
    const u = await cli(["rules", "undo", id, "--json"]);
    expect(JSON.parse(u.out).native_deny_removed).toEqual({ file: settings(), rules: ["Bash(npm *)"] });
    expect(JSON.parse(readFileSync(settings(), "utf8"))).toEqual({ model: "opus", permissions: { deny: ["Bash(npm)"] } });
  });

  it("creates the settings file when the project has none, and undo removes it again", async () => {
    const id = seedLeaveShadow();
    const r = await cli(["rules", "approve", id, "--native-deny"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(settings(), "utf8"))).toEqual({ permissions: { deny: ["Bash(npm)", "Bash(npm *)"] } });
    expect(existsSync(join(ladder(), "backups", `${id}.settings.absent`))).toBe(true);
    expect((await cli(["rules", "undo", id])).code).toBe(0);
    expect(existsSync(settings())).toBe(false);
  });

  it("a check with its own project writes into that project's settings, not the folder the command runs in", async () => {
    const elsewhere = join(tmp.dir, "other");
    const id = seedLeaveShadow({ project: elsewhere });
    const r = await cli(["rules", "approve", id, "--native-deny"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(elsewhere, ".claude", "settings.json"), "utf8")).permissions.deny).toEqual(["Bash(npm)", "Bash(npm *)"]);
    expect(existsSync(settings())).toBe(false);
  });

  it("--dry-run says what it would write and writes nothing", async () => {
    const id = seedLeaveShadow();
    mkdirSync(join(project(), ".claude"), { recursive: true });
    writeFileSync(settings(), OWNER);
    const before = snapshot();
    const r = await cli(["rules", "approve", id, "--native-deny", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("would write native deny rules Bash(npm), Bash(npm *)");
    expect(snapshot()).toEqual(before);
  });

  it("a settings file that does not parse exits 2 naming it, and nothing is written", async () => {
    const id = seedLeaveShadow();
    mkdirSync(join(project(), ".claude"), { recursive: true });
    writeFileSync(settings(), '{ "permissions": { "deny": ["Bash(rm *)"], } ');
    const before = snapshot();
    const r = await cli(["rules", "approve", id, "--native-deny"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(settings());
    expect(r.err).toContain("is not JSON");
    expect(snapshot()).toEqual(before);
    // A deny list that is not a list of strings is refused the same way.
    writeFileSync(settings(), '{ "permissions": { "deny": "Bash(rm *)" } }');
    const r2 = await cli(["rules", "approve", id, "--native-deny"]);
    expect(r2.code).toBe(2);
    expect(r2.err).toContain("permissions.deny is not a list of strings");
    expect(JSON.parse(readFileSync(checksFile(), "utf8")).checks[0].mode).toBe("shadow");
  });

  it("a check that is not one command word denied exits 2 and writes nothing", async () => {
    for (const over of [{ action: "ask" }, { conditions: [{ field: "command", operator: "contains", pattern: "npm" }] }, { tools: ["Bash", "Write"] }]) {
      tmp.cleanup();
      tmp = tempDir("errata-ladder-native-");
      const id = seedLeaveShadow(over);
      const before = snapshot();
      const r = await cli(["rules", "approve", id, "--native-deny"]);
      expect(r.code).toBe(2);
      expect(r.err).toContain("not a pure command pattern with action deny");
      expect(snapshot()).toEqual(before);
    }
  });

  it("without --native-deny no settings file is touched", async () => {
    const id = seedLeaveShadow();
    expect((await cli(["rules", "approve", id])).code).toBe(0);
    expect(existsSync(join(project(), ".claude"))).toBe(false);
  });

  it("a climb installing the check: the rules are written with it, and a proposal with no check is refused", async () => {
    mkdirSync(ladder(), { recursive: true });
    mkdirSync(project(), { recursive: true });
    openRuleLedger(ladder()).append([{ ...pnpm, rung: 2 }]);
    const climb: Proposal = {
      kind: "proposal", v: 1, id: "pr-climb00001", at: AT, type: "climb", rule_id: pnpm.rule_id, from_rung: 2, to_rung: 3, diagnosis: "climb", why: "w", evidence: ["e"],
      edit: { kind: "check", file: checksFile(), file_hash: null, check: check() as never, activate: null }, review: "skipped offline",
    };
    addProposal(ladder(), climb);
    const r = await cli(["rules", "approve", climb.id, "--native-deny"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("wrote native deny rules Bash(npm), Bash(npm *)");
    const text: Proposal = { ...climb, id: "pr-text000001", edit: { kind: "text", file: join(project(), "CLAUDE.md"), file_hash: null, before: null, after: "- Use pnpm.\n" } };
    addProposal(ladder(), text);
    const t = await cli(["rules", "approve", text.id, "--native-deny"]);
    expect(t.code).toBe(2);
    expect(t.err).toContain("--native-deny applies to a proposal that installs or activates a check");
    expect(existsSync(join(project(), "CLAUDE.md"))).toBe(false);
  });

  it("a new_check with the owner's conditions: a refusal writes not even the carrying proposal; then the rules go to the corrections' project", async () => {
    mkdirSync(ladder(), { recursive: true });
    mkdirSync(join(project(), ".claude"), { recursive: true });
    openRuleLedger(ladder()).append([{ ...pnpm, project: project() }]);
    const nc: Proposal = { kind: "proposal", v: 1, id: "pr-nc00000001", at: AT, type: "new_check", rule_id: pnpm.rule_id, from_rung: 2, to_rung: 2, diagnosis: "climb", why: "Use pnpm: a check would carry this rule", evidence: ["e1"], edit: null, review: "offline" };
    addProposal(ladder(), nc);
    writeFileSync(settings(), "{ // comments are not JSON\n}\n");
    const proposals = readFileSync(join(ladder(), "proposals.jsonl"), "utf8");
    const bad = await cli(["rules", "approve", nc.id, "--command-regex", "^npm\\b", "--native-deny"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(settings());
    expect(readFileSync(join(ladder(), "proposals.jsonl"), "utf8")).toBe(proposals);
    expect(existsSync(checksFile())).toBe(false);
    writeFileSync(settings(), "{}\n");
    const dry = await cli(["rules", "approve", nc.id, "--command-regex", "^npm\\b", "--native-deny", "--dry-run"]);
    expect(dry.out).toContain("would write native deny rules Bash(npm), Bash(npm *)");
    expect(readFileSync(join(ladder(), "proposals.jsonl"), "utf8")).toBe(proposals);
    const ok = await cli(["rules", "approve", nc.id, "--command-regex", "^npm\\b", "--native-deny"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(readFileSync(settings(), "utf8"))).toEqual({ permissions: { deny: ["Bash(npm)", "Bash(npm *)"] } });
  });

  it("approving a loosening of the check says its native rules stay, and the undos that lift them work", async () => {
    const id = seedLeaveShadow();
    expect((await cli(["rules", "approve", id, "--native-deny"])).code).toBe(0);
    expect((await cli(["rules", "loosen", pnpm.rule_id, "--why", "npm is fine in this repo now"])).code).toBe(0);
    const loosen = [...readProposals(ladder()).values()].find((x) => x.proposal.type === "loosen")!;
    const r = await cli(["rules", "approve", loosen.proposal.id]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`note: native deny rules Bash(npm), Bash(npm *) for check ladder-claude.tools.pnpm01 stay in ${settings()} (the loosening does not lift a hard block); remove them there, or undo ${loosen.proposal.id} and then ${id}`);
    expect(JSON.parse(readFileSync(settings(), "utf8")).permissions.deny).toEqual(["Bash(npm)", "Bash(npm *)"]);
    // The way the note names works: the loosening undone, then the approval that wrote the rules.
    expect((await cli(["rules", "undo", loosen.proposal.id])).code).toBe(0);
    expect((await cli(["rules", "undo", id])).code).toBe(0);
    expect(existsSync(settings())).toBe(false);
  });

  it("a run killed after the writes is finished by a second approve, which still records the rules it wrote", () => {
    const id = seedLeaveShadow();
    mkdirSync(join(project(), ".claude"), { recursive: true });
    writeFileSync(settings(), OWNER);
    expect(() => approve(ladder(), id, AT, { crashAfter: "write" }, {}, { project: project() })).toThrow(/injected crash/);
    expect(readFileSync(settings(), "utf8")).toContain("Bash(npm *)");
    const s = approve(ladder(), id, AT, {}, {}, { project: project() });
    expect(s.status).toBe("applied");
    expect(s.nativeDeny?.added).toEqual(["Bash(npm)", "Bash(npm *)"]);
    expect(JSON.parse(readFileSync(settings(), "utf8")).permissions.deny).toEqual(["Bash(rm -rf *)", "Bash(npm)", "Bash(npm *)"]);
    expect(undo(ladder(), id, AT).native_deny?.rules).toEqual(["Bash(npm)", "Bash(npm *)"]);
    expect(readFileSync(settings(), "utf8")).toBe(OWNER);
  });

  it("property: for any owner settings object and layout, apply adds exactly the new rules and undo restores the bytes, the owner's later edit included", () => {
    const key = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== "permissions" && k !== "__proto__");
    const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }));
    const deny = fc.array(fc.constantFrom<string>("Bash(npm)", "Bash(npm *)", "Bash(rm -rf *)", "Read(./.env)"), { maxLength: 4 });
    let n = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 4 }), fc.option(deny), fc.constantFrom(2, 4, "\t"), fc.boolean(), (other, ownDeny, indent, edit) => {
        const obj = ownDeny === null ? other : { ...other, permissions: { deny: ownDeny } };
        const text = `${JSON.stringify(obj, null, indent)}\n`;
        tmp.cleanup();
        tmp = tempDir(`errata-ladder-native-${n++}-`);
        const id = seedLeaveShadow();
        mkdirSync(join(project(), ".claude"), { recursive: true });
        writeFileSync(settings(), text);
        const s = approve(ladder(), id, AT, {}, {}, { project: project() });
        const want = ["Bash(npm)", "Bash(npm *)"].filter((r) => !(ownDeny ?? ([] as string[])).includes(r));
        expect(s.nativeDeny?.added).toEqual(want);
        expect(JSON.parse(readFileSync(settings(), "utf8"))).toEqual({ ...other, permissions: { deny: [...(ownDeny ?? []), ...want] } });
        if (edit) {
          // The owner changes another setting after the apply: undo removes exactly the rules it wrote.
          writeFileSync(settings(), readFileSync(settings(), "utf8").replace(/^\{/, '{"owner_edit": 1,'));
          undo(ladder(), id, AT);
          expect(readFileSync(settings(), "utf8")).toBe(text.replace(/^\{/, '{"owner_edit": 1,'));
        } else {
          undo(ladder(), id, AT);
          expect(readFileSync(settings(), "utf8")).toBe(text);
        }
      }),
      { numRuns: 40 },
    );
  });
});
