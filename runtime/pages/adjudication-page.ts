import { esc } from "./html.js";
import { BRIEF_SCRIPT, PAGE_STYLE } from "./label-style.js";

/**
 * The adjudication view of the labelling page, for an adjudicator's token: each item the
 * labellers split on, its text, the labels side by side (as labeller A, B, C: in an order
 * shuffled per item, so no labeller's name or habit weighs on the pick), the brief's guideline
 * for the question marked, and one click (or key) to pick one of the labels or mark the item
 * ambiguous. Every decision is appended to the adjudications file before the page moves on;
 * undo appends the decision it replaces (or a withdrawal).
 *
 * Keys: 1-9 pick the n-th label shown; a ambiguous; ← → item; ↑ ↓ question; u (Backspace,
 * Ctrl+Z) undo.
 */
const SCRIPT = String.raw`
const token = new URLSearchParams(location.search).get("t") || "";
const H = { "x-errata-token": token };
let S = null, item = 0, q = 0; const undo = [];
const $ = (id) => document.getElementById(id);
const cellOf = (v) => v === true ? "yes" : v === false ? "no" : String(v);
const decided = (d) => d.decision !== null;
const itemDone = (i) => S.items[i].disputes.every(decided);
function firstOpen() { for (let i = 0; i < S.items.length; i++) if (!itemDone(i)) return i; return Math.max(0, S.items.length - 1); }
function openQ(i) { const k = S.items[i].disputes.findIndex((d) => !decided(d)); return k < 0 ? 0 : k; }
function button(text, cls, onclick) { const b = document.createElement("button"); b.type = "button"; b.textContent = text; if (cls) b.className = cls; b.onclick = (e) => { e.stopPropagation(); onclick(); }; return b; }
function render() {
  if (S.items.length === 0) { $("n").textContent = "nothing to adjudicate"; $("count").textContent = "0 / 0 decided"; return; }
  const it = S.items[item];
  $("n").textContent = "item " + (item + 1) + " of " + S.items.length;
  $("xid").textContent = it.exchange_id;
  const all = S.items.flatMap((x) => x.disputes); const done = all.filter(decided).length;
  $("count").textContent = done + " / " + all.length + " decided";
  $("fill").style.width = (100 * done / Math.max(1, all.length)) + "%";
  for (const k of ["previous_ask", "reply_end", "tool_calls", "prompt"]) { const v = it[k]; $(k).textContent = v === null || v === "" ? "(none)" : v; }
  const ol = $("qs"); ol.textContent = "";
  it.disputes.forEach((d, k) => {
    const li = document.createElement("li"); li.dataset.q = d.question;
    li.className = (k === q ? "cur " : "") + (decided(d) ? "done" : "");
    const name = document.createElement("span"); name.textContent = d.question + " (" + d.dispute + ")"; li.appendChild(name);
    const votes = document.createElement("span"); votes.className = "votes";
    for (const v of d.votes) { const box = document.createElement("span"); box.className = "vote"; const who = document.createElement("b"); who.textContent = "labeller " + v.who; box.appendChild(who); box.appendChild(document.createTextNode(cellOf(v.value))); votes.appendChild(box); }
    li.appendChild(votes);
    const btns = document.createElement("span"); btns.className = "btns";
    d.options.forEach((cell, j) => btns.appendChild(button((j + 1) + " " + cell, "pick" + (d.decision === "label" && cellOf(d.value) === cell ? " on" : ""), () => { q = k; decide("label", cell); })));
    btns.appendChild(button("ambiguous", "amb" + (d.decision === "ambiguous" ? " on" : ""), () => { q = k; decide("ambiguous"); }));
    li.appendChild(btns);
    const v = document.createElement("span"); v.className = "v"; v.textContent = d.decision === "label" ? cellOf(d.value) : d.decision === "ambiguous" ? "ambiguous" : ""; li.appendChild(v);
    li.onclick = () => { q = k; render(); };
    ol.appendChild(li);
  });
  $("prev").disabled = item === 0; $("next").disabled = item === S.items.length - 1; $("undo").disabled = undo.length === 0;
  markBrief(it.disputes[q].question);
}
async function post(body) {
  const r = await fetch("/api/decide", { method: "POST", headers: { ...H, "content-type": "application/json" }, body: JSON.stringify(body) });
  const out = await r.json();
  if (!r.ok) { $("msg").textContent = out.error || ("error " + r.status); return null; }
  $("msg").textContent = ""; $("saved").textContent = "saved " + out.progress.decided + "/" + out.progress.disputes;
  document.body.dataset.saved = String(Number(document.body.dataset.saved || 0) + 1);
  return out;
}
async function decide(op, cell, record = true) {
  const it = S.items[item], d = it.disputes[q];
  const before = { decision: d.decision, value: d.value };
  const out = await post({ exchange_id: it.exchange_id, question: d.question, op, ...(op === "label" ? { value: cell } : {}) });
  if (!out) return;
  d.decision = out.decision; d.value = out.value;
  if (record) undo.push({ item, q, before });
  const k = it.disputes.findIndex((x, j) => j > q && !decided(x));
  if (k >= 0) q = k; else if (!itemDone(item)) q = openQ(item); else if (item < S.items.length - 1) { item++; q = openQ(item); }
  render();
}
async function doUndo() {
  const u = undo.pop(); if (!u) return;
  item = u.item; q = u.q;
  const it = S.items[item], d = it.disputes[q], b = u.before;
  const out = await post({ exchange_id: it.exchange_id, question: d.question, ...(b.decision === "label" ? { op: "label", value: cellOf(b.value) } : b.decision === "ambiguous" ? { op: "ambiguous" } : { op: "withdraw" }) });
  if (out) { d.decision = out.decision; d.value = out.value; }
  render();
}
const go = (dd) => { item = Math.max(0, Math.min(S.items.length - 1, item + dd)); q = openQ(item); render(); };
document.addEventListener("keydown", (e) => {
  if (!S || S.items.length === 0 || e.altKey || e.metaKey) return;
  const key = e.key, d = S.items[item].disputes[q];
  if (e.ctrlKey) { if (key === "z") { e.preventDefault(); doUndo(); } return; }
  if (key === "ArrowRight") go(1);
  else if (key === "ArrowLeft") go(-1);
  else if (key === "ArrowDown") { q = Math.min(S.items[item].disputes.length - 1, q + 1); render(); }
  else if (key === "ArrowUp") { q = Math.max(0, q - 1); render(); }
  else if (key === "u" || key === "Backspace") doUndo();
  else if (key === "a") decide("ambiguous");
  else if (/^[1-9]$/.test(key) && Number(key) <= d.options.length) decide("label", d.options[Number(key) - 1]);
  else return;
  e.preventDefault();
});
$("prev").onclick = () => go(-1); $("next").onclick = () => go(1); $("undo").onclick = () => doUndo();
fetch("/api/adjudication", { headers: H }).then(async (r) => {
  if (!r.ok) { $("msg").textContent = "this link's token was refused (" + r.status + ")"; return; }
  S = await r.json();
  showBrief(S.brief);
  if (S.items.length > 0) { item = firstOpen(); q = openQ(item); }
  render();
  document.body.dataset.ready = "1";
});
`;

