// The WebAssembly SHA-256 against node:crypto's: known vectors, every length around the
// 64-byte block and padding boundaries, texts across the 32 KiB copy chunk, random Unicode
// (lone surrogates included), and the generated module bytes against their .wat source.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Engine, sha256Hex, sha256Tagged } from "../core/sha256.js";
import { built } from "./helpers/built.js";

const repoRoot = resolve(fileURLToPath(new URL("..", import.meta.url)));
const oracle = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

describe("sha256Hex (WebAssembly)", () => {
  it("runs on WebAssembly here", () => {
    expect(sha256Engine()).toBe("wasm");
  });

  it("gives the FIPS 180-4 example digests", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    expect(sha256Tagged("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("equals node:crypto at every length from 0 to 200 bytes and across the 32 KiB chunk", () => {
    for (let n = 0; n <= 200; n++) expect(sha256Hex("a".repeat(n)), `length ${n}`).toBe(oracle("a".repeat(n)));
    for (const n of [32767, 32768, 32769, 32768 + 55, 32768 + 56, 65535, 65536, 100001]) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join("");
      expect(sha256Hex(text), `length ${n}`).toBe(oracle(text));
    }
    const mb = "é€𝄞".repeat(150_000); // about 1.35 MB of UTF-8
    expect(sha256Hex(mb)).toBe(oracle(mb));
  });

  it("equals node:crypto on random texts (property, seeded)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 0, maxLength: 400, size: "max" }), (text) => sha256Hex(text) === oracle(text)),
      { seed: 20261130, numRuns: 2000 },
    );
  });

  it.skipIf(!built)("falls back to node:crypto where WebAssembly is off (node --jitless), with the same digest", () => {
    const script = `import("${join(repoRoot, "dist", "core", "sha256.js")}").then((m) => console.log(m.sha256Engine(), m.sha256Hex("abc")))`;
    const r = spawnSync(process.execPath, ["--jitless", "-e", script], { encoding: "utf8" });
    expect(r.status).toBe(0); // V8 itself warns on stderr that --jitless turns WebAssembly off
    expect(r.stdout.trim()).toBe("node:crypto ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("the module bytes are what core/wasm/sha256.wat compiles to", () => {
    const r = spawnSync(process.execPath, [join(repoRoot, "scripts", "build-sha256-wasm.js"), "--check"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
