// Small file helpers for the research loop: JSONL read/write, sha256, folders.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Parses every non-empty line; a line that does not parse is an error naming file and line. */
export function readJsonl(file) {
  const text = readFileSync(file, "utf8");
  const out = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      out.push(JSON.parse(line));
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON`);
    }
  });
  return out;
}

export function writeJsonl(file, rows) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length > 0 ? "\n" : ""));
  return file;
}

export function writeJson(file, value) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
  return file;
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

export function sha256File(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

export function exists(file) {
  return existsSync(file);
}

/** Group rows by a key function into a Map of arrays (insertion order kept). */
export function groupBy(rows, key) {
  const m = new Map();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}
