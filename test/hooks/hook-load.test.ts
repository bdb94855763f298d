// What the hook process loads, its code caches, and the state that spares a capture from
// loading node:crypto (the reply hash kept by the Stop hook, the cached reporter identity).
// These run the compiled hook and its bundles (`npm test` builds them first).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hookIdentity, identityFile } from "../../runtime/hooks/hook-identity.js";
import { loadLastReply, saveLastReply } from "../../runtime/hooks/hook-state.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { readTranscriptTail } from "../../runtime/hooks/transcript-tail.js";
import { importRulesFile } from "../../runtime/privacy/import-rules-file.js";
import { loadOrCreateReporterKey, pseudonymize, REPORTER_KEY_FILE } from "../../runtime/privacy/pseudonym.js";
import { instanceId } from "../../runtime/store/new-erratum.js";
import { tempDir } from "../helpers/io.js";
import { hookIo, ledgerLines } from "./hook-helpers.js";
import { built } from "../helpers/built.js";
import { createRequire } from "node:module";

const { cacheHeader } = createRequire(import.meta.url)("../../bin/cache-key.cjs") as { cacheHeader: (src: string) => string };

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const bundleDir = join(repoRoot, "dist", "runtime", "hooks");
const langDir = join(repoRoot, "dist", "runtime", "classifier", "lang");

/** A copy of the built hook (bundles and caches) with the language files where the bundles look for them. */
function copyHook(into: string): string {
  const dir = join(into, "hooks");
  cpSync(bundleDir, dir, { recursive: true, filter: (src) => !src.endsWith(".js") && !src.endsWith(".d.ts") });
  cpSync(langDir, join(into, "classifier", "lang"), { recursive: true });
  return dir;
}
const loaderFile = join(repoRoot, "bin", "errata.cjs");

/** The oracle: node:crypto's SHA-256 (the hook computes it with WebAssembly). */
const sha256Tagged = (text: string): string => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-hookload-")));
afterEach(() => tmp.cleanup());

/**
 * Runs the hook through the loader in a child process and reports which of Node's costly
 * built-in modules it loaded (beyond those loaded before it ran) and whether each bundle came
 * from its code cache.
 */
