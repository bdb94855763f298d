/**
 * `errata serve`: the intake server (runtime/server) over the JSONL store in `--dir` or the
 * Postgres store at `--database`. Prints the address it listens on, then serves until
 * SIGINT or SIGTERM; `--once` binds, prints and stops (a check that the store opens and the
 * port is free). Listens on loopback unless `--host` says otherwise.
 *
 * Example: `errata serve --dir srv --port 8787` -> `errata serve: listening on http://127.0.0.1:8787 (jsonl store)`.
 */
import { createWriteStream } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { badInput } from "../../core/errors.js";
import { println } from "../shared/io.js";
import { examples } from "../shared/help.js";
import { serverDir, storeFor, type StoreFlags } from "../shared/server-store.js";
import { buildServer } from "../../runtime/server/index.js";
import { isLoopback } from "../../runtime/pages/index.js";

interface ServeOpts extends StoreFlags {
  port: string;
  host: string;
  once?: boolean;
  log?: string;
  rate: string;
  bodyLimit: string;
  labelling?: string;
  labellingState?: string;
}

/** The labelling server to front: a loopback http URL and its state folder, both or neither. */
function labellingOf(ctx: CommandContext, opts: ServeOpts): { url: string; stateDir: string } | undefined {
  if (opts.labelling === undefined && opts.labellingState === undefined) return undefined;
  if (opts.labelling === undefined || opts.labellingState === undefined) throw badInput("--labelling and --labelling-state go together", "both: the labelling server's URL and its --state folder", opts.labelling === undefined ? "--labelling-state alone" : "--labelling alone");
  let url: URL;
  try {
    url = new URL(opts.labelling);
  } catch {
    throw badInput("bad --labelling", "the URL of errata eval label serve, e.g. http://127.0.0.1:7311", JSON.stringify(opts.labelling.slice(0, 60)));
  }
  if (url.protocol !== "http:" || !isLoopback(url.hostname)) throw badInput("bad --labelling", "an http URL on loopback (the labelling server binds 127.0.0.1)", JSON.stringify(opts.labelling.slice(0, 60)));
  return { url: url.origin, stateDir: resolve(ctx.io.cwd, opts.labellingState) };
}

function intFlag(name: string, v: string, min: number, max: number): number {
  if (!/^\d{1,10}$/.test(v) || Number(v) < min || Number(v) > max) throw badInput(`bad --${name}`, `an integer from ${min} to ${max}`, JSON.stringify(v));
  return Number(v);
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("serve")
    .description("The intake server: apps' errata, Claude Code http hooks, the team's rules and the pages (Pulse, labelling) behind tenant tokens (docs/intake.md)")
    .option("--dir <folder>", "the server's folder: the JSONL store, the reporter key, the developers' hook ledgers", "errata-server")
    .option("--database <url>", "keep errata in PostgreSQL instead (default: ERRATA_DATABASE_URL)")
    .option("--port <n>", "the port (0: any free one)", "8787")
    .option("--host <address>", "the address to bind", "127.0.0.1")
    .option("--once", "bind, print the address and stop (checks the store and the port)")
    .option("--log <file>", "JSON request log lines to this file ('-': stderr); never a token")
    .option("--rate <n>", "requests a tenant may make a minute", "6000")
    .option("--body-limit <bytes>", "the largest request body", "1048576")
    .option("--labelling <url>", "front a labelling server (errata eval label serve) at /v1/pages/label behind the same tokens, e.g. http://127.0.0.1:7311")
    .option("--labelling-state <dir>", "that labelling server's --state folder (its labellers' tokens), with --labelling")
    .addHelpText("after", examples(["errata serve --port 0 --once", "errata serve --dir srv --port 0 --once --rate 600 --body-limit 65536"], { after: "Then: errata tenants add acme, and post with Authorization: Bearer <token> (docs/intake.md)." }))
    .action(async (opts: ServeOpts) => {
      const port = intFlag("port", opts.port, 0, 65535);
      const rate = intFlag("rate", opts.rate, 1, 10_000_000);
      const bodyLimit = intFlag("body-limit", opts.bodyLimit, 1024, 1024 * 1024 * 1024);
      const dir = serverDir(ctx, opts);
      const labelling = labellingOf(ctx, opts);
      const store = await storeFor(ctx, opts);
      const logger = opts.log === undefined ? false : { level: "info", stream: opts.log === "-" ? process.stderr : createWriteStream(resolve(ctx.io.cwd, opts.log), { flags: "a" }) };
      const app = await buildServer({ store, dir, ratePerMinute: rate, bodyLimit, logger, now: ctx.io.now, ...(labelling ? { labelling } : {}) });
      let address: string;
      try {
        address = await app.listen({ port, host: opts.host });
      } catch (err) {
        await store.close();
        throw badInput("cannot listen", `a free port on ${opts.host}`, (err as Error).message);
      }
      println(ctx.io, `errata serve: listening on ${address} (${store.kind} store)`);
      const stop = async () => {
        await app.close();
        await store.close();
      };
      if (opts.once) return stop();
      await new Promise<void>((done) => {
        const onSignal = () => {
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
          void stop().then(done, done);
        };
        process.on("SIGINT", onSignal);
        process.on("SIGTERM", onSignal);
      });
    });
}
