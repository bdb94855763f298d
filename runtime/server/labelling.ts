/**
 * The labelling page behind the server's auth: `errata serve --labelling URL --labelling-state
 * DIR` fronts a labelling server (`errata eval label serve`, on loopback) and passes its routes
 * through, unchanged, to the labeller the tenant token's label names: `GET /v1/pages/label`
 * (the page), and the page's own calls `GET /api/sheet`, `POST /api/change`,
 * `GET /api/export.csv` (and the adjudication view's, `GET /api/adjudication`,
 * `POST /api/decide`, for a label the labelling server serves as an adjudicator). The browser logs in once (auth.ts, login.ts) and never sees a
 * labelling token: the server reads the labeller's from the labelling state
 * (`tokens.json`, the label server's file) on each request and sends it upstream in
 * `X-Errata-Token`, whatever the browser sent. A token whose label is no labeller is a 403.
 * The page module itself (runtime/pages/label-*.ts) is not touched: this is routing only.
 *
 * Example: a token labelled `ana`, with `ana` a labeller -> `GET /v1/pages/label` answers the
 * labelling page for ana; a token labelled `billing-app` -> 403 `not-a-labeller`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { principalOf } from "./auth.js";

export interface LabellingOptions {
  /** The labelling server's base URL (loopback), e.g. http://127.0.0.1:7311. */
  url: string;
  /** Its state folder (`--state` of eval label serve): the labellers' tokens. */
  stateDir: string;
}

/** The label server's token file (runtime/pages/label-store.ts writes it). */
const TokensFile = z.object({ schema: z.literal("errata-label-tokens/1"), tokens: z.record(z.string(), z.string()) });

function labellerToken(stateDir: string, label: string): string | null {
  try {
    const parsed = TokensFile.safeParse(JSON.parse(readFileSync(join(stateDir, "tokens.json"), "utf8")));
    return parsed.success ? (parsed.data.tokens[label] ?? null) : null;
  } catch {
    return null;
  }
}

const PASSED_HEADERS = ["content-type", "content-disposition", "cache-control", "content-security-policy", "x-content-type-options", "referrer-policy"];

export function installLabelling(app: FastifyInstance, opts: LabellingOptions | null): void {
  const forward = (upstreamPath: string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const p = principalOf(req);
    if (opts === null) return reply.code(404).send({ error: "not-served", expected: "a server started with --labelling URL --labelling-state DIR", found: "no labelling server behind this one" });
    const token = labellerToken(opts.stateDir, p.label);
    if (token === null) return reply.code(403).send({ error: "not-a-labeller", expected: "a token whose label is one of the labelling server's labellers", found: `label ${JSON.stringify(p.label)}` });
    let res: Response;
    try {
      res = await fetch(`${opts.url.replace(/\/$/, "")}${upstreamPath}`, {
        method: req.method,
        headers: { "x-errata-token": token, ...(req.method === "POST" ? { "content-type": "application/json" } : {}) },
        ...(req.method === "POST" ? { body: JSON.stringify(req.body ?? null) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      return reply.code(502).send({ error: "labelling-unreachable", expected: `the labelling server at ${opts.url}`, found: (err as Error).message });
    }
    for (const h of PASSED_HEADERS) {
      const v = res.headers.get(h);
      if (v !== null) reply.header(h, v);
    }
    return reply.code(res.status).send(Buffer.from(await res.arrayBuffer()));
  };
  app.get("/v1/pages/label", forward("/"));
  app.get("/api/sheet", forward("/api/sheet"));
  app.get("/api/export.csv", forward("/api/export.csv"));
  app.post("/api/change", forward("/api/change"));
  // The adjudication view's calls (an adjudicator's token: the label server decides which view a token gets).
  app.get("/api/adjudication", forward("/api/adjudication"));
  app.post("/api/decide", forward("/api/decide"));
}
