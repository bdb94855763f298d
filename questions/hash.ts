import { createHash } from "node:crypto";
import type { Question } from "../schemas/question.js";

/**
 * The bank hash: sha256 (hex) over a canonical serialisation of what a judge is asked, per
 * question: id, version, group, text and mapped class, sorted by id with a fixed key
 * order. It changes whenever any question's text or version changes (or one is added,
 * removed, regrouped or remapped); guidance and examples, which only labellers read, do not
 * move it. Pure: `createHash` computes, it does no I/O.
 *
 * Example: `hashBank([])` → `"sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"`.
 */
export function hashBank(questions: readonly Question[]): string {
  return `sha256:${createHash("sha256").update(canonicalBank(questions)).digest("hex")}`;
}

/** The canonical serialisation the hash is taken over (one JSON array). */
export function canonicalBank(questions: readonly Question[]): string {
  const rows = [...questions]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((q) => [q.id, q.version, q.group, q.text, q.maps_to_class ?? null]);
  return JSON.stringify(rows);
}
