/**
 * `errata rules build|show|search|cover|cluster|pairs|recommend|act|recheck|report`: every rule of the assistant's instruction
 * files indexed with stable ids, found again by search, and matched to the failures it covers
 * (docs/rules.md); and the binding ladder's audit|approvals|approve|undo|reject|loosen|morning|budget
 * (docs/ladder.md), the randomised holdout (holdout, docs/causal.md), and the per-check tool handlers
 * (hooks, docs/mod.md).
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { register as act } from "./act.js";
import { register as approvals } from "./approvals.js";
import { register as approve } from "./approve.js";
import { register as audit } from "./audit.js";
import { register as budget } from "./budget.js";
import { register as build } from "./build.js";
import { register as cluster } from "./cluster.js";
import { register as cover } from "./cover.js";
import { register as holdout } from "./holdout.js";
import { register as hooks } from "./hooks.js";
import { register as loosen } from "./loosen.js";
import { register as morning } from "./morning.js";
import { register as pairs } from "./pairs.js";
import { register as recheck } from "./recheck.js";
import { register as recommend } from "./recommend.js";
import { register as reject } from "./reject.js";
import { register as report } from "./report.js";
import { register as search } from "./search.js";
import { register as show } from "./show.js";
import { register as undo } from "./undo.js";

export function register(program: Command, ctx: CommandContext): void {
  const group = program
    .command("rules")
    .description("The rule index: every rule of the instruction files, with stable ids; which failures each covers")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy claude-md && errata rules build --root datasets/claude-md/astral-sh__uv && errata rules search never commit",
      ]),
    );
  for (const sub of [build, show, search, cover, cluster, pairs, recommend, act, recheck, report]) sub(group, ctx);
  for (const sub of [audit, approvals, approve, undo, reject, loosen, morning, budget, holdout, hooks]) sub(group, ctx);
}
