/**
 * `errata by-model`: complaints by the model that wrote the reply (`context.model`), beside
 * the outputs the host delivered with each model. Detected rows never count. The same
 * command as `errata skills` over another join (cli/shared/rates.ts).
 *
 * Example: `errata by-model --since 2026-11-01` -> `claude-sonnet-4-5  complaints 12  outputs 300  rate 4.0%`.
 */
import { modelRates } from "../../runtime/jobs/index.js";
import { fmtRate } from "../shared/daily.js";
import { rateCommand } from "../shared/rates.js";
import { examples } from "../shared/help.js";

export const register = rateCommand({
  name: "by-model",
  description: "Complaints by assistant model, with rates over delivered outputs",
  helpAfter: examples(["errata add --model claude-sonnet-4-5 no, that is not what I asked && errata by-model --since 2026-11-01"]),
  key: "models",
  join: modelRates,
  empty: "no complaints or outputs in the window",
  line: (r) => `${r.model.padEnd(28)}  complaints ${String(r.complaints).padStart(4)}  outputs ${String(r.outputs).padStart(6)}  rate ${fmtRate(r.rate)}`,
});
