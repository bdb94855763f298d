/**
 * node:path for the mod's bundle (scripts/bundle-mod.js): the POSIX `join`, `resolve`,
 * `dirname` and `basename` the shared code calls, on absolute paths. Hand-written because the
 * bundle may import nothing, and these four are a few lines (pathe, which would do, is only a
 * transitive dependency here). A relative path resolves against "/" (the mod passes absolute ones).
 */
function normalize(p: string): string {
  const abs = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!abs) out.push("..");
    } else out.push(part);
  }
  const s = out.join("/");
  return abs ? `/${s}` : s === "" ? "." : s;
}
export function join(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  const n = normalize(joined);
  // As node:path's join: a trailing separator is kept.
  return joined.endsWith("/") && !n.endsWith("/") ? `${n}/` : n;
}
export function resolve(...parts: string[]): string {
  let at = "";
  for (let i = parts.length - 1; i >= 0 && !at.startsWith("/"); i--) at = at === "" ? parts[i]! : `${parts[i]}/${at}`;
  return normalize(at.startsWith("/") ? at : `/${at}`);
}
export function dirname(p: string): string {
  const n = normalize(p);
  const i = n.lastIndexOf("/");
  return i < 0 ? "." : i === 0 ? "/" : n.slice(0, i);
}
export function basename(p: string): string {
  const n = normalize(p);
  return n.slice(n.lastIndexOf("/") + 1);
}
export const sep = "/";
export default { join, resolve, dirname, basename, sep };
