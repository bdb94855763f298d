import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { labellerOrder, type AnswerSpec, type SheetItem } from "../../eval/index.js";
import { badInput, describeFound, isCodedError } from "../../core/errors.js";
import { applyChange, filledSheet, itemDone, labelerOfToken, loadProgress, loadTokens, saveProgress, type Change, type Progress } from "./label-store.js";
import { labelPageHtml } from "./label-page.js";
import { adjudicationPageHtml } from "./adjudication-page.js";
import { openDesk, type DecideRequest, type DeskOptions } from "./adjudication-desk.js";
import { briefSections } from "./brief-html.js";
import { pageCsp } from "./label-style.js";

/**
 * The labelling page's server (node:http; no framework: five routes and a token check). One
 * labeller per token: every route but none answers 403 without a token of a listed labeller,
 * and a token reaches only that labeller's own sheet (the items' text, their own answers;
 * never a judge's answers or another labeller's). Answers are saved before the reply
 * (autosave); a restart reads them back (resume). Request bodies over `MAX_BODY_BYTES` are
 * refused with 413 and nothing is written.
 *
 * Routes: `GET /?t=TOKEN` the page; `GET /api/sheet` the items, questions, brief (rendered
 * Markdown sections) and saved answers; `POST /api/change` one answer, skip or clear;
 * `GET /api/export.csv` the filled sheet (`eval label import` reads it). An adjudicator's token
 * (`adjudication`) gets the adjudication view instead: `GET /api/adjudication` the disputed
 * items with their labels side by side (unnamed), `POST /api/decide` one decision, appended to
 * the adjudications file; a labeller's token reaches none of that, an adjudicator's no sheet.
 * The API takes the token in `X-Errata-Token`.
 *
 * Example: `await startLabelServer({host: "127.0.0.1", port: 0, …})` -> `{urls: {ana:
 * "http://127.0.0.1:40123/?t=3f…"}, close}`.
 */
export const MAX_BODY_BYTES = 16 * 1024;

export interface LabelServerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Where tokens and progress live (the labelling state folder). */
  stateDir: string;
  labelers: readonly string[];
  items: readonly SheetItem[];
  questions: readonly AnswerSpec[];
  /** The labellers' brief (Markdown), shown beside the item. */
  brief: string;
  /** A non-loopback host is refused unless this is set. */
  allowNonLoopback?: boolean;
  /** Compute everything and bind, but write no tokens (a dry run). */
  writeTokens?: boolean;
  /**
   * "shuffled" (default): each labeller sees the items in their own seeded order; "given":
   * every labeller sees them in the order given (an active-labelling round: the most
   * informative first). `orderNote` says which on the page.
   */
  order?: "shuffled" | "given";
  orderNote?: string;
  /** The adjudication view, for these adjudicators' tokens (none of them a labeller here). */
  adjudication?: { adjudicators: readonly string[] } & DeskOptions;
}

export interface LabelServer {
  server: Server;
  /** The adjudication view's state (null without adjudicators). */
  desk: { items: number; withoutText: number } | null;
  port: number;
  urls: Record<string, string>;
  close: () => Promise<void>;
}

/** True for 127.0.0.0/8, ::1 and "localhost". */
export function isLoopback(host: string): boolean {
  if (host === "localhost" || host === "::1" || host === "[::1]") return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

function send(res: ServerResponse, status: number, type: string, body: string, nonce = randomBytes(16).toString("base64")): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    // The page's own nonce'd script and style only: nothing from elsewhere, nothing injected, no framing.
    "content-security-policy": pageCsp(nonce),
  });
  res.end(body);
}
const sendJson = (res: ServerResponse, status: number, value: unknown): void => send(res, status, "application/json; charset=utf-8", JSON.stringify(value));

/** Reads a body up to the limit; null when it is over (the rest is drained, not kept). */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      req.on("end", () => resolve(null));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(c);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseChange(text: string): Change {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badInput("the change is not JSON", "{exchange_id, question, op, value?}", describeFound(text.slice(0, 80)));
  }
  const o = raw as Record<string, unknown>;
  const { exchange_id, question, op, value } = o as { exchange_id?: unknown; question?: unknown; op?: unknown; value?: unknown };
  if (typeof exchange_id !== "string" || typeof question !== "string") throw badInput("bad change", "string exchange_id and question", describeFound(text.slice(0, 80)));
  if (op === "answer" && typeof value === "string") return { exchange_id, question, op, value };
  if (op === "skip" || op === "clear") return { exchange_id, question, op };
  throw badInput("bad change", 'op "answer" with a string value, "skip" or "clear"', describeFound(String(op)));
}

function parseDecide(text: string): DecideRequest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badInput("the decision is not JSON", "{exchange_id, question, op, value?}", describeFound(text.slice(0, 80)));
  }
  const { exchange_id, question, op, value } = raw as { exchange_id?: unknown; question?: unknown; op?: unknown; value?: unknown };
  if (typeof exchange_id !== "string" || typeof question !== "string") throw badInput("bad decision", "string exchange_id and question", describeFound(text.slice(0, 80)));
  if (op === "label" && typeof value === "string") return { exchange_id, question, op, value };
  if (op === "ambiguous" || op === "withdraw") return { exchange_id, question, op };
  throw badInput("bad decision", 'op "label" with a string value, "ambiguous" or "withdraw"', describeFound(String(op)));
}

