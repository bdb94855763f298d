import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Engine } from "../../runtime/engine/base/types.js";
import type { Answer } from "../../schemas/answer.js";
import type { Erratum } from "../../schemas/erratum.js";
import { resolvePaths, type ErrataPaths } from "../../runtime/paths.js";
import { openLedger } from "../../runtime/store/index.js";
import { newErratum, type NewErratumInput } from "../../runtime/store/new-erratum.js";
import { loadDailyConfig } from "../../runtime/jobs/daily/config.js";
import { cachedLedger, type StageContext } from "../../runtime/jobs/daily/context.js";
import { dailyFiles } from "../../runtime/jobs/daily/files.js";
import { ledgerPort } from "../../runtime/jobs/daily/ledger-port.js";
import type { ProseLane } from "../../runtime/jobs/daily/enrich-openai.js";
import type { ProseReply } from "../../runtime/jobs/daily/enrich-reply.js";

export const NOW = Date.parse("2026-11-30T12:00:00Z");
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const REPORTER = { id: "rp-0123456789abcdef", role: "owner" };

export function pathsFor(dir: string): ErrataPaths {
  return resolvePaths({ ERRATA_DIR: dir, HOME: dir }, dir);
}

let seq = 0;
/** Appends errata through the real store; returns them in the order given. */
export function seedLedger(dir: string, inputs: Array<Partial<NewErratumInput> & { complaint: string; ageHours?: number }>): Erratum[] {
  const ledger = openLedger(pathsFor(dir), { now: () => NOW, warn: () => {} });
  return inputs.map((i) => {
    seq++;
    const ts = i.ts ?? new Date(NOW - (i.ageHours ?? 1) * HOUR - seq).toISOString();
    const { ageHours: _a, ...rest } = i;
    const e = newErratum({ nowMs: NOW, reporter: REPORTER as NewErratumInput["reporter"], instance: "i-000000000001", ...rest, ts });
    return ledger.append(e).erratum;
  });
}

export function stageCtx(dir: string, opts: { now?: () => number; dryRun?: boolean; env?: Record<string, string> } = {}): StageContext & { logs: string[] } {
  const paths = pathsFor(dir);
  const env = { ERRATA_DIR: dir, HOME: dir, ...opts.env };
  const logs: string[] = [];
  const now = opts.now ?? (() => NOW);
  return {
    nowMs: now,
    dryRun: opts.dryRun ?? false,
    files: dailyFiles(paths, env, dir),
    cfg: loadDailyConfig(paths, env, dir),
    ledger: cachedLedger(ledgerPort(paths, { now, warn: (l) => logs.push(l) })),
    log: (l) => logs.push(l),
    logs,
  };
}

/**
 * A deterministic engine: P(detect.unhappy) is 0.95 when the prompt has "wrong" or "no,",
 * else 0.2; the mode question named in the prompt as "[mode:<id>]" gets 0.9, others 0.1.
 * A prompt containing "[unscored]" gets unscored answers.
 */
export function fakeEngine(): Engine & { seen: string[] } {
  const seen: string[] = [];
  const stats = { calls: 0, cacheHits: 0, refused: 0 };
  return {
    lane: "embedded",
    model: "fake-1",
    stats,
    seen,
    async ask(pairs) {
      stats.calls += pairs.length;
      return pairs.map(({ exchange, question }): Answer => {
        seen.push(JSON.stringify(exchange));
        const text = exchange.prompt.toLowerCase();
        const unscored = text.includes("[unscored]");
        let p = 0.1;
        if (question.id === "detect.unhappy") p = /wrong|no,/.test(text) ? 0.95 : 0.2;
        else if (text.includes(`[mode:${question.id.slice(5)}]`)) p = 0.9;
        return {
          schema: "answer/1",
          exchange_id: exchange.id,
          question_id: question.id,
          question_version: question.version,
          lane: "embedded",
          model: "fake-1",
          prompt_hash: "h",
          ...(unscored ? { status: "unscored" as const, p_yes: null, computed_from: null, reason: "test" } : { status: "scored" as const, p_yes: p, computed_from: "model", reason: null }),
          raw: "",
          latency_ms: 0,
          cost_usd: 0,
          ts: new Date(NOW).toISOString(),
        };
      });
    },
  };
}

export const GOOD_REPLY: ProseReply = {
  how_upset: 2,
  which_part: "the push",
  what_upset: "it pushed without asking",
  reporter_right: true,
  reporter_right_reason: "the rule says ask first",
  root_cause_hypothesis: "the standing rule was not in context",
  class: "broke_standing_rule",
  proposed_fix: "ask before any push",
  confidence: 0.8,
};

/** A prose lane that answers from a function of the complaint (return a string to send raw text). */
export function fakeProse(reply: (e: Erratum) => ProseReply | string, model = "gpt-test"): ProseLane & { sent: Erratum[] } {
  const sent: Erratum[] = [];
  return {
    model,
    sent,
    async enrich(e) {
      sent.push(e);
      const r = reply(e);
      if (typeof r === "string") {
        const { parseProseReply } = await import("../../runtime/jobs/daily/enrich-reply.js");
        return parseProseReply(r);
      }
      return { ok: true, reply: r };
    },
  };
}

/** Appends a torn (half-written) line to the newest month file of the ledger. */
export function tearLedger(dir: string): void {
  const months = readdirSync(dir).filter((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f)).sort();
  const last = months[months.length - 1];
  if (!last) throw new Error("no month file");
  appendFileSync(join(dir, last), '{"schema":"erratum/1","id":"er-2026');
}

/** Every file under a folder (recursively), as [path, text]. */
export function allFiles(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allFiles(p));
    else out.push([p, readFileSync(p, "utf8")]);
  }
  return out;
}