function probe(stdin: object, env: Record<string, string>, dir = bundleDir, event = "user-prompt-submit"): { modules: string[]; bundles: Array<{ name: string; cacheUsed: boolean }>; stdout: string; stderr: string } {
  const script = `
    const before = new Set(process.moduleLoadList);
    const { createLoader } = require(${JSON.stringify(loaderFile)});
    const loader = createLoader(${JSON.stringify(dir)});
    loader.load("hook.bundle.cjs").runHook([${JSON.stringify(event)}]).then(() => {
      const modules = process.moduleLoadList.filter((m) => !before.has(m) && /^NativeModule (crypto|url|stream|net|tty|internal\\/streams\\/readable)$/.test(m));
      require("fs").writeFileSync(3, JSON.stringify({ modules, bundles: loader.report() }));
    });`;
  // From a file: \`node -e\` itself loads crypto, url and the streams before the script runs.
  const file = join(tmp.dir, `probe-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file], { input: JSON.stringify(stdin), env: { ...process.env, ...env }, encoding: "utf8", stdio: ["pipe", "pipe", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`probe failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(String(r.output[3])) as { modules: string[]; bundles: Array<{ name: string; cacheUsed: boolean }> };
  return { ...out, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!built)("the hook's load footprint", () => {
  it("has a code cache beside each bundle, made from the current bundle", () => {
    for (const name of ["hook.bundle.cjs", "hook-capture.bundle.cjs"]) {
      const src = readFileSync(join(bundleDir, name), "utf8");
      const head = readFileSync(join(bundleDir, `${name}.v8cache`)).toString("latin1", 0, 80).split("\n")[0];
      expect(head).toBe(cacheHeader(src).trimEnd());
      // Keyed on the bundle's build id: the digest of its text before the id's line.
      const at = src.lastIndexOf("\n//errata-build:");
      const digest = createHash("sha256").update(src.slice(0, at)).digest("hex").slice(0, 32);
      expect(head).toBe(`errata-v8cache ${src.length} ${digest}`);
    }
  });

  it("an ordinary prompt loads only the main bundle, from its cache, and no crypto, url, stream or tty module", () => {
    const ledger = join(tmp.dir, "ledger");
    const p = probe({ session_id: "s1", prompt: "add a retry to the fetch call and run the tests" }, { ERRATA_DIR: ledger });
    expect(p.bundles).toEqual([{ name: "hook.bundle.cjs", cacheUsed: true }]);
    expect(p.modules).toEqual([]);
    expect(p.stdout).toBe("");
    expect(existsSync(ledger)).toBe(false);
  });

  it("a capture after the Stop hook kept the reply loads no node:crypto (kept hash, cached identity)", () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, USER: "ana" };
    const first = probe({ session_id: "s1", prompt: "no, that's wrong" }, env); // creates the key and the identity cache
    expect(first.stdout).toMatch(/captured this prompt as a correction/);
    // The first capture makes the reporter key and hashes: node:crypto is loaded then.
    expect(first.modules).toContain("NativeModule crypto");
    const stop = spawnSync(process.execPath, [join(repoRoot, "bin", "errata.cjs"), "hook", "stop"], {
      input: JSON.stringify({ session_id: "s1", last_assistant_message: "I renamed the function everywhere." }),
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
    expect(stop.status).toBe(0);
    const p = probe({ session_id: "s1", prompt: "that's not what I asked, I already told you to keep the old name" }, env);
    expect(p.stdout).toMatch(/captured this prompt as a correction/);
    expect(p.modules).toEqual([]);
    expect(p.bundles.map((b) => b.name).sort()).toEqual(["hook-capture.bundle.cjs", "hook.bundle.cjs"]);
    expect(p.bundles.every((b) => b.cacheUsed)).toBe(true);
    const rows = ledgerLines(ledger);
    expect(rows).toHaveLength(2);
    const last = rows[1] as { context: { response_hash: string; response_preview: string }; reporter: { id: string }; instance: string };
    // The kept hash is the reply's real SHA-256, and the cached identity is the real one.
    expect(last.context.response_preview).toBe("I renamed the function everywhere.");
    expect(last.context.response_hash).toBe(sha256Tagged("I renamed the function everywhere."));
    const stateDir = join(ledger, ".state");
    expect(last.reporter.id).toBe(pseudonymize("ana", loadOrCreateReporterKey(stateDir)));
    expect(last.instance).toBe(instanceId(hostname()));
  });

  it("the Stop hook of a session with a transcript keeps no reply text and loads no redactor; the capture reads the reply from the transcript, redacted", () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, USER: "ana" };
    // Made here: no credential-shaped literal sits in the repository.
    const value = Buffer.from("errata withheld reply sample").toString("base64");
    const reply = `Deployed. The job reads DB_PASSWORD=${value} from its environment.`;
    const base = { sessionId: "s7", isSidechain: false, userType: "external", cwd: "/home/u/app", version: "2.1.9" };
    const transcript = join(tmp.dir, "s7.jsonl");
    writeFileSync(
      transcript,
      [
        { ...base, type: "user", uuid: "u1", parentUuid: null, timestamp: "2026-11-30T11:50:00.000Z", message: { role: "user", content: "please deploy it" } },
        { ...base, type: "assistant", uuid: "u2", parentUuid: "u1", timestamp: "2026-11-30T11:50:30.000Z", message: { id: "msg_2", model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "text", text: reply }] } },
      ].map((l) => `${JSON.stringify(l)}\n`).join(""),
    );
    probe({ session_id: "s1", prompt: "no, that's wrong" }, env); // creates the key and the identity cache
    const stop = probe({ session_id: "s7", transcript_path: transcript, hook_event_name: "Stop", last_assistant_message: reply }, env, bundleDir, "stop");
    expect(stop.bundles.map((b) => b.name)).not.toContain("hook-redact.bundle.cjs");
    const kept = loadLastReply(join(ledger, ".state"), "s7");
    expect(kept).toMatchObject({ reply: null, reply_withheld: true, reply_sha256: sha256Tagged(reply) });
    const hookDir = join(ledger, ".state", "hook");
    const files = readdirSync(hookDir).filter((n) => n.startsWith("last-reply-"));
    expect(files).toHaveLength(1);
    expect(readFileSync(join(hookDir, files[0]!), "utf8")).not.toContain(value);
    // Nor a reply the pre-filter would clear: with a transcript, only its hash is kept.
    const plain = "I renamed the function everywhere.";
    probe({ session_id: "s8", transcript_path: transcript, hook_event_name: "Stop", last_assistant_message: plain }, env, bundleDir, "stop");
    expect(loadLastReply(join(ledger, ".state"), "s8")).toMatchObject({ reply: null, reply_withheld: true, reply_sha256: sha256Tagged(plain) });
    // With no transcript to read it from later, a reply the pre-filter clears is kept as delivered.
    saveLastReply(join(ledger, ".state"), { session_id: "s8", ts: "2026-11-30T11:50:31.000Z", reply: plain, model: null }, Date.parse("2026-11-30T11:50:31Z"), null);
    expect(loadLastReply(join(ledger, ".state"), "s8")).toMatchObject({ reply: plain, reply_cleared: true });
    expect(loadLastReply(join(ledger, ".state"), "s8")?.reply_withheld).toBeUndefined();
    // The capture takes the withheld reply from the transcript and writes it redacted.
    const p = probe({ session_id: "s7", transcript_path: transcript, prompt: "no, that's wrong, you deployed the old branch" }, env);
    expect(p.stdout).toMatch(/captured this prompt as a correction/);
    // The capture is where the redactor loads (the report sees it: the Stop hook's did not).
    expect(p.bundles.map((b) => b.name)).toContain("hook-redact.bundle.cjs");
    const row = ledgerLines(ledger)[1] as { context: { response_hash: string | null; response_preview: string } };
    expect(row.context.response_preview).toContain("DB_PASSWORD=[REDACTED");
    expect(row.context.response_preview).not.toContain(value);
    expect(row.context.response_hash).toBe(sha256Tagged(reply));
  });

  it("betterleaks' imported rules: without an import the redactor part loads no part for them; with one it does, and redacts by them", () => {
    const ledger = join(tmp.dir, "ledger");
    // On here (the test setup turns it off): the child reads its own state folder, which holds no import at first.
    const env = { ERRATA_DIR: ledger, HOME: tmp.dir, USER: "ana", ERRATA_IMPORTED_RULES: "on" };
    // A provider format gitleaks' data has no rule for, written for this test.
    const token = "acme_Zq8vR2mK9pLw4xTyNb7cQe3h";
    const without = probe({ session_id: "s1", prompt: `no, that's wrong, the key is ${token}` }, env);
    expect(without.stdout).toMatch(/captured this prompt as a correction/);
    expect(without.bundles.map((b) => b.name)).toContain("hook-redact.bundle.cjs");
    expect(without.bundles.map((b) => b.name)).not.toContain("hook-imported.bundle.cjs");
    const toml = join(tmp.dir, "rules.toml");
    writeFileSync(toml, ['title = "betterleaks config"', "[[rules]]", 'id = "acme-api-token"', "regex = '''acme_[A-Za-z0-9]{24}'''", 'keywords = ["acme_"]', ""].join("\n"));
    importRulesFile(join(ledger, ".state"), toml, { version: "v1.0.0", commit: "", licence: "MIT" }, new Date());
    const withImport = probe({ session_id: "s2", prompt: `no, that's wrong again, the key is ${token}` }, env);
    expect(withImport.bundles.map((b) => b.name)).toContain("hook-imported.bundle.cjs");
    const rows = ledgerLines(ledger).map((r) => JSON.stringify(r));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => !r.includes(token))).toBe(true);
    expect(rows[0]).not.toContain("[REDACTED:acme-api-token]");
    expect(rows[1]).toContain("[REDACTED:acme-api-token]");
  });

  it("a kept reply marked cleared is not scanned again; one without the mark (an earlier version's file) is redacted by the capture", async () => {
    const ledger = join(tmp.dir, "ledger");
    const state = join(ledger, ".state");
    const file = saveLastReply(state, { session_id: "s4", ts: "2026-11-30T11:59:00.000Z", reply: "Pushed to main.", model: null }, Date.parse("2026-11-30T11:59:00Z"), null);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ reply: "Pushed to main.", reply_cleared: true });
    // A file of an earlier version: a reply kept in clear, no mark. Made here: no credential-shaped literal sits in the repository.
    const value = Buffer.from("errata earlier kept reply").toString("base64");
    const old = { schema: "hook-last-reply/1", session_id: "s4", ts: "2026-11-30T11:59:00.000Z", reply: `Set DB_PASSWORD=${value} in .env.`, model: null };
    writeFileSync(file, `${JSON.stringify(old)}\n`);
    const h = hookIo(JSON.stringify({ session_id: "s4", prompt: "no, that's wrong" }), { ERRATA_DIR: ledger, USER: "ana" });
    await runHook(["user-prompt-submit"], h.io);
    const row = ledgerLines(ledger)[0] as { context: { response_preview: string } };
    expect(row.context.response_preview).toContain("DB_PASSWORD=[REDACTED");
    expect(row.context.response_preview).not.toContain(value);
    // Marked cleared (as only this version's Stop hook marks a reply it kept as it is), it is trusted.
    writeFileSync(file, `${JSON.stringify({ ...old, reply: "Pushed to main.", reply_cleared: true })}\n`);
    await runHook(["user-prompt-submit"], hookIo(JSON.stringify({ session_id: "s4", prompt: "no, that's wrong again" }), { ERRATA_DIR: ledger, USER: "ana" }).io);
    expect((ledgerLines(ledger)[1] as { context: { response_preview: string } }).context.response_preview).toBe("Pushed to main.");
  });

  it("a capture with no kept reply hashes the transcript's reply without node:crypto (cached identity)", () => {
    const ledger = join(tmp.dir, "ledger");
    const env = { ERRATA_DIR: ledger, USER: "ana" };
    const transcript = join(repoRoot, "datasets", "claude-code", "spotter", "subagent.jsonl");
    const reply = readTranscriptTail(transcript, "that's not what I asked").reply ?? "";
    expect(reply).toMatch(/^## Beads Created/);
    probe({ session_id: "s1", prompt: "no, that's wrong" }, env); // creates the key and the identity cache
    const p = probe({ session_id: "s5", transcript_path: transcript, prompt: "that's not what I asked" }, env);
    expect(p.stdout).toMatch(/captured this prompt as a correction/);
    expect(p.modules).toEqual([]);
    const row = ledgerLines(ledger)[1] as { context: { response_hash: string | null } };
    expect(row.context.response_hash).toBe(sha256Tagged(reply));
  });

  it("a copy whose files carry another modification time (as an installed package's do) still uses its caches", () => {
    const dir = copyHook(join(tmp.dir, "installed"));
    // npm gives an installed package's files one fixed time (1985-10-26); any time other than the build's will do.
    const installed = new Date("1985-10-26T08:15:00Z");
    for (const f of readdirSync(dir)) utimesSync(join(dir, f), installed, installed);
    const p = probe({ session_id: "s1", prompt: "add a retry to the fetch call and run the tests" }, { ERRATA_DIR: join(tmp.dir, "ledger") }, dir);
    expect(p.bundles).toEqual([{ name: "hook.bundle.cjs", cacheUsed: true }]);
  });

  it("a stale or corrupt cache is not used, and the hook still captures", () => {
    // A copy of the bundles whose caches no longer match them (one rewritten, one garbage).
    const dir = copyHook(join(tmp.dir, "runtime"));
    writeFileSync(join(dir, "hook.bundle.cjs"), `${readFileSync(join(dir, "hook.bundle.cjs"), "utf8")}\n// rebuilt\n`);
    writeFileSync(join(dir, "hook-capture.bundle.cjs.v8cache"), "errata-v8cache 1 2\ngarbage");
    const ledger = join(tmp.dir, "ledger");
    const p = probe({ session_id: "s2", prompt: "3/10, you ignored half the spec" }, { ERRATA_DIR: ledger }, dir);
    expect(p.stdout).toMatch(/captured this prompt as a complaint/);
    expect(p.bundles.every((b) => !b.cacheUsed)).toBe(true);
    expect(ledgerLines(ledger)).toHaveLength(1);
  });

  it("a rule file made from other language files than the index: the capture says so on stderr and writes nothing", () => {
    const dir = copyHook(join(tmp.dir, "runtime"));
    const rules = join(dir, "..", "classifier", "lang", "en.rules.tsv");
    const text = readFileSync(rules, "utf8");
    writeFileSync(rules, text.replace(/^capture-rules\/1 [0-9a-f]{64}/, `capture-rules/1 ${"0".repeat(64)}`));
    const ledger = join(tmp.dir, "ledger");
    const p = probe({ session_id: "s4", prompt: "no, that's wrong" }, { ERRATA_DIR: ledger }, dir);
    expect(p.stdout).toBe("");
    expect(p.stderr).toMatch(/internal fault \(lang\/en\.rules\.tsv: expected the header "capture-rules\/1 [0-9a-f]{64}".*Regenerate both/);
    expect(existsSync(ledger)).toBe(false);
  });

  it("a missing build: the bin exits 0 with one line on stderr and writes nothing", () => {
    const root = join(tmp.dir, "pkg");
    mkdirSync(join(root, "bin"), { recursive: true });
    // The package's bin folder as it ships, without the dist/ a build makes.
    for (const f of ["errata.cjs", "cache-key.cjs"]) cpSync(join(repoRoot, "bin", f), join(root, "bin", f));
    const ledger = join(tmp.dir, "ledger");
    const r = spawnSync(process.execPath, [join(root, "bin", "errata.cjs"), "hook", "user-prompt-submit"], {
      input: JSON.stringify({ session_id: "s3", prompt: "no, that's wrong" }),
      env: { ...process.env, ERRATA_DIR: ledger },
      encoding: "utf8",
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^errata hook: cannot load the hook \(.*hook\.bundle\.cjs.*\); nothing captured/);
    expect(existsSync(ledger)).toBe(false);
  });
});

describe("the state that spares a capture from hashing", () => {
  it("the Stop hook keeps the reply with its SHA-256; a file of another session is absent", () => {
    const state = join(tmp.dir, "state");
    const file = saveLastReply(state, { session_id: "abc", ts: "2026-11-30T12:00:00.000Z", reply: "Done.", model: null }, Date.parse("2026-11-30T12:00:00Z"), null);
    expect(loadLastReply(state, "abc")?.reply_sha256).toBe(sha256Tagged("Done."));
    // The file names the session inside: the same file read for another session is absent.
    const other = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...other, session_id: "xyz" }));
    expect(loadLastReply(state, "abc")).toBeNull();
  });

  it("a kept hash that is malformed is ignored and the capture hashes the reply itself", async () => {
    const ledger = join(tmp.dir, "ledger");
    const state = join(ledger, ".state");
    const file = saveLastReply(state, { session_id: "s9", ts: "2026-11-30T11:59:00.000Z", reply: "Pushed to main.", model: null }, Date.parse("2026-11-30T11:59:00Z"), null);
    const kept = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...kept, reply_sha256: "sha256:not-hex" }));
    const h = hookIo(JSON.stringify({ session_id: "s9", prompt: "no, that's wrong" }), { ERRATA_DIR: ledger, USER: "ana" });
    await runHook(["user-prompt-submit"], h.io);
    const row = ledgerLines(ledger)[0] as { context: { response_hash: string } };
    expect(row.context.response_hash).toBe(sha256Tagged("Pushed to main."));
  });

  it("the identity cache gives the computed values, and is recomputed when the user, host or key changes", () => {
    const state = join(tmp.dir, "state");
    const a = hookIdentity(state, "ana", "laptop");
    const key = loadOrCreateReporterKey(state);
    expect(a).toEqual({ reporter: pseudonymize("ana", key), instance: instanceId("laptop") });
    // The cache keeps the pseudonym, never the user or the host in clear (a user can be an e-mail).
    const cached = readFileSync(identityFile(state), "utf8");
    expect(JSON.parse(cached)).toMatchObject(a);
    expect(cached).not.toMatch(/ana|laptop/);
    expect(hookIdentity(state, "ana", "laptop")).toEqual(a);
    expect(hookIdentity(state, "bo", "laptop")).toEqual({ reporter: pseudonymize("bo", key), instance: instanceId("laptop") });
    expect(hookIdentity(state, "bo", "desk").instance).toBe(instanceId("desk"));
    // A new key (the old one removed) gives a new pseudonym, not the cached one.
    rmSync(join(state, REPORTER_KEY_FILE));
    const b = hookIdentity(state, "bo", "desk");
    expect(b.reporter).toBe(pseudonymize("bo", loadOrCreateReporterKey(state)));
    expect(b.reporter).not.toBe(pseudonymize("bo", key));
    // A cache that does not parse is recomputed.
    writeFileSync(identityFile(state), "{");
    expect(hookIdentity(state, "bo", "desk")).toEqual(b);
  });
});