/** The adjudication view for one adjudicator (their disputed items come from /api/adjudication). */
export function adjudicationPageHtml(adjudicator: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Adjudication: ${esc(adjudicator)}</title><style>${PAGE_STYLE}</style></head>
<body>
<header><b>Errata adjudication</b><span>${esc(adjudicator)}</span><span id="n"></span><code id="xid"></code><div id="bar"><div id="fill"></div></div><span id="count"></span><span id="saved">not yet saved</span></header>
<main>
<section>
<h2>Before: the person asked</h2><div class="turn" id="previous_ask"></div>
<h2>The reply ended</h2><div class="turn" id="reply_end"></div>
<h2>Tool calls</h2><div class="turn" id="tool_calls"></div>
<h2>Then the person wrote</h2><div class="turn prompt" id="prompt"></div>
<h2>The labellers split on</h2><ol id="qs"></ol><div id="msg"></div>
<div id="nav"><button type="button" id="prev">← previous item</button><button type="button" id="next">next item →</button><button type="button" id="undo">undo the last decision</button></div>
<div id="keys">Pick the label that is right, or say the item is ambiguous (it then leaves the gold). Keys: <kbd>1</kbd>-<kbd>9</kbd> pick · <kbd>a</kbd> ambiguous · <kbd>←</kbd><kbd>→</kbd> item · <kbd>↑</kbd><kbd>↓</kbd> question · <kbd>u</kbd> undo. The raw labels are never changed.</div>
</section>
<section><h2>Guidelines (the focused question's section is marked)</h2><div id="brief"></div></section>
</main>
<script nonce="${esc(nonce)}">${BRIEF_SCRIPT}${SCRIPT}</script>
</body></html>
`;
}
