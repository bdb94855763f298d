/**
 * `node:crypto`, loaded on first use. Loading it is a large share of a bare Node start
 * (it brings in the stream modules), so the capture hook's modules call `nodeCrypto()` where
 * they need an HMAC or random bytes instead of importing it: a capture whose reporter
 * pseudonym is already known (cached in the state folder) never loads it. Reply hashes come
 * from `sha256.ts` (WebAssembly), random bytes for ids from /dev/urandom where there is one.
 *
 * Example: `nodeCrypto().createHash("sha256").update("x").digest("hex")`;
 * `randomBytesCheap(3)` -> Uint8Array [0x3f, 0xa9, 0xc1].
 */
import { closeSync, openSync, readSync } from "node:fs";
import { loadNodeCrypto } from "./node-crypto-load.js";

type NodeCrypto = typeof import("node:crypto");

let loaded: NodeCrypto | undefined;

export function nodeCrypto(): NodeCrypto {
  loaded ??= loadNodeCrypto();
  return loaded;
}

/** `n` random bytes from the kernel's generator (/dev/urandom), else from node:crypto. */
export function randomBytesCheap(n: number): Uint8Array {
  const out = new Uint8Array(n);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      let got = 0;
      while (got < n) {
        const r = readSync(fd, out, got, n - got, null);
        if (r <= 0) throw new Error("short read from /dev/urandom");
        got += r;
      }
      return out;
    } finally {
      closeSync(fd);
    }
  } catch {
    return nodeCrypto().randomBytes(n);
  }
}
