import type { CommandModule, Register } from "./command.js";

/**
 * The register function of a loaded command module, with the subcommands it needs already
 * imported. A command's start is mostly the ES modules it loads (and the schemas they build
 * at import): a group (`rules`, `eval`, ...) therefore imports only the subcommand its command
 * line names, and all of them only when none is named (help, a typo, an option first), so
 * `errata rules --help` lists every subcommand and a typo still gets its suggestion.
 * `rest` is the command line after the module's own name; nested groups recurse.
 *
 * Example: `loadRegister(rulesIndex, ["approvals", "--json"])` imports rules/approvals.js only.
 */
export async function loadRegister(mod: CommandModule, rest: readonly string[]): Promise<Register | null> {
  const register = mod.register;
  if (typeof register !== "function") return null;
  const table = mod.subcommands;
  if (table === undefined) return (program, ctx) => register(program, ctx, []);
  const word = rest[0];
  const named = word !== undefined && Object.hasOwn(table, word);
  const names = named ? [word] : Object.keys(table);
  const subs: Register[] = [];
  for (const name of names) {
    const load = table[name];
    if (load === undefined) continue;
    const sub = await loadRegister(await load(), named ? rest.slice(1) : []);
    if (sub !== null) subs.push(sub);
  }
  return (program, ctx) => register(program, ctx, subs);
}
