import { renderSvg, type VegaLiteSpec } from "./vega.js";

/**
 * One static, self-contained HTML page: inline style, figures as inline SVG, each figure's
 * Vega-Lite spec (with its data) embedded beside it as JSON, no script and nothing fetched at
 * view time. Deterministic: the page is a pure function of its parts (no clock, no ids from a
 * counter), so the same inputs give the same bytes.
 *
 * Example: `await renderPage({title: "Agreement", intro: ["…"], blocks: [table(...)]})`
 * -> `<!doctype html>\n<html lang="en">…`.
 */
export type Block =
  | { kind: "html"; html: string }
  | { kind: "figure"; id: string; caption: string; spec: VegaLiteSpec };

export interface Page {
  title: string;
  /** One line under the title: what the page shows and where its inputs came from. */
  subtitle?: string;
  blocks: Block[];
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML content and attribute values. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** JSON for a `<script type="application/json">` block: `<` escaped so no `</script>` can end it early. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/</g, "\\u003c");
}

export const h2 = (text: string): Block => ({ kind: "html", html: `<h2>${esc(text)}</h2>` });
export const para = (text: string): Block => ({ kind: "html", html: `<p>${esc(text)}</p>` });
export const figure = (id: string, caption: string, spec: VegaLiteSpec): Block => ({ kind: "figure", id, caption, spec });

/** A table; cells are text (escaped). `numeric` columns are right-aligned. */
export function table(head: readonly string[], rows: readonly (readonly (string | number)[])[], numeric: readonly number[] = []): Block {
  const cls = (i: number): string => (numeric.includes(i) ? ' class="num"' : "");
  const th = head.map((c, i) => `<th${cls(i)}>${esc(c)}</th>`).join("");
  const trs = rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${esc(c)}</td>`).join("")}</tr>`).join("\n");
  return { kind: "html", html: `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${trs}\n</tbody>\n</table>` };
}

/** A number for a table: fixed digits, "—" for null or not finite. */
export function fmt(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "—" : x.toFixed(digits);
}

/** "0.476 [0.266, 0.643]", or "—". */
export function fmtInterval(point: number | null | undefined, lower: number | null | undefined, upper: number | null | undefined, digits = 3): string {
  if (point === null || point === undefined || !Number.isFinite(point)) return "—";
  const lo = lower === null || lower === undefined ? "—" : lower.toFixed(digits);
  const hi = upper === null || upper === undefined ? "—" : upper.toFixed(digits);
  return `${point.toFixed(digits)} [${lo}, ${hi}]`;
}

export const PAGE_STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2430;background:#fafafa}
main{max-width:1000px;margin:0 auto;padding:24px 28px 60px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:30px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.sub{color:#5a6270;margin:0 0 18px}
table{border-collapse:collapse;margin:8px 0 14px;font-size:13.5px;background:#fff}
th,td{border:1px solid #d9dde3;padding:4px 8px;text-align:left;vertical-align:top}th{background:#eef1f5}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:10px 0 18px;background:#fff;border:1px solid #e2e5ea;padding:10px;display:inline-block}
figcaption{color:#4a5260;font-size:13px;margin-top:6px;max-width:760px}
pre{white-space:pre-wrap;word-break:break-word}
.warn{color:#9a3b00}.ok{color:#1d6b2f}
`;

/** Renders the page: every figure's SVG now, in block order. */
export async function renderPage(page: Page): Promise<string> {
  const parts: string[] = [];
  for (const b of page.blocks) {
    if (b.kind === "html") {
      parts.push(b.html);
      continue;
    }
    const svg = await renderSvg(b.spec);
    parts.push(
      `<figure id="${esc(b.id)}">\n${svg}\n<figcaption>${esc(b.caption)}</figcaption>\n` +
        // The spec with its data, embedded so the figure can be re-rendered or read as data.
        `<script type="application/json" class="vega-lite-spec">${jsonForScript(b.spec)}</script>\n</figure>`,
    );
  }
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // No network at view time: nothing may be fetched, not even a favicon.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${esc(page.title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    "</head>",
    "<body><main>",
    `<h1>${esc(page.title)}</h1>`,
    page.subtitle ? `<p class="sub">${esc(page.subtitle)}</p>` : "",
    ...parts,
    "</main></body>",
    "</html>",
    "",
  ].join("\n");
}
