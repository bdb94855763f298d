/**
 * What the labelling page and the adjudication view share: the style sheet and the
 * Content-Security-Policy with the page's nonce (its one inline script runs; nothing injected
 * could, and nothing is fetched from elsewhere).
 */
export const PAGE_STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1d2430;background:#f4f5f7}
header{display:flex;gap:18px;align-items:center;padding:10px 18px;background:#1d2430;color:#fff;flex-wrap:wrap}
header b{font-size:16px}#bar{flex:1;min-width:120px;height:8px;background:#3b4555;border-radius:4px;overflow:hidden}#fill{height:100%;background:#5fbf7a;width:0}
#xid{font-size:12px;color:#c9d1dc}#saved{font-size:13px;color:#c9d1dc;min-width:120px;text-align:right}#order{font-size:12px;color:#c9d1dc}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:16px;padding:16px 18px}
section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 14px}
h2{font-size:14px;text-transform:uppercase;letter-spacing:.04em;color:#5a6270;margin:10px 0 4px}
.turn{white-space:pre-wrap;word-break:break-word;background:#f7f8fa;border-left:3px solid #c7ccd4;padding:6px 10px;margin:0 0 6px;max-height:220px;overflow:auto}
.turn.prompt{border-left-color:#3a74d8;background:#eef4ff}
ol#qs{list-style:none;padding:0;margin:6px 0}ol#qs li{padding:6px 8px;border:1px solid #e3e6ea;border-radius:5px;margin:4px 0;display:flex;gap:10px;align-items:center;flex-wrap:wrap;cursor:pointer}
ol#qs li.cur{border-color:#3a74d8;box-shadow:0 0 0 2px #3a74d855}ol#qs li .v{margin-left:auto;font-weight:600;min-width:70px;text-align:right}
.done .v{color:#1d6b2f}.skip .v{color:#9a3b00}.opts{font-size:12px;color:#5a6270}
.btns{display:flex;gap:4px;flex-wrap:wrap}button{font:inherit;font-size:13px;padding:3px 10px;border:1px solid #b8c0cc;border-radius:4px;background:#fff;cursor:pointer}
button:hover{background:#eef4ff;border-color:#3a74d8}button.on{background:#3a74d8;color:#fff;border-color:#3a74d8}button:disabled{opacity:.45;cursor:default}
select{font:inherit;font-size:13px;padding:2px 4px}
#nav{display:flex;gap:6px;margin:8px 0;flex-wrap:wrap}
#brief{font-size:13px;max-height:calc(100vh - 120px);overflow:auto;margin:0;position:relative}
#brief h1{font-size:18px}#brief h2{font-size:15px;text-transform:none;letter-spacing:0;color:#1d2430}#brief h3{font-size:14px;margin:6px 0 2px}
.bq{padding:2px 6px;border-left:3px solid transparent}.bq.cur{background:#fff8e1;border-left-color:#e0a000}
kbd{border:1px solid #bbb;border-bottom-width:2px;border-radius:3px;padding:0 4px;font-size:12px;background:#fafafa}
#keys{font-size:13px;color:#5a6270;margin-top:8px}#msg{color:#9a3b00;min-height:1.2em}
.votes{display:flex;gap:8px;flex-wrap:wrap}.vote{border:1px solid #dde1e6;border-radius:5px;padding:4px 10px;background:#f7f8fa;min-width:90px}.vote b{display:block;font-size:12px;color:#5a6270;font-weight:500}
`;

/** The page's shared script part: the brief's sections, marked for the focused question. */
export const BRIEF_SCRIPT = String.raw`
function showBrief(sections) {
  // Server-rendered (micromark, raw HTML escaped): one block per question's section.
  const box = document.getElementById("brief"); box.textContent = "";
  for (const s of sections) { const d = document.createElement("div"); d.className = "bq"; d.dataset.q = s.q; d.innerHTML = s.html; box.appendChild(d); }
}
function markBrief(qid) {
  const box = document.getElementById("brief");
  for (const d of box.children) d.className = d.dataset.q === qid ? "bq cur" : "bq";
  const sec = [...box.children].find((d) => d.dataset.q === qid);
  if (sec) box.scrollTop = sec.offsetTop;
}
`;

/** The page's policy: its own nonce'd script, inline style, requests to its own server only, no framing. */
export const pageCsp = (nonce: string): string => `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
