import { resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { engineFromConfig } from "../../../runtime/engine/index.js";
import type { OpenAIEngine } from "../../../runtime/engine/index.js";
import { guard } from "../../shared/engine.js";
import { examples } from "../../shared/help.js";

/**
 * `errata engine probe`: asks an OpenAI-compatible lane's server which answer modes it
 * supports (top_logprobs, strict structured replies); exit 1 when neither.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("probe")
    .description("Ask a lane's server which answer modes it supports (top_logprobs, strict structured replies); exit 1 when neither")
    .option("--lane <name>", "lane name from the config", "openai")
    .option("--config <file>", "engine config (default: <ledger>/errata-engine.json)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["ERRATA_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 ERRATA_OPENAI_MODEL=llama3.1 errata engine probe"]))
    .action(async (opts: { lane: string; config?: string; json?: boolean }) =>
      guard(async () => {
        const io = ctx.io;
        const made = engineFromConfig({ paths: resolvePaths(io.env, io.cwd), env: io.env, lane: opts.lane, cache: false, ...(opts.config ? { configPath: resolve(io.cwd, opts.config) } : {}) });
        if (made.engine.lane !== "openai") throw badInput("probe needs an OpenAI lane", "--lane <an openai lane>", `${made.laneName} (${made.engine.lane})`);
        const lane = (made.engine as OpenAIEngine).openaiLane;
        const r = await lane.probeBoth();
        if (r.chosen === null) ctx.exitCode = 1;
        const result = { lane: made.laneName, baseURL: lane.cfg.baseURL, model: lane.cfg.model, ...r };
        if (opts.json) return printJson(io, result);
        println(io, `${lane.cfg.baseURL} (${lane.cfg.model}): logprobs ${r.logprobs ? "yes" : "no"}, structured ${r.structured ? "yes" : "no"} -> ${r.chosen ?? "neither: answers would be unscored"}`);
        for (const d of r.detail) println(io, `  ${d}`);
      }),
    );
}
