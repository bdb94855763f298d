/**
 * `errata skills`: per-skill complaint rates over the outputs the host delivered (complaints
 * resolve to outputs through `context.output_ids`; detected rows never count). The same
 * command as `errata by-model` over another join (cli/shared/rates.ts).
 *
 * Example: `errata skills --since 2026-11-01` -> `release-notes  outputs 40  complaints 3  rate 7.5%`.
 */
import { skillRates } from "../../runtime/jobs/index.js";
import { fmtRate } from "../shared/daily.js";
import { rateCommand } from "../shared/rates.js";
import { examples } from "../shared/help.js";

export const register = rateCommand({
  name: "skills",
  description: "Per-skill complaint rates over delivered outputs",
  helpAfter: examples([
    "errata skills --since 2026-11-01 --json",
    [
      `mkdir host && echo '{"schema":"output/1","id":"out-1","ts":"2026-11-29T10:02:09Z","session_id":null,"skill":"release-notes"}' > host/outputs.jsonl &&`,
      "errata add the release notes missed two fixes --output-id out-1 && ERRATA_HOST_DIR=host errata skills --since 2026-11-01",
    ],
  ]),
  key: "skills",
  join: skillRates,
  empty: "no outputs or complaints in the window",
  line: (r) => `${r.skill.padEnd(24)}  outputs ${String(r.outputs).padStart(6)}  complaints ${String(r.complaints).padStart(4)}  rate ${fmtRate(r.rate)}`,
});
