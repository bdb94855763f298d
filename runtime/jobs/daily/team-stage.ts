/**
 * The team stage of `errata daily` on a server's store (`--database URL --tenant T`): the
 * developer's rule ledger (the ladder folder the ladder stage keeps, `ladder/rules.jsonl`)
 * pushed to the store as rows under the developer's name, once each, so the team's
 * most-broken rules (`GET /v1/team/rules`, runtime/server/team.ts) are computed across every
 * developer of the tenant, each incident still carrying its own project. Advisory, like the
 * ladder stage; a dry run counts what it would push and writes nothing.
 *
 * Example counts: `{lines: 41, written: 3, already_here: 38, problems: 0}`.
 */
import { dirname, join } from "node:path";
import { readJsonl } from "../../files/index.js";
import { RULE_LEDGER_FILE } from "../../ladder/index.js";
import type { ErrataStore } from "../../stores/index.js";
import { RuleLedgerLineSchema } from "../../../schemas/rule-ledger.js";
import { stageOutput, type StageContext } from "./context.js";
import type { LoopStage } from "./run-loop.js";

export function teamStage(ctx: StageContext, target: { store: ErrataStore; tenant: string; developer: string }): LoopStage {
  return {
    name: "team",
    advisory: true,
    run: async () => {
      const file = join(dirname(ctx.files.upgrades), "ladder", RULE_LEDGER_FILE);
      const { rows, problems } = readJsonl(file, RuleLedgerLineSchema, { what: "a rule-ledger line (rule, incident, mention or patch)" });
      const notes = problems.length > 0 ? [`team: ${problems.length} unreadable line(s) of ${file} not pushed`] : [];
      if (!target.store.appendRuleLines) return stageOutput({ lines: rows.length, written: 0 }, [...notes, `team: the ${target.store.kind} store keeps no rule lines`]);
      if (ctx.dryRun) return stageOutput({ lines: rows.length, written: 0, problems: problems.length }, [...notes, "team: dry run, nothing pushed"]);
      const r = await target.store.appendRuleLines(target.tenant, target.developer, rows);
      return stageOutput({ lines: rows.length, written: r.written, already_here: r.present, problems: problems.length }, notes);
    },
  };
}