export async function startLabelServer(opts: LabelServerOptions): Promise<LabelServer> {
  if (!isLoopback(opts.host) && opts.allowNonLoopback !== true) {
    throw badInput(`refusing to serve on ${opts.host}: the labelling page binds to loopback only`, "127.0.0.1, ::1 or localhost (or --allow-non-loopback)", describeFound(opts.host));
  }
  const adjudicators = new Set(opts.adjudication?.adjudicators ?? []);
  if (opts.labelers.length === 0 && adjudicators.size === 0) throw badInput("no labellers to serve", "--labelers (or --adjudicators) with at least one id", "none");
  const both = opts.labelers.find((l) => adjudicators.has(l));
  if (both !== undefined) throw badInput(`${both} is both a labeller and an adjudicator`, "an adjudicator who does not label in the same serve (they would see the others' labels)", describeFound(both));
  const tokens = loadTokens(opts.stateDir, [...opts.labelers, ...adjudicators], opts.writeTokens !== false);
  const desk = opts.adjudication ? openDesk(opts.adjudication) : null;
  const brief = briefSections(opts.brief);
  const itemIds = new Set(opts.items.map((i) => i.exchange_id));
  const progress = new Map<string, Progress>(opts.labelers.map((l) => [l, loadProgress(opts.stateDir, l)]));
  const orders = new Map(opts.labelers.map((l) => [l, opts.order === "given" ? [...opts.items] : labellerOrder(opts.items, l)]));
  const summary = (l: string, p: Progress) => {
    const order = orders.get(l) ?? [];
    return { items: order.length, done: order.filter((i) => itemDone(p, i.exchange_id, opts.questions)).length };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const token = (req.headers["x-errata-token"] as string | undefined) ?? url.searchParams.get("t");
    const labeler = labelerOfToken(tokens, token ?? null);
    if (labeler === null) {
      req.resume();
      sendJson(res, 403, { error: "forbidden: a labeller's token is needed (the URL the server printed)" });
      return;
    }
    if (desk !== null && adjudicators.has(labeler)) {
      const nonce = randomBytes(16).toString("base64");
      if (req.method === "GET" && url.pathname === "/") return send(res, 200, "text/html; charset=utf-8", adjudicationPageHtml(labeler, nonce), nonce);
      if (req.method === "GET" && url.pathname === "/api/adjudication") return sendJson(res, 200, { ...desk.view(labeler), brief });
      if (req.method === "POST" && url.pathname === "/api/decide") {
        const body = await readBody(req);
        if (body === null) return sendJson(res, 413, { error: `request body over ${MAX_BODY_BYTES} bytes; nothing written` });
        try {
          return sendJson(res, 200, desk.decide(labeler, parseDecide(body)));
        } catch (err) {
          if (isCodedError(err)) return sendJson(res, 400, { error: err.message });
          throw err;
        }
      }
      req.resume();
      return sendJson(res, 403, { error: `an adjudicator's token reaches the adjudication view only, not ${req.method} ${url.pathname}` });
    }
    const p = progress.get(labeler);
    if (p === undefined) {
      req.resume();
      return sendJson(res, 403, { error: "forbidden: this token is not a labeller's of this serve" });
    }
    if (req.method === "GET" && url.pathname === "/") {
      const nonce = randomBytes(16).toString("base64");
      return send(res, 200, "text/html; charset=utf-8", labelPageHtml(labeler, nonce), nonce);
    }
    if (req.method === "GET" && url.pathname === "/api/sheet") {
      const order = opts.orderNote ?? (opts.order === "given" ? "in the order given" : "in your own shuffled order");
      return sendJson(res, 200, { labeler, questions: opts.questions, items: orders.get(labeler), brief, order, answers: p.answers, skipped: p.skipped, progress: summary(labeler, p) });
    }
    if (req.method === "GET" && url.pathname === "/api/export.csv") {
      res.setHeader("content-disposition", `attachment; filename="${labeler}.csv"`);
      return send(res, 200, "text/csv; charset=utf-8", `${filledSheet(labeler, orders.get(labeler) ?? [], opts.questions, p)}\n`);
    }
    if (req.method === "POST" && url.pathname === "/api/change") {
      const body = await readBody(req);
      if (body === null) return sendJson(res, 413, { error: `request body over ${MAX_BODY_BYTES} bytes; nothing written` });
      let next: Progress;
      try {
        next = applyChange(p, parseChange(body), itemIds, opts.questions);
      } catch (err) {
        if (isCodedError(err)) return sendJson(res, 400, { error: err.message });
        throw err;
      }
      saveProgress(opts.stateDir, next);
      progress.set(labeler, next);
      return sendJson(res, 200, { ok: true, progress: summary(labeler, next) });
    }
    req.resume();
    sendJson(res, 404, { error: `no route ${req.method} ${url.pathname}` });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `internal error: ${(err as Error).message}` });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : opts.port;
  const hostInUrl = opts.host.includes(":") && !opts.host.startsWith("[") ? `[${opts.host}]` : opts.host;
  const urls = Object.fromEntries([...tokens].map(([l, t]) => [l, `http://${hostInUrl}:${port}/?t=${t}`]));
  return {
    server,
    desk: desk ? { items: desk.items, withoutText: desk.withoutText } : null,
    port,
    urls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
