/** node:url for the mod's bundle: nothing in it asks for a file URL (lang-dir.ts is replaced). */
export function fileURLToPath(u: string): string {
  return String(u).replace(/^file:\/\//, "");
}
export function pathToFileURL(p: string): { href: string } {
  return { href: `file://${p}` };
}
export default { fileURLToPath, pathToFileURL };
