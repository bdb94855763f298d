import { esc } from "./html.js";
import { BRIEF_SCRIPT, PAGE_STYLE } from "./label-style.js";

/**
 * The labelling page: one self-contained HTML file (inline style and one nonce'd script,
 * nothing from a CDN: it works offline), for keyboard and mouse alike. It reads the token from
 * its own URL and sends it in a header; every answer is posted, and saved by the server, before
 * the page moves on. The brief is rendered (Markdown, by the server: raw HTML shown as text) with
 * the focused question's guideline marked; progress is "item n of N" and "k / N done".
 *
 * Keys: y / n answer a yes/no question; digits a rating (the digit) or a category (its number
 * in the list, one or two digits); s skips (left empty with a note); ← → previous / next item;
 * ↑ ↓ previous / next question; u (or Backspace, Ctrl+Z) undoes the last change; e downloads
 * the filled sheet. Mouse: each question's answer buttons (a list for a long category), skip,
 * and the previous, next, undo and export buttons; a click on a question focuses it.
 */
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
function opts(x) { return x.kind === "yesno" ? "y / n" : x.kind === "rating" ? x.min + "-" + x.max : x.values.length > 8 ? "1-" + x.values.length : x.values.map((v, i) => (i + 1) + " " + v).join(", "); }
function choices(x) {
  if (x.kind === "yesno") return [["yes", true], ["no", false]];
  if (x.kind === "rating") { const out = []; for (let v = x.min; v <= x.max; v++) out.push([String(v), v]); return out; }
  return x.values.map((v) => [v, v]);
}
function button(text, cls, onclick) { const b = document.createElement("button"); b.type = "button"; b.textContent = text; if (cls) b.className = cls; b.onclick = (e) => { e.stopPropagation(); onclick(); }; return b; }
function answerControls(x, k, s) {
  const box = document.createElement("span"); box.className = "btns";
  const cur = s.answer !== undefined ? cellOf(s.answer) : null;
  const pick = (cell, parsed) => { q = k; change("answer", cell, parsed); };
  if (x.kind === "category" && x.values.length > 8) {
    const sel = document.createElement("select"); sel.dataset.q = x.id;
    const none = document.createElement("option"); none.value = ""; none.textContent = "choose…"; sel.appendChild(none);
    x.values.forEach((v, i) => { const o = document.createElement("option"); o.value = v; o.textContent = (i + 1) + " " + v; if (v === cur) o.selected = true; sel.appendChild(o); });
    sel.onclick = (e) => e.stopPropagation();
    sel.onchange = () => { if (sel.value !== "") pick(sel.value, sel.value); };
    box.appendChild(sel);
  } else for (const [cell, parsed] of choices(x)) box.appendChild(button(cell, "ans" + (cell === cur ? " on" : ""), () => pick(cell, parsed)));
  box.appendChild(button("skip", "skipb" + (s.skipped ? " on" : ""), () => { q = k; change("skip"); }));
  return box;
}
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
    const name = document.createElement("span"); name.textContent = x.id; li.appendChild(name);
    const o = document.createElement("span"); o.className = "opts"; o.textContent = opts(x); li.appendChild(o);
    li.appendChild(answerControls(x, k, s));
    const v = document.createElement("span"); v.className = "v"; v.textContent = s.answer !== undefined ? cellOf(s.answer) : s.skipped ? "skipped" : ""; li.appendChild(v);
    li.onclick = () => { q = k; render(); };
    ol.appendChild(li);
  });
  const cur = ol.children[q]; if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
  $("prev").disabled = item === 0; $("next").disabled = item === S.items.length - 1; $("undo").disabled = undo.length === 0;
  markBrief(S.questions[q].id);
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
const go = (d) => { item = Math.max(0, Math.min(S.items.length - 1, item + d)); q = openQ(item); render(); };
const exportSheet = () => { location.href = "/api/export.csv?t=" + encodeURIComponent(token); };
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
  if (!S || e.altKey || e.metaKey || (e.target && e.target.tagName === "SELECT")) return;
  const x = S.questions[q]; const key = e.key;
  if (e.ctrlKey) { if (key === "z") { e.preventDefault(); doUndo(); } return; }
  if (key === "ArrowRight") go(1);
  else if (key === "ArrowLeft") go(-1);
  else if (key === "ArrowDown") { q = Math.min(S.questions.length - 1, q + 1); render(); }
  else if (key === "ArrowUp") { q = Math.max(0, q - 1); render(); }
  else if (key === "u" || key === "Backspace") doUndo();
  else if (key === "s") change("skip");
  else if (key === "e") exportSheet();
  else if (x.kind === "yesno" && (key === "y" || key === "n")) change("answer", key === "y" ? "yes" : "no", key === "y");
  else if (/^[0-9]$/.test(key)) {
    const d = Number(key);
    if (x.kind === "rating" && d >= x.min && d <= x.max) change("answer", key, d);
    else if (x.kind === "category") pickOption(x, key);
  } else return;
  e.preventDefault();
});
$("prev").onclick = () => go(-1); $("next").onclick = () => go(1); $("undo").onclick = () => doUndo(); $("export").onclick = exportSheet;
fetch("/api/sheet", { headers: H }).then(async (r) => {
  if (!r.ok) { $("msg").textContent = "this link's token was refused (" + r.status + ")"; return; }
  S = await r.json();
  showBrief(S.brief);
  $("order").textContent = S.order;
  item = firstOpen(); q = openQ(item); render();
  document.body.dataset.ready = "1";
});
`;

/** The page for one labeller (their id in the title; their items come from /api/sheet). */
export function labelPageHtml(labeler: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Labelling: ${esc(labeler)}</title><style>${PAGE_STYLE}</style></head>
<body>
<header><b>Errata labelling</b><span>${esc(labeler)}</span><span id="n"></span><code id="xid"></code><div id="bar"><div id="fill"></div></div><span id="count"></span><span id="saved">not yet saved</span><span id="order"></span></header>
<main>
<section>
<h2>Before: the person asked</h2><div class="turn" id="previous_ask"></div>
<h2>The reply ended</h2><div class="turn" id="reply_end"></div>
<h2>Tool calls</h2><div class="turn" id="tool_calls"></div>
<h2>Then the person wrote</h2><div class="turn prompt" id="prompt"></div>
<h2>Questions</h2><ol id="qs"></ol><div id="msg"></div>
<div id="nav"><button type="button" id="prev">← previous item</button><button type="button" id="next">next item →</button><button type="button" id="undo">undo the last answer</button><button type="button" id="export">download the sheet</button></div>
<div id="keys">Click an answer, or use keys: <kbd>y</kbd>/<kbd>n</kbd> answer · digits: rating or option · <kbd>s</kbd> skip · <kbd>←</kbd><kbd>→</kbd> item · <kbd>↑</kbd><kbd>↓</kbd> question · <kbd>u</kbd> undo · <kbd>e</kbd> export the sheet. Every answer is saved at once.</div>
</section>
<section><h2>Guidelines (the focused question's section is marked)</h2><div id="brief"></div></section>
</main>
<script nonce="${esc(nonce)}">${BRIEF_SCRIPT}${SCRIPT}</script>
</body></html>
`;
}
