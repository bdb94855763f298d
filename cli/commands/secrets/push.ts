/**
 * `errata secrets push --to <url>`: sends an Errata server the developer's own secrets that
 * are strong enough to leave the machine as salted hashes (runtime/privacy/known-push.ts), so
 * the server scrubs them out of an app's erratum or an http hook's prompt before it writes
 * anything (runtime/server/known.ts). The values are those `secrets learn` remembers (the
 * secret-looking environment variables, the `.env` files of the ledger's projects and of any
 * `--project`); the token is read from ERRATA_SYNC_TOKEN, as `errata sync` reads it. Values too
 * weak for a salted fast hash to keep them are not pushed, and are named (never shown).
 *
 * Example: `ERRATA_SYNC_TOKEN=et_… errata secrets push --to http://127.0.0.1:8787`
 * -> `known values: pushed 5 of 7 to http://127.0.0.1:8787 as salted hashes; not pushed: 2 (below)`.
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import { badInput, ErrataError } from "../../../core/errors.js";
import { loadNodeCrypto } from "../../../core/node-crypto-load.js";
import { collectKnownValues, planPush, PUSH_FP_BITS, PUSH_MIN_BITS } from "../../../runtime/privacy/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";
import { ledgerFor, reportProblems } from "../../shared/ledger.js";

interface PushOpts {
  to?: string;
  project?: string[];
  dryRun?: boolean;
  json?: boolean;
}

/** PUT the store; a refused token or body is said as the server said it. */
async function put(url: string, token: string, body: unknown): Promise<{ stored: number }> {
  let res: Response;
  try {
    res = await fetch(url, { method: "PUT", headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    throw new ErrataError("IO", "cannot reach the server", { expected: "an errata server answering PUT /v1/known-values", found: (err as Error).message });
  }
  const text = await res.text();
  if (res.status === 401) throw new ErrataError("BAD_CONFIG", "the server refused the token", { expected: "ERRATA_SYNC_TOKEN holding your live token of the server", found: "401" });
  let answer: { stored?: unknown; expected?: unknown; found?: unknown } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    /* said below */
  }
  if (!res.ok) throw new ErrataError("IO", "the server answered an error", { expected: typeof answer.expected === "string" ? answer.expected : "200", found: `${res.status} ${typeof answer.found === "string" ? answer.found : text.slice(0, 200)}` });
  if (typeof answer.stored !== "number") throw new ErrataError("BAD_INPUT", "the server's answer has the wrong shape", { expected: "{developer, stored}", found: JSON.stringify(text.slice(0, 80)) });
  return { stored: answer.stored };
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("push")
    .description("Send an errata server your strong secrets as salted hashes, so it redacts them from what your apps and http hooks post")
    .option("--to <url>", "the errata server's base URL (the token is read from ERRATA_SYNC_TOKEN)")
    .option("--project <dir...>", "also read this project folder's .env files")
    .option("--dry-run", "say what would be pushed and what not, send nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples(["errata secrets push --dry-run", "errata secrets push --project . --dry-run --json", "errata secrets push --to http://127.0.0.1:9 # exit 2"], {
        before: "The token is read from ERRATA_SYNC_TOKEN. Only values estimated at 80 bits or more are sent (docs/privacy.md).",
        after: "Each push replaces your last one on the server; run it again after a secret changes.",
      }),
    )
    .action(async (opts: PushOpts) => {
      let to: string | null = null;
      if (opts.to !== undefined) {
        try {
          const u = new URL(opts.to);
          if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(u.protocol);
          to = `${u.origin}${u.pathname.replace(/\/$/, "")}`;
        } catch {
          throw badInput("bad --to", "an http(s) URL", JSON.stringify(opts.to));
        }
      } else if (!opts.dryRun) throw badInput("no --to", "--to <the errata server's URL>, or --dry-run", "neither");
      const token = ctx.io.env["ERRATA_SYNC_TOKEN"];
      // Checked on a dry run with --to too: it does all but send.
      if (to !== null && (token === undefined || token === "")) throw badInput("no token", "ERRATA_SYNC_TOKEN set to your token of the server", "it unset");
      const { errata, problems } = ledgerFor(ctx).readAll();
      reportProblems(ctx, problems);
      const projects = new Set<string>();
      for (const f of errata) if (f.erratum.context.cwd) projects.add(f.erratum.context.cwd);
      for (const p of opts.project ?? []) projects.add(resolve(ctx.io.cwd, p));
      const { values } = collectKnownValues(ctx.io.env, [...projects]);
      const plan = planPush(values, loadNodeCrypto().randomBytes(16).toString("hex"));
      const stored = opts.dryRun ? null : (await put(`${to}/v1/known-values`, token!, plan.store)).stored;
      if (opts.json) {
        printJson(ctx.io, { to, dry_run: opts.dryRun === true, min_bits: PUSH_MIN_BITS, fp_bits: PUSH_FP_BITS, pushed: plan.pushed, not_pushed: plan.held, stored });
        return;
      }
      const where = to ?? "a server";
      println(ctx.io, `known values: ${opts.dryRun ? "would push" : "pushed"} ${plan.pushed.length} of ${values.length} to ${where} as salted hashes${plan.held.length > 0 ? `; not pushed: ${plan.held.length}` : ""}`);
      for (const p of plan.pushed) println(ctx.io, `  pushed: ${p.from} (estimated ${p.bits} bits)`);
      for (const h of plan.held) println(ctx.io, `  not pushed: ${h.from}: ${h.why}`);
      if (plan.held.length > 0) println(ctx.io, "  (a value not pushed is still redacted on this machine; on the server it is redacted only where a rule recognises its form)");
    });
}
