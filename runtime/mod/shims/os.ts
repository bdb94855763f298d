/** node:os for the mod's bundle: the mod reads HOME through `$.env`; with none, there is no home. */
export function homedir(): string {
  throw new Error("HOME is not set (the mod reads it through $.env)");
}
export default { homedir };
