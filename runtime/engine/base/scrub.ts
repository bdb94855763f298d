/**
 * What a judge must never see: erratum ids, session ids, exchange ids and home paths.
 * Applied to every piece of exchange text before it enters a prompt.
 *
 * Example: `scrubForJudge("see /home/ana/repo/x.ts in er-20261130-3fa9c1", {home: "/home/ana"})`
 * -> "see ~/repo/x.ts in <erratum>".
 */
export interface ScrubContext {
  /** The owner's home folder, replaced by "~" wherever it appears. */
  home?: string;
  /** The exchange's session id, replaced by "<session>" wherever it appears. */
  sessionId?: string;
}

const ERRATUM_ID = /\ber-\d{8}-[0-9a-f]{6}\b/g;
const EXCHANGE_ID = /\bex-[0-9a-f]{16}\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// Any user's home under the usual roots, on Linux, macOS and Windows (either slash).
// Not preceded by a path character, so "/srv/x/home/ana" and an already written "~/home/a" stay.
const HOME_ROOTS = /(?<![\w.~\\/-])(?:\/home\/|\/Users\/|[A-Za-z]:[\\/]+Users[\\/]+)[^\\/\s"'`]+/g;
const ROOT_HOME = /(^|[\s"'`(=:])\/root(?=[\\/\s"'`)]|$)/g;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function scrubForJudge(text: string, ctx: ScrubContext = {}): string {
  let out = text;
  if (ctx.home && ctx.home.length > 1 && ctx.home !== "/") {
    const home = ctx.home.replace(/[\\/]+$/, "");
    out = out.replace(new RegExp(`${escapeRegExp(home)}(?=[\\\\/\\s"'\`)]|$)`, "g"), "~");
  }
  out = out.replace(HOME_ROOTS, "~").replace(ROOT_HOME, "$1~");
  if (ctx.sessionId && ctx.sessionId.length >= 4) out = out.split(ctx.sessionId).join("<session>");
  return out.replace(ERRATUM_ID, "<erratum>").replace(EXCHANGE_ID, "<exchange>").replace(UUID, "<id>");
}
