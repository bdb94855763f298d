import { esc } from "./html.js";

/**
 * The labelling page: one self-contained HTML file (inline style and script, nothing from a
 * CDN: it works offline), keyboard-first. It reads the token from its own URL and sends it in
 * a header; every answer is posted, and saved by the server, before the page moves on.
 *
 * Keys: y / n answer a yes/no question; digits a rating (the digit) or a category (its number
 * in the list, one or two digits); s skips (left empty with a note); ← → previous / next item; ↑ ↓ previous / next
 * question; u (or Backspace, Ctrl+Z) undoes the last change; e downloads the filled sheet.
 */
const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1d2430;background:#f4f5f7}
header{display:flex;gap:18px;align-items:center;padding:10px 18px;background:#1d2430;color:#fff}
header b{font-size:16px}#bar{flex:1;height:8px;background:#3b4555;border-radius:4px;overflow:hidden}#fill{height:100%;background:#5fbf7a;width:0}
#xid{font-size:12px;color:#c9d1dc}#saved{font-size:13px;color:#c9d1dc;min-width:120px;text-align:right}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:16px;padding:16px 18px}
section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 14px}
h2{font-size:14px;text-transform:uppercase;letter-spacing:.04em;color:#5a6270;margin:10px 0 4px}
.turn{white-space:pre-wrap;word-break:break-word;background:#f7f8fa;border-left:3px solid #c7ccd4;padding:6px 10px;margin:0 0 6px;max-height:220px;overflow:auto}
.turn.prompt{border-left-color:#3a74d8;background:#eef4ff}
ol#qs{list-style:none;padding:0;margin:6px 0}ol#qs li{padding:6px 8px;border:1px solid #e3e6ea;border-radius:5px;margin:4px 0;display:flex;gap:10px;align-items:baseline}
ol#qs li.cur{border-color:#3a74d8;box-shadow:0 0 0 2px #3a74d855}ol#qs li .v{margin-left:auto;font-weight:600;min-width:70px;text-align:right}
.done .v{color:#1d6b2f}.skip .v{color:#9a3b00}.opts{font-size:12px;color:#5a6270}
#brief{white-space:pre-wrap;font-size:13px;max-height:calc(100vh - 120px);overflow:auto;margin:0;position:relative}
.bq{padding:2px 6px;border-left:3px solid transparent}.bq.cur{background:#fff8e1;border-left-color:#e0a000}
kbd{border:1px solid #bbb;border-bottom-width:2px;border-radius:3px;padding:0 4px;font-size:12px;background:#fafafa}
#keys{font-size:13px;color:#5a6270;margin-top:8px}#msg{color:#9a3b00;min-height:1.2em}
`;

const SCRIPT = String.raw`
const token = new URLSearchParams(location.search).get("t") || "";
const H = { "x-errata-token": token };
let S = null, item = 0, q = 0; const undo = [];
const $ = (id) => document.getElementById(id);
const cellOf = (v) => v === true ? "yes" : v === false ? "no" : String(v);
function state(id, qid) {
  const a = (S.answers[id] || {})[qid];
  if (a !== undefined) return { answer: a };
  return (S.skipped[id] || []).includes(qid) ? { skipped: true } : {};
}
const answered = (id, qid) => { const s = state(id, qid); return s.answer !== undefined || s.skipped; };
const itemDone = (i) => S.questions.every((x) => answered(S.items[i].exchange_id, x.id));
function firstOpen() { for (let i = 0; i < S.items.length; i++) if (!itemDone(i)) return i; return S.items.length - 1; }
function openQ(i) { const id = S.items[i].exchange_id; const k = S.questions.findIndex((x) => !answered(id, x.id)); return k < 0 ? 0 : k; }
function opts(x) { return x.kind === "yesno" ? "y / n" : x.kind === "rating" ? x.min + "-" + x.max : x.values.map((v, i) => (i + 1) + " " + v).join(", "); }
function render() {
  const it = S.items[item];
  $("n").textContent = "item " + (item + 1) + " of " + S.items.length;
  $("xid").textContent = it.exchange_id;
  const done = S.items.filter((_, i) => itemDone(i)).length;
  $("count").textContent = done + " / " + S.items.length + " done";
  $("fill").style.width = (100 * done / S.items.length) + "%";
  for (const k of ["previous_ask", "reply_end", "tool_calls", "prompt"]) {
    const v = it[k]; $(k).textContent = v === null || v === "" ? "(none)" : v;
  }
  const ol = $("qs"); ol.textContent = "";
  S.questions.forEach((x, k) => {
    const li = document.createElement("li"); const s = state(it.exchange_id, x.id);
    li.className = (k === q ? "cur " : "") + (s.answer !== undefined ? "done" : s.skipped ? "skip" : "");
    li.dataset.q = x.id;
    li.innerHTML = "<span></span><span class=opts></span><span class=v></span>";
    li.children[0].textContent = x.id; li.children[1].textContent = opts(x);
    li.children[2].textContent = s.answer !== undefined ? cellOf(s.answer) : s.skipped ? "skipped" : "";
    li.onclick = () => { q = k; render(); };
    ol.appendChild(li);
  });
  const cur = ol.children[q]; if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
  // The brief beside the item: the focused question's own section, highlighted and in view.
  const qid = S.questions[q].id;
  for (const d of $("brief").children) d.className = d.dataset.q === qid ? "bq cur" : "bq";
  const sec = [...$("brief").children].find((d) => d.dataset.q === qid);
  if (sec) $("brief").scrollTop = sec.offsetTop;
}
function showBrief(text) {
  // One block per "### <question id>" section of the brief, so the page can point at one.
  const box = $("brief"); box.textContent = "";
  let div = null;
  for (const line of text.split("\n")) {
    const m = /^### (\S+)/.exec(line);
    if (m || div === null) { div = document.createElement("div"); div.className = "bq"; div.dataset.q = m ? m[1] : ""; box.appendChild(div); }
    div.textContent += line + "\n";
  }
}
async function post(change) {
  const r = await fetch("/api/change", { method: "POST", headers: { ...H, "content-type": "application/json" }, body: JSON.stringify(change) });
  const body = await r.json();
  if (!r.ok) { $("msg").textContent = body.error || ("error " + r.status); return false; }
  const id = change.exchange_id, qid = change.question;
  const a = { ...(S.answers[id] || {}) }; delete a[qid];
  const sk = (S.skipped[id] || []).filter((x) => x !== qid);
  if (change.op === "answer") a[qid] = change.parsed; else if (change.op === "skip") sk.push(qid);
  S.answers[id] = a; S.skipped[id] = sk;
  $("msg").textContent = ""; $("saved").textContent = "saved " + body.progress.done + "/" + body.progress.items;
  document.body.dataset.saved = String(Number(document.body.dataset.saved || 0) + 1);
  return true;
}
async function change(op, cell, parsed, record = true) {
  const id = S.items[item].exchange_id, qid = S.questions[q].id;
  const before = state(id, qid);
  const ok = await post({ exchange_id: id, question: qid, op, ...(op === "answer" ? { value: cell } : {}), parsed });
  if (!ok) return;
  if (record) undo.push({ item, q, before });
  advance();
}
function advance() {
  const id = S.items[item].exchange_id;
  const k = S.questions.findIndex((x, j) => j > q && !answered(id, x.id));
  if (k >= 0) q = k; else if (!itemDone(item)) q = openQ(item);
  else if (item < S.items.length - 1) { item++; q = openQ(item); }
  render();
}
async function doUndo() {
  const u = undo.pop(); if (!u) return;
  item = u.item; q = u.q;
  const id = S.items[item].exchange_id, qid = S.questions[q].id;
  const b = u.before;
  const ch = b.answer !== undefined ? { op: "answer", value: cellOf(b.answer), parsed: b.answer } : b.skipped ? { op: "skip" } : { op: "clear" };
  await post({ exchange_id: id, question: qid, ...ch });
  render();
}
// Categories of ten or more options take one or two digits ("1" then "2" is option 12): a
// digit that could begin a longer number waits briefly for the next.
let digits = "", digitTimer = null;
function pickOption(x, key) {
  clearTimeout(digitTimer);
  digits += key;
  const n = Number(digits);
  const commit = () => { const k = Number(digits); digits = ""; $("msg").textContent = ""; if (k >= 1 && k <= x.values.length) change("answer", x.values[k - 1], x.values[k - 1]); };
  if (n * 10 > x.values.length || digits.length >= 2) commit();
  else { $("msg").textContent = "option " + digits + "…"; digitTimer = setTimeout(commit, 700); }
}
document.addEventListener("keydown", (e) => {
  if (!S || e.altKey || e.metaKey) return;
  const x = S.questions[q]; const key = e.key;
  if (e.ctrlKey) { if (key === "z") { e.preventDefault(); doUndo(); } return; }
  if (key === "ArrowRight") { item = Math.min(S.items.length - 1, item + 1); q = openQ(item); render(); }
  else if (key === "ArrowLeft") { item = Math.max(0, item - 1); q = openQ(item); render(); }
  else if (key === "ArrowDown") { q = Math.min(S.questions.length - 1, q + 1); render(); }
  else if (key === "ArrowUp") { q = Math.max(0, q - 1); render(); }
  else if (key === "u" || key === "Backspace") doUndo();
  else if (key === "s") change("skip");
  else if (key === "e") location.href = "/api/export.csv?t=" + encodeURIComponent(token);
  else if (x.kind === "yesno" && (key === "y" || key === "n")) change("answer", key === "y" ? "yes" : "no", key === "y");
  else if (/^[0-9]$/.test(key)) {
    const d = Number(key);
    if (x.kind === "rating" && d >= x.min && d <= x.max) change("answer", key, d);
    else if (x.kind === "category") pickOption(x, key);
  } else return;
  e.preventDefault();
});
fetch("/api/sheet", { headers: H }).then(async (r) => {
  if (!r.ok) { $("msg").textContent = "this link's token was refused (" + r.status + ")"; return; }
  S = await r.json();
  showBrief(S.brief);
  item = firstOpen(); q = openQ(item); render();
  document.body.dataset.ready = "1";
});
`;

/** The page for one labeller (their id in the title; their items come from /api/sheet). */
export function labelPageHtml(labeler: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Labelling: ${esc(labeler)}</title><style>${STYLE}</style></head>
<body>
<header><b>Errata labelling</b><span>${esc(labeler)}</span><span id="n"></span><code id="xid"></code><div id="bar"><div id="fill"></div></div><span id="count"></span><span id="saved">not yet saved</span></header>
<main>
<section>
<h2>Before: the person asked</h2><div class="turn" id="previous_ask"></div>
<h2>The reply ended</h2><div class="turn" id="reply_end"></div>
<h2>Tool calls</h2><div class="turn" id="tool_calls"></div>
<h2>Then the person wrote</h2><div class="turn prompt" id="prompt"></div>
<h2>Questions</h2><ol id="qs"></ol><div id="msg"></div>
<div id="keys"><kbd>y</kbd>/<kbd>n</kbd> answer · digits: rating or option · <kbd>s</kbd> skip · <kbd>←</kbd><kbd>→</kbd> item · <kbd>↑</kbd><kbd>↓</kbd> question · <kbd>u</kbd> undo · <kbd>e</kbd> export the sheet. Every answer is saved at once.</div>
</section>
<section><h2>The brief (the focused question's section is marked)</h2><div id="brief"></div></section>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
