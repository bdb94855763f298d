/**
 * SHA-256 of a text's UTF-8 bytes, computed by a 922-byte WebAssembly module
 * (`core/wasm/sha256.wat`) instead of `node:crypto`. The hook hashes the reply it captures
 * against; loading `node:crypto` costs a fresh process several times more than compiling and
 * running this module (measured: docs/benchmarks-history.md). Where WebAssembly is unavailable (`node --jitless`) it
 * falls back to `node:crypto`; tests check both agree on random texts of every length around
 * the block boundaries and across the chunk size.
 *
 * Example: `sha256Hex("abc")` ->
 * "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".
 */
import { nodeCrypto } from "./node-crypto.js";
import { SHA256_WASM_BASE64 } from "./wasm/sha256-bytes.js";

/** The part of the WebAssembly global used here (the compiler's lib has no WebAssembly types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

interface Sha256Exports {
  memory: { buffer: ArrayBuffer };
  init(): void;
  blocks(at: number, count: number): void;
}

/** Where the module keeps the running hash, and where message blocks go (see sha256.wat). */
const STATE_AT = 288;
const BLOCKS_AT = 1024;
/** Bytes copied in per call (the module has one 64 KiB page). */
const CHUNK = 32768;

let module: Sha256Exports | null | undefined;

function wasm(): Sha256Exports | null {
  if (module === undefined) {
    try {
      const bytes = Buffer.from(SHA256_WASM_BASE64, "base64");
      module = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as Sha256Exports;
    } catch {
      module = null; // no WebAssembly here (e.g. --jitless): node:crypto below
    }
  }
  return module;
}

/** Which implementation `sha256Hex` uses in this process (for tests and the bench). */
export function sha256Engine(): "wasm" | "node:crypto" {
  return wasm() === null ? "node:crypto" : "wasm";
}

/** Lowercase hex SHA-256 of `bytes`, by the WebAssembly module. */
function sha256HexWasm(bytes: Uint8Array, m: Sha256Exports): string {
  const mem = new Uint8Array(m.memory.buffer);
  const n = bytes.length;
  m.init();
  let off = 0;
  while (n - off >= 64) {
    const take = Math.min(CHUNK, (n - off) & ~63);
    mem.set(bytes.subarray(off, off + take), BLOCKS_AT);
    m.blocks(BLOCKS_AT, take >>> 6);
    off += take;
  }
  // The last block(s): the rest, 0x80, zeros, the length in bits as a 64-bit big-endian number.
  const rest = n - off;
  const count = rest + 9 <= 64 ? 1 : 2;
  mem.fill(0, BLOCKS_AT, BLOCKS_AT + 128);
  mem.set(bytes.subarray(off), BLOCKS_AT);
  mem[BLOCKS_AT + rest] = 0x80;
  const view = new DataView(m.memory.buffer);
  const end = BLOCKS_AT + count * 64;
  view.setUint32(end - 8, Math.floor(n / 0x20000000), false);
  view.setUint32(end - 4, (n * 8) >>> 0, false);
  m.blocks(BLOCKS_AT, count);
  let hex = "";
  for (let i = 0; i < 8; i++) hex += view.getUint32(STATE_AT + 4 * i, true).toString(16).padStart(8, "0");
  return hex;
}

/** Lowercase hex SHA-256 of `text`'s UTF-8 bytes (lone surrogates as U+FFFD, as node:crypto). */
export function sha256Hex(text: string): string {
  const m = wasm();
  if (m === null) return nodeCrypto().createHash("sha256").update(text, "utf8").digest("hex");
  return sha256HexWasm(Buffer.from(text, "utf8"), m);
}

/** `sha256:<64 hex>` of a text's UTF-8 bytes. */
export function sha256Tagged(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}
