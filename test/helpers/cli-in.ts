import { join } from "node:path";
import { run } from "../../cli/main.js";
import { memoryIo } from "./io.js";

/** `errata argv...` in process, in a scratch folder: the ledger at `<dir>/ledger`, HOME and cwd the folder. */
export async function cliIn(dir: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIo({ env: { ERRATA_DIR: join(dir, "ledger"), HOME: dir }, cwd: dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}
