"""The inspector page's HTML, CSS and JavaScript (internal; see inspector.py).

One template kept in a module, not a data file, so the page ships wherever the
package does. ``%%TITLE%%`` and ``%%DATA%%`` are filled in by
:func:`corelogic.inspector.build_report`; the data is the trace's first state,
each step's change, the effect lifetimes and the diagrams, never every state.
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%%TITLE%%</title>
<style>
:root {
  --bg: #f6f7f9; --panel: #ffffff; --ink: #1d2330; --muted: #6b7385; --line: #e3e6ec;
  --accent: #3867d6; --accent-soft: #e8eefc; --ok: #2e8b57; --stale: #d9822b; --stale-soft: #fff2e3;
  --error: #c0392b; --error-soft: #fdecea; --add: #e3f6e8; --add-ink: #1e7a3c; --rep: #fff6d6; --rep-ink: #8a6100;
  --rem: #fde8e8; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: var(--bg);
  display: grid; grid-template-rows: auto 1fr; }
header { display: flex; align-items: center; gap: 14px; padding: 8px 14px; background: #1d2330; color: #fff; flex-wrap: wrap; }
header h1 { font-size: 15px; margin: 0; font-weight: 600; letter-spacing: .2px; }
header .src { color: #aeb6c8; font-family: var(--mono); font-size: 12px; }
header .chips { display: flex; gap: 6px; margin-left: auto; flex-wrap: wrap; }
.chip { border-radius: 999px; padding: 2px 9px; font-size: 12px; background: #2f3747; color: #dfe4ee; cursor: default; white-space: nowrap; }
.chip.stale { background: var(--stale); color: #fff; cursor: pointer; }
.chip.error { background: var(--error); color: #fff; cursor: pointer; }
.chip.problem { background: #8e44ad; color: #fff; cursor: pointer; }
main { display: grid; grid-template-columns: minmax(330px, 30%) 1fr minmax(360px, 32%); gap: 10px; padding: 10px; min-height: 0; }
section.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; display: flex; flex-direction: column; min-height: 0; overflow: hidden; }
.panel > h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .6px; color: var(--muted); margin: 0; padding: 8px 12px; border-bottom: 1px solid var(--line);
  display: flex; align-items: center; gap: 8px; font-weight: 600; }
.panel > h2 .grow { flex: 1; }
.filters { display: flex; gap: 6px; padding: 8px 10px; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.filters select, .filters input, .tools select, .tools button, button.small { font: inherit; font-size: 12px; padding: 3px 6px; border: 1px solid var(--line); border-radius: 5px; background: #fff; color: var(--ink); }
.filters input { width: 74px; }
.filters select { max-width: 118px; }
button.small { cursor: pointer; }
button.small:hover { background: var(--accent-soft); }
#timeline { overflow-y: auto; flex: 1; position: relative; outline: none; }
#tl-spacer { position: relative; }
#tl-rows { position: absolute; left: 0; right: 0; top: 0; }
.row { height: 28px; display: flex; align-items: center; gap: 8px; padding: 0 10px; border-bottom: 1px solid #f0f2f5; cursor: pointer; white-space: nowrap; overflow: hidden; }
.row:hover { background: #f4f7ff; }
.row.sel { background: var(--accent-soft); box-shadow: inset 3px 0 0 var(--accent); }
.row .seq { color: var(--muted); font-family: var(--mono); font-size: 11px; width: 52px; text-align: right; flex: none; }
.kind { font-size: 10.5px; font-weight: 600; text-transform: uppercase; border-radius: 4px; padding: 1px 5px; flex: none; width: 74px; text-align: center; }
.kind.send { background: #e8eefc; color: #2c4fa8; }
.kind.deliver { background: #e6f5ef; color: #1f6f4a; }
.kind.complete { background: #efeaf8; color: #5b3d98; }
.row .name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; }
.row .eff { color: var(--muted); font-family: var(--mono); font-size: 11px; }
.row .cmds { color: var(--muted); font-size: 11px; overflow: hidden; text-overflow: ellipsis; flex: 1; text-align: right; }
.row .ns { color: var(--muted); font-family: var(--mono); font-size: 10.5px; width: 58px; text-align: right; flex: none; }
.badge { font-size: 10.5px; font-weight: 700; border-radius: 4px; padding: 1px 5px; flex: none; }
.badge.stale { background: var(--stale-soft); color: var(--stale); }
.badge.error { background: var(--error-soft); color: var(--error); }
.row.stale .name { color: var(--stale); }
.row.error .name { color: var(--error); }
.empty { padding: 20px; color: var(--muted); text-align: center; }
#center { display: grid; grid-template-rows: auto 1fr; gap: 10px; min-height: 0; }
#detail { max-height: 46vh; }
#detail .body, #state-panel .body { overflow: auto; padding: 10px 12px; }
.meta-line { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
.meta-line .title { font-size: 15px; font-weight: 650; }
.meta-line .muted { color: var(--muted); }
.block { margin: 8px 0; }
.block > .label { font-size: 11px; text-transform: uppercase; letter-spacing: .5px; color: var(--muted); margin-bottom: 3px; }
pre, code, .mono { font-family: var(--mono); font-size: 12px; }
pre.json { margin: 0; padding: 6px 8px; background: #f7f8fa; border-radius: 5px; white-space: pre-wrap; word-break: break-word; max-height: 180px; overflow: auto; }
.cmd { font-family: var(--mono); font-size: 12px; padding: 1px 0; }
.cmd.start::before { content: "▶ "; color: var(--ok); }
.cmd.cancel::before { content: "■ "; color: var(--error); }
table.change { border-collapse: collapse; width: 100%; font-family: var(--mono); font-size: 12px; }
table.change td { padding: 3px 6px; border-bottom: 1px solid #f0f2f5; vertical-align: top; word-break: break-word; }
table.change td.op { width: 72px; font-weight: 700; white-space: nowrap; }
td.op.add { color: var(--add-ink); } td.op.replace { color: var(--rep-ink); } td.op.remove { color: var(--error); }
.old { color: var(--error); text-decoration: line-through; }
.new { color: var(--add-ink); }
.tree { font-family: var(--mono); font-size: 12px; }
.tree .kv { padding-left: 16px; position: relative; }
.tree > .kv { padding-left: 0; }
.tree .k { color: #7b3fa6; }
.tree .tog { position: absolute; left: 2px; cursor: pointer; color: var(--muted); user-select: none; width: 12px; }
.tree > .kv > .tog { left: -12px; }
.tree .sum { color: var(--muted); cursor: pointer; }
.tree .str { color: #0b7a5b; } .tree .num { color: #2c4fa8; } .tree .lit { color: #b3541e; }
.tree .changed-add > .v, .tree .changed-add > .sum, .tree .v.changed-add { background: var(--add); border-radius: 3px; outline: 1px solid #b9e6c5; }
.tree .changed-replace > .v, .tree .changed-replace > .sum, .tree .v.changed-replace { background: var(--rep); border-radius: 3px; outline: 1px solid #f0dc8f; }
.tree .contains-change > .k { text-decoration: underline dotted #d4a200; }
.pager { color: var(--muted); padding: 2px 0 2px 16px; display: flex; gap: 6px; align-items: center; }
.pager button { font: inherit; font-size: 11px; padding: 0 6px; border: 1px solid var(--line); border-radius: 4px; background: #fff; cursor: pointer; }
#right { display: grid; grid-template-rows: 1fr 1fr; gap: 10px; min-height: 0; }
#lanes { overflow: auto; flex: 1; padding: 6px 10px 10px; position: relative; }
.lane { display: grid; grid-template-columns: 120px 1fr; align-items: center; height: 22px; gap: 6px; }
.lane .lname { font-family: var(--mono); font-size: 11px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; color: var(--ink); }
.lane .track { position: relative; height: 14px; background: #f4f5f8; border-radius: 3px; }
.bar { position: absolute; top: 2px; height: 10px; border-radius: 5px; cursor: pointer; opacity: .9; }
.bar.open-end { border-top-right-radius: 0; border-bottom-right-radius: 0; }
.mark { position: absolute; top: -1px; width: 10px; height: 16px; margin-left: -5px; font-size: 11px; line-height: 16px; text-align: center; cursor: pointer; }
.mark.stale { color: var(--stale); font-weight: 900; }
.mark.deliver { color: #1d2330; }
.mark.cancel { color: var(--error); font-weight: 900; }
.mark.complete { color: var(--ok); font-weight: 900; }
.cursor { position: absolute; top: 0; bottom: 0; width: 2px; background: var(--accent); opacity: .55; pointer-events: none; }
.axis { display: grid; grid-template-columns: 120px 1fr; gap: 6px; color: var(--muted); font-size: 10.5px; font-family: var(--mono); margin-bottom: 4px; }
.axis .ticks { display: flex; justify-content: space-between; }
.legend { display: flex; gap: 10px; color: var(--muted); font-size: 11px; padding: 0 10px 6px; flex-wrap: wrap; }
.tools { display: flex; gap: 6px; padding: 6px 10px; border-bottom: 1px solid var(--line); align-items: center; flex-wrap: wrap; }
#diagram-wrap { flex: 1; overflow: auto; min-height: 0; }
#diagram svg { display: block; margin: 0 auto; }
#diagram .node rect { fill: #fff; stroke: #98a3b8; stroke-width: 1.2; }
#diagram .node.current rect { fill: var(--accent-soft); stroke: var(--accent); stroke-width: 2.2; }
#diagram .node text { font-size: 12px; fill: var(--ink); font-family: var(--mono); }
#diagram .node .count { fill: var(--muted); font-size: 10px; }
#diagram .edge path { fill: none; stroke: #98a3b8; stroke-width: 1.3; }
#diagram .edge.taken path { stroke: var(--accent); stroke-width: 2.4; }
#diagram .edge text { font-size: 10.5px; fill: #4a5468; font-family: system-ui, sans-serif; paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
#diagram .edge.taken text { fill: var(--accent); font-weight: 700; }
#export { display: none; border-top: 1px solid var(--line); padding: 6px 10px; }
#export textarea { width: 100%; height: 110px; font-family: var(--mono); font-size: 11px; border: 1px solid var(--line); border-radius: 5px; }
#problems { display: none; position: fixed; top: 44px; right: 14px; max-width: 560px; max-height: 50vh; overflow: auto; background: #fff; border: 1px solid var(--line);
  border-radius: 8px; box-shadow: 0 8px 28px rgba(0,0,0,.15); padding: 10px 14px; z-index: 5; font-family: var(--mono); font-size: 12px; }
kbd { font-family: var(--mono); font-size: 11px; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; background: #fff; color: var(--ink); }
.hint { color: #aeb6c8; font-size: 11.5px; }
</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <span class="src" id="source"></span>
  <span class="hint"><kbd>↑</kbd> <kbd>↓</kbd> step · <kbd>S</kbd> next stale · <kbd>E</kbd> next error</span>
  <div class="chips" id="chips"></div>
</header>
<div id="problems"></div>
<main>
  <section class="panel" id="timeline-panel">
    <h2>Timeline <span class="grow"></span><span id="count" class="muted"></span></h2>
    <div class="filters">
      <select id="filter-event" title="event"><option value="">all events</option></select>
      <select id="filter-feedback" title="feedback"><option value="">all feedbacks</option></select>
      <select id="filter-status" title="status"><option value="">any status</option><option value="ok">ok</option><option value="stale">stale</option><option value="error">errors</option></select>
      <input id="goto" type="number" min="0" placeholder="go to #">
    </div>
    <div id="timeline" tabindex="0"><div id="tl-spacer"><div id="tl-rows"></div></div></div>
  </section>
  <div id="center">
    <section class="panel" id="detail"><h2>Step</h2><div class="body" id="detail-body"></div></section>
    <section class="panel" id="state-panel"><h2>State <span class="grow"></span><button class="small" id="expand-all" title="expand the changed paths and the first level">reset view</button></h2>
      <div class="body"><div class="tree" id="state-view"></div></div></section>
  </div>
  <div id="right">
    <section class="panel" id="effects-panel"><h2>Effects <span class="grow"></span><span id="effects-window" class="muted"></span></h2>
      <div class="legend"><span>▬ running</span><span style="color:var(--ok)">✓ complete</span><span style="color:var(--error)">✕ cancel</span><span>● deliver</span><span style="color:var(--stale)">◆ stale</span></div>
      <div id="lanes"></div></section>
    <section class="panel" id="diagram-panel"><h2>State diagram</h2>
      <div class="tools"><select id="diagram-of"></select><span class="grow"></span>
        <button class="small" id="show-dot">DOT</button><button class="small" id="show-mermaid">Mermaid</button></div>
      <div id="diagram-wrap"><div id="diagram"></div></div>
      <div id="export"><textarea id="export-text" readonly></textarea>
        <div style="display:flex;gap:6px;margin-top:4px"><a id="export-download" class="small" download>download</a><button class="small" id="export-copy">copy</button><button class="small" id="export-close">close</button></div></div>
    </section>
  </div>
</main>
<script type="application/json" id="data">%%DATA%%</script>
<script>
"use strict";
const T0 = performance.now();
const D = JSON.parse(document.getElementById("data").textContent);
const S = D.steps;
const N = S.seq.length;
const INPUTS = ["send", "deliver", "complete"];
const ROW = 28;
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
const statusOf = (i) => D.statuses[S.status[i]];
const isError = (i) => statusOf(i).startsWith("error");

// ---- states: the first state plus each step's change; copies kept every 1000 steps ----
const clone = (v) => (v === null || typeof v !== "object") ? v : structuredClone(v);
function tokens(pointer) {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}
function lookup(doc, path) {
  let v = doc;
  for (const t of tokens(path)) { if (v === null || typeof v !== "object") return undefined; v = Array.isArray(v) ? v[+t] : v[t]; }
  return v;
}
function applyOp(doc, op) {
  const ts = tokens(op.path);
  if (ts.length === 0) return clone(op.value);
  let parent = doc;
  for (const t of ts.slice(0, -1)) parent = Array.isArray(parent) ? parent[+t] : parent[t];
  const last = ts[ts.length - 1];
  if (Array.isArray(parent)) {
    const i = last === "-" ? parent.length : +last;
    if (op.op === "add") parent.splice(i, 0, clone(op.value));
    else if (op.op === "remove") parent.splice(i, 1);
    else parent[i] = clone(op.value);
  } else {
    if (op.op === "remove") delete parent[last]; else parent[last] = clone(op.value);
  }
  return doc;
}
const EVERY = 5000, KEPT = 40;
const checkpoints = new Map();
// The state last shown: stepping to the next step costs one copy of it plus one change.
// Nothing changes it once it is here (every change is made on a copy).
let last = { index: -1, state: D.initial.state };
/** A copy of the state after step `index` (-1: the first state), the caller's to change. */
function stateAfter(index) {
  let start = -1, base = D.initial.state;
  for (const [k, v] of checkpoints) if (k <= index && k > start) { start = k; base = v; }
  if (last.index <= index && last.index > start) { start = last.index; base = last.state; }
  let state = clone(base);
  for (let p = start + 1; p <= index; p++) {
    for (const op of S.patch[p]) state = applyOp(state, op);
    if ((p + 1) % EVERY === 0 && !checkpoints.has(p)) {
      if (checkpoints.size >= KEPT) checkpoints.delete(checkpoints.keys().next().value);
      checkpoints.set(p, clone(state));
    }
  }
  return state;
}

// ---- effects: id -> lifetime ----
const byEffect = new Map();
D.lifetimes.forEach((l) => byEffect.set(l.id, l));
function stepFeedbacks(i) {
  const out = new Set();
  for (const c of S.effects[i]) {
    if (c.start) out.add(c.start.feedback);
    else if (c.cancel !== undefined && byEffect.has(c.cancel)) out.add(byEffect.get(c.cancel).feedback);
  }
  if (S.effect[i] >= 0 && byEffect.has(S.effect[i])) out.add(byEffect.get(S.effect[i]).feedback);
  return out;
}

// ---- filters and the virtual timeline ----
let view = new Int32Array(0);
let selected = -1;   // a step index, or -1 for the first state
function applyFilters() {
  const ev = $("filter-event").value, fb = $("filter-feedback").value, st = $("filter-status").value;
  const nameIndex = ev === "" ? -1 : D.names.indexOf(ev);
  const keep = [];
  for (let i = 0; i < N; i++) {
    if (nameIndex >= 0 && S.name[i] !== nameIndex) continue;
    if (st === "ok" && statusOf(i) !== "ok") continue;
    if (st === "stale" && statusOf(i) !== "stale") continue;
    if (st === "error" && !isError(i)) continue;
    if (fb !== "" && !stepFeedbacks(i).has(fb)) continue;
    keep.push(i);
  }
  view = Int32Array.from(keep);
  $("count").textContent = view.length === N ? `${N} steps` : `${view.length} of ${N} steps`;
  $("tl-spacer").style.height = (view.length * ROW) + "px";
  renderRows();
}
function fmtNs(ns) {
  if (ns < 0) return "";
  if (ns < 1000) return ns + " ns";
  if (ns < 1e6) return (ns / 1000).toFixed(ns < 1e4 ? 1 : 0) + " µs";
  return (ns / 1e6).toFixed(1) + " ms";
}
function commandSummary(i) {
  return S.effects[i].map((c) => c.start ? `▶ ${c.start.feedback}#${c.start.id}` : `■ #${c.cancel}`).join("  ");
}
function renderRows() {
  const box = $("timeline");
  const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 8);
  const count = Math.ceil(box.clientHeight / ROW) + 16;
  const rows = $("tl-rows");
  rows.style.transform = `translateY(${first * ROW}px)`;
  rows.replaceChildren();
  if (view.length === 0) { rows.append(el("div", "empty", "No step matches the filters.")); return; }
  for (let r = first; r < Math.min(view.length, first + count); r++) {
    const i = view[r];
    const status = statusOf(i);
    const row = el("div", "row" + (i === selected ? " sel" : "") + (status === "stale" ? " stale" : "") + (status.startsWith("error") ? " error" : ""));
    row.dataset.index = i; row.dataset.seq = S.seq[i];
    row.append(el("span", "seq", "#" + S.seq[i]), el("span", "kind " + INPUTS[S.input[i]], INPUTS[S.input[i]]), el("span", "name", D.names[S.name[i]]));
    if (S.effect[i] >= 0) row.append(el("span", "eff", "#" + S.effect[i]));
    if (status === "stale") row.append(el("span", "badge stale", "STALE"));
    if (status.startsWith("error")) row.append(el("span", "badge error", status.slice(6).toUpperCase()));
    row.append(el("span", "cmds", commandSummary(i)), el("span", "ns", fmtNs(S.ns[i])));
    row.addEventListener("click", () => select(i));
    rows.append(row);
  }
}
function scrollToSelected() {
  const r = view.indexOf(selected);
  if (r < 0) return;
  const box = $("timeline");
  if (r * ROW < box.scrollTop || (r + 1) * ROW > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, r * ROW - box.clientHeight / 2);
}

// ---- the selected step ----
function jsonBlock(label, value) {
  const b = el("div", "block");
  b.append(el("div", "label", label));
  let text = JSON.stringify(value, null, 1);
  if (text !== undefined && text.length > 4000) text = text.slice(0, 4000) + "\n… (" + text.length + " characters)";
  b.append(el("pre", "json", text));
  return b;
}
function short(v) {
  const t = JSON.stringify(v);
  return t === undefined ? "" : (t.length > 140 ? t.slice(0, 139) + "…" : t);
}
function renderDetail(i, olds) {
  const body = $("detail-body");
  body.replaceChildren();
  if (i < 0) {
    const m = el("div", "meta-line"); m.append(el("span", "title", "First state"), el("span", "muted", `before step #${N ? S.seq[0] : 0}`));
    body.append(m);
    if (D.initial.effects.length) {
      const b = el("div", "block"); b.append(el("div", "label", "Running effects"));
      for (const e of D.initial.effects) b.append(el("div", "cmd start", `${e.feedback}#${e.id} ${short(e.request)}`));
      body.append(b);
    }
    body.append(jsonBlock("Queries", D.initial.queries));
    return;
  }
  const status = statusOf(i);
  const m = el("div", "meta-line");
  m.append(el("span", "title", `#${S.seq[i]} ${D.names[S.name[i]]}`), el("span", "kind " + INPUTS[S.input[i]], INPUTS[S.input[i]]));
  if (S.effect[i] >= 0) {
    const l = byEffect.get(S.effect[i]);
    m.append(el("span", "muted", `effect #${S.effect[i]}` + (l && l.feedback !== "?" ? ` (${l.feedback})` : "")));
  }
  m.append(status === "ok" ? el("span", "badge", "ok") : el("span", "badge " + (status === "stale" ? "stale" : "error"), status.toUpperCase()));
  if (S.ns[i] >= 0) m.append(el("span", "muted", fmtNs(S.ns[i])));
  body.append(m);
  if (status === "stale") body.append(el("div", "block muted", "Stale: the effect was not running (cancelled, completed or never started), so the event was dropped and never reached the reducer."));
  const msg = D.sparse.message[i]; const raw = D.sparse.raw[i];
  if (msg !== undefined) { const b = el("div", "block"); b.append(el("div", "label", "Error"), el("pre", "json", msg)); body.append(b); }
  if (raw !== undefined) { const b = el("div", "block"); b.append(el("div", "label", "Sent text"), el("pre", "json", raw)); body.append(b); }
  if (S.event[i] !== null && S.event[i] !== undefined) body.append(jsonBlock("Event", S.event[i]));
  if (status === "ok") {
    const c = el("div", "block"); c.append(el("div", "label", "Commands"));
    if (!S.effects[i].length) c.append(el("div", "muted", "none"));
    for (const cmd of S.effects[i]) c.append(cmd.start ? el("div", "cmd start", `start ${cmd.start.feedback}#${cmd.start.id} ${short(cmd.start.request)}`) : el("div", "cmd cancel", `cancel #${cmd.cancel}` + (byEffect.has(cmd.cancel) ? ` (${byEffect.get(cmd.cancel).feedback})` : "")));
    body.append(c);
    const q = D.sparse.queries[i];
    if (q) body.append(jsonBlock("Queries changed", q));
    const ch = el("div", "block"); ch.append(el("div", "label", "Change"));
    if (!S.patch[i].length) ch.append(el("div", "muted", "the state did not change"));
    else {
      const t = el("table", "change"); t.id = "change";
      S.patch[i].slice(0, 200).forEach((op, k) => {
        const tr = el("tr"); tr.append(el("td", "op " + op.op, op.op), el("td", "", op.path || "(whole state)"));
        const td = el("td");
        if (op.op !== "add") td.append(el("span", "old", short(olds[k])));
        if (op.op !== "remove") { if (op.op === "replace") td.append(" → "); td.append(el("span", "new", short(op.value))); }
        tr.append(td); t.append(tr);
      });
      ch.append(t);
      if (S.patch[i].length > 200) ch.append(el("div", "muted", `… and ${S.patch[i].length - 200} more operations`));
    }
    body.append(ch);
  }
}

// ---- the state tree: only what is open, arrays a page at a time ----
const PAGE_SIZE = 50;
let opened = new Set([""]);
let closed = new Set();
// Small objects and arrays near the root open by themselves; large ones wait for a click.
const AUTO_DEPTH = 2, AUTO_SIZE = 12;
const pages = new Map();
function changedPaths(i) {
  const marks = new Map();
  if (i < 0) return marks;
  for (const op of S.patch[i]) {
    let p = op.path;
    if (op.op === "add" && p.endsWith("/-")) {
      const parent = p.slice(0, -2);
      const arr = lookup(current.state, parent);
      p = parent + "/" + (Array.isArray(arr) ? arr.length - 1 : 0);
    }
    if (op.op !== "remove") marks.set(p, op.op);
    else marks.set(p.slice(0, p.lastIndexOf("/")), "replace");
  }
  return marks;
}
function revealChanges(marks) {
  for (const path of marks.keys()) {
    const ts = tokens(path);
    let p = "";
    for (let k = 0; k < ts.length; k++) {
      const parentValue = lookup(current.state, p);
      if (Array.isArray(parentValue)) pages.set(p, Math.floor((+ts[k]) / PAGE_SIZE));
      opened.add(p);
      p += "/" + ts[k].replace(/~/g, "~0").replace(/\//g, "~1");
    }
  }
}
let current = { index: -1, state: null, marks: new Map() };
function valueSpan(v, path, mark) {
  let cls = "v ", text;
  if (typeof v === "string") { cls += "str"; text = JSON.stringify(v); }
  else if (typeof v === "number") { cls += "num"; text = JSON.stringify(v); }
  else { cls += "lit"; text = JSON.stringify(v); }
  const s = el("span", cls + (mark ? " changed-" + mark : ""), text);
  s.dataset.path = path;
  return s;
}
function hasChangeBelow(path) {
  for (const p of current.marks.keys()) if (p.startsWith(path + "/")) return true;
  return false;
}
function renderNode(key, value, path, depth) {
  const kv = el("div", "kv");
  kv.dataset.node = path;
  const mark = current.marks.get(path);
  if (mark) kv.classList.add("changed-" + mark);
  if (key !== null) { kv.append(el("span", "k", key), ": "); }
  if (value === null || typeof value !== "object") { kv.append(valueSpan(value, path, mark)); return kv; }
  const isArray = Array.isArray(value);
  const size = isArray ? value.length : Object.keys(value).length;
  const open = opened.has(path) || (!closed.has(path) && depth < AUTO_DEPTH && size <= AUTO_SIZE);
  if (hasChangeBelow(path)) kv.classList.add("contains-change");
  const tog = el("span", "tog", size ? (open ? "▾" : "▸") : "");
  const toggle = () => {
    if (open) { opened.delete(path); closed.add(path); } else { opened.add(path); closed.delete(path); }
    renderState();
  };
  tog.addEventListener("click", toggle);
  kv.prepend(tog);
  const sum = el("span", "sum", isArray ? `[${size} item${size === 1 ? "" : "s"}]` : (size ? `{${size} key${size === 1 ? "" : "s"}}` : "{}"));
  sum.dataset.path = path;
  sum.addEventListener("click", toggle);
  kv.append(sum);
  if (!open || !size) return kv;
  const children = el("div", "children");
  if (isArray) {
    const pageCount = Math.ceil(size / PAGE_SIZE);
    const page = Math.min(pages.get(path) || 0, pageCount - 1);
    const from = page * PAGE_SIZE, to = Math.min(size, from + PAGE_SIZE);
    if (pageCount > 1) children.append(pager(path, page, pageCount, from, to, size));
    for (let k = from; k < to; k++) children.append(renderNode(String(k), value[k], path + "/" + k, depth + 1));
    if (pageCount > 1 && to - from > 12) children.append(pager(path, page, pageCount, from, to, size));
  } else {
    for (const k of Object.keys(value)) children.append(renderNode(k, value[k], path + "/" + k.replace(/~/g, "~0").replace(/\//g, "~1"), depth + 1));
  }
  kv.append(children);
  return kv;
}
function pager(path, page, pageCount, from, to, size) {
  const p = el("div", "pager");
  const go = (n) => { pages.set(path, Math.max(0, Math.min(pageCount - 1, n))); renderState(); };
  const b1 = el("button", "", "‹"); b1.disabled = page === 0; b1.addEventListener("click", () => go(page - 1));
  const b2 = el("button", "", "›"); b2.disabled = page === pageCount - 1; b2.addEventListener("click", () => go(page + 1));
  p.append(b1, el("span", "", `items ${from}–${to - 1} of ${size}`), b2);
  return p;
}
function renderState(reveal) {
  const box = $("state-view");
  box.replaceChildren(renderNode(null, current.state, "", 0));
  box.dataset.index = current.index;
  box.dataset.seq = current.index < 0 ? 0 : S.seq[current.index];
  if (reveal) {
    const first = box.querySelector(".changed-add, .changed-replace");
    const scroller = box.parentElement;
    if (first) {
      const top = first.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
      if (top < scroller.scrollTop || top > scroller.scrollTop + scroller.clientHeight - 40) scroller.scrollTop = Math.max(0, top - 60);
    }
  }
}

// ---- effect lifetimes around the selected step ----
const COLORS = ["#3867d6", "#20bf6b", "#8854d0", "#fa8231", "#0fb9b1", "#eb3b5a", "#4b7bec", "#a5b1c2"];
const colorOf = (fb) => COLORS[Math.max(0, D.feedbacks.indexOf(fb)) % COLORS.length];
function renderEffects() {
  const box = $("lanes");
  box.replaceChildren();
  const W = 80;
  const center = Math.max(0, selected);
  let a = Math.max(0, center - W / 2), b = Math.min(N - 1, a + W - 1);
  a = Math.max(0, b - W + 1);
  $("effects-window").textContent = N ? `steps #${S.seq[a]}–#${S.seq[b]}` : "";
  const span = Math.max(1, b - a + 1);
  const x = (index) => ((Math.min(Math.max(index, a - 0.5), b + 0.5) - a + 0.5) / span * 100);
  const axis = el("div", "axis"); const ticks = el("div", "ticks");
  ticks.append(el("span", "", "#" + (N ? S.seq[a] : 0)), el("span", "", "#" + (N ? S.seq[b] : 0)));
  axis.append(el("span", "", "effect"), ticks); box.append(axis);
  const shown = D.lifetimes.filter((l) => {
    const start = l.start < 0 ? -1 : l.start, end = l.end === null ? N : l.end;
    const first = Math.min(start < 0 ? a : start, ...l.stale, ...l.delivers);
    const lastIndex = Math.max(end, ...l.stale, ...l.delivers);
    return lastIndex >= a && first <= b;
  });
  if (!shown.length) box.append(el("div", "empty", "No effect runs around this step."));
  for (const l of shown) {
    const lane = el("div", "lane");
    lane.dataset.effect = l.id;
    const name = el("span", "lname", `#${l.id} ${l.feedback === "?" ? "(unknown)" : l.feedback}`);
    name.title = `#${l.id} ${l.feedback} ${short(l.request)}`;
    const track = el("div", "track");
    if (l.start !== -2) {
      const s = l.start < 0 ? a - 0.5 : l.start;
      const e = l.end === null ? b + 0.5 : l.end;
      if (e >= a && s <= b) {
        const bar = el("div", "bar" + (l.end === null ? " open-end" : ""));
        bar.style.left = x(s) + "%"; bar.style.width = Math.max(0.8, x(e) - x(s)) + "%"; bar.style.background = colorOf(l.feedback);
        bar.title = `#${l.id} ${l.feedback}: ${l.start < 0 ? "running before the trace" : "started at #" + S.seq[l.start]}` + (l.end === null ? ", still running" : `, ${l.endKind} at #${S.seq[l.end]}`);
        bar.addEventListener("click", () => select(l.start < 0 ? -1 : l.start));
        track.append(bar);
      }
    }
    const markAt = (index, cls, symbol, title) => {
      if (index < a || index > b) return;
      const m = el("span", "mark " + cls, symbol); m.style.left = x(index) + "%"; m.title = title; m.dataset.index = index;
      m.addEventListener("click", () => select(index)); track.append(m);
    };
    for (const d of l.delivers) markAt(d, "deliver", "●", `deliver at #${S.seq[d]}`);
    if (l.end !== null) markAt(l.end, l.endKind === "cancel" ? "cancel" : "complete", l.endKind === "cancel" ? "✕" : "✓", `${l.endKind} at #${S.seq[l.end]}`);
    for (const d of l.stale) markAt(d, "stale", "◆", `stale ${INPUTS[S.input[d]]} at #${S.seq[d]}`);
    if (selected >= a && selected <= b) { const c = el("div", "cursor"); c.style.left = x(selected) + "%"; track.append(c); }
    lane.append(name, track);
    box.append(lane);
  }
}

// ---- the state diagram ----
let diagramIndex = 0;
let exportKind = null;
function renderDiagram() {
  const box = $("diagram");
  box.replaceChildren();
  const d = D.diagrams[diagramIndex];
  if (!d) { box.append(el("div", "empty", "Nothing to draw: no query was recorded and the state has no enum-like member.")); return; }
  const labels = d.labels;
  const counts = new Array(labels.length).fill(0);
  for (const v of d.series) counts[v]++;
  const edges = new Map();
  for (let k = 1; k < d.series.length; k++) {
    if (d.series[k] === d.series[k - 1]) continue;
    const key = d.series[k - 1] + ">" + d.series[k];
    if (!edges.has(key)) edges.set(key, { from: d.series[k - 1], to: d.series[k], events: new Map(), steps: [] });
    const e = edges.get(key), name = D.names[S.name[k - 1]];
    e.events.set(name, (e.events.get(name) || 0) + 1); e.steps.push(k - 1);
  }
  const n = labels.length;
  const widths = labels.map((l) => Math.max(70, Math.min(220, 7.4 * (l.length + String(counts[labels.indexOf(l)]).length + 3) + 16)));
  const R = n <= 1 ? 0 : Math.max(90, n * 34);
  const W = 2 * R + Math.max(...widths) + 60, H = 2 * R + 80;
  const pos = labels.map((_, k) => n === 1 ? [W / 2, H / 2] : [W / 2 + R * Math.cos(-Math.PI / 2 + 2 * Math.PI * k / n), H / 2 + R * Math.sin(-Math.PI / 2 + 2 * Math.PI * k / n)]);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("width", W); svg.setAttribute("height", H); svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.innerHTML = '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#98a3b8"/></marker>' +
    '<marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#3867d6"/></marker></defs>';
  const currentNode = d.series[selected + 1];
  const placed = [];
  for (const e of edges.values()) {
    const [x1, y1] = pos[e.from], [x2, y2] = pos[e.to];
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len, ny = dx / len, bend = 26;
    const mx = (x1 + x2) / 2 + nx * bend, my = (y1 + y2) / 2 + ny * bend;
    const trim = (x, y, tx, ty, w) => { const ex = tx - x, ey = ty - y, l = Math.hypot(ex, ey) || 1; const t = Math.min((w / 2) / Math.abs(ex / l || 1e-9), 16 / Math.abs(ey / l || 1e-9)); return [x + ex / l * t, y + ey / l * t]; };
    const [sx, sy] = trim(x1, y1, mx, my, widths[e.from]);
    const [tx, ty] = trim(x2, y2, mx, my, widths[e.to]);
    const g = document.createElementNS(NS, "g");
    const taken = e.steps.includes(selected);
    g.setAttribute("class", "edge" + (taken ? " taken" : ""));
    g.dataset.from = labels[e.from]; g.dataset.to = labels[e.to];
    g.dataset.events = JSON.stringify([...e.events.entries()]);
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", `M${sx},${sy} Q${mx},${my} ${tx},${ty}`);
    path.setAttribute("marker-end", taken ? "url(#arrow-taken)" : "url(#arrow)");
    g.append(path);
    const lines = [...e.events.entries()].map(([name, c]) => `${name} ×${c}`);
    // Labels sit on the outer side of the curve, so the two directions between a pair never
    // overlap; a label that would cover one already placed moves down until it is clear.
    const anchor = Math.abs(nx) < 0.3 ? "middle" : (nx > 0 ? "start" : "end");
    const shown = lines.length > 4 ? [...lines.slice(0, 3), `+${lines.length - 3} more`] : lines;
    const lx = (x1 + x2) / 2 + nx * (bend / 2 + 8);
    let top = (y1 + y2) / 2 + ny * (bend / 2 + 8) - (ny < -0.3 ? (shown.length - 1) * 12 : (Math.abs(ny) <= 0.3 ? (shown.length - 1) * 6 : 0));
    const width = 6.6 * Math.max(...shown.map((l) => l.length));
    const left = anchor === "start" ? lx : (anchor === "end" ? lx - width : lx - width / 2);
    const labelBox = () => ({ x: left - 6, y: top - 9, w: width + 12, h: shown.length * 12 + 2 });
    const hits = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    for (let tries = 0; tries < 12 && placed.some((p) => hits(p, labelBox())); tries++) top += 12;
    placed.push(labelBox());
    shown.forEach((line, k) => {
      const t = document.createElementNS(NS, "text");
      t.setAttribute("x", lx); t.setAttribute("y", top + k * 12 + 4);
      t.setAttribute("text-anchor", anchor); t.textContent = line; g.append(t);
    });
    g.addEventListener("click", () => select(e.steps[0]));
    svg.append(g);
  }
  labels.forEach((label, k) => {
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "node" + (k === currentNode ? " current" : ""));
    g.dataset.label = label; g.dataset.count = counts[k];
    const [cx, cy] = pos[k], w = widths[k];
    const r = document.createElementNS(NS, "rect");
    r.setAttribute("x", cx - w / 2); r.setAttribute("y", cy - 15); r.setAttribute("width", w); r.setAttribute("height", 30); r.setAttribute("rx", 14);
    const t = document.createElementNS(NS, "text");
    t.setAttribute("x", cx); t.setAttribute("y", cy + 4); t.setAttribute("text-anchor", "middle");
    t.textContent = label;
    const c = document.createElementNS(NS, "tspan"); c.setAttribute("class", "count"); c.textContent = `  ${counts[k]}`;
    t.append(c);
    g.append(r, t);
    g.addEventListener("click", () => { const at = d.series.indexOf(k, selected + 2); select((at >= 0 ? at : d.series.indexOf(k)) - 1); });
    svg.append(g);
  });
  box.append(svg);
  if (exportKind) showExport(exportKind);
}
function showExport(kind) {
  exportKind = kind;
  const d = D.diagrams[diagramIndex];
  if (!d) return;
  const text = kind === "dot" ? d.dot : d.mermaid;
  $("export").style.display = "block";
  $("export-text").textContent = text;   // the DOM carries it too, for tools that read the page
  $("export-text").value = text;
  const link = $("export-download");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = `${D.meta.feature}-${d.title.replace(/[^A-Za-z0-9_-]+/g, "_")}.${kind === "dot" ? "dot" : "mmd"}`;
  link.textContent = "download " + link.download;
}

// ---- selection ----
function select(index) {
  const t = performance.now();
  index = Math.max(-1, Math.min(N - 1, index));
  selected = index;
  // The state before the step, then its change applied op by op, keeping what each
  // operation replaced or removed for the change table.
  let state = stateAfter(index - 1);
  const olds = [];
  if (index >= 0) {
    S.patch[index].forEach((op, k) => {
      if (k < 200) olds.push(op.op === "add" ? undefined : clone(lookup(state, op.path)));
      state = applyOp(state, op);
    });
  }
  last = { index, state };
  current.index = index;
  current.state = state;
  current.marks = changedPaths(index);
  revealChanges(current.marks);
  renderDetail(index, olds);
  renderState(true);
  renderRows();
  scrollToSelected();
  renderEffects();
  renderDiagram();
  const seq = index < 0 ? 0 : S.seq[index];
  // How long the last selection took to draw (ms), for docs/inspector.md's figures.
  document.body.dataset.selectMs = (performance.now() - t).toFixed(1);
  if (history.replaceState) { try { history.replaceState(null, "", "#select=" + seq); } catch (e) { /* file:// in some browsers */ } }
}
function move(delta) {
  if (!view.length) return;
  let r = view.indexOf(selected);
  if (r < 0) r = delta > 0 ? -1 : view.length;
  select(view[Math.max(0, Math.min(view.length - 1, r + delta))]);
}
function nextWhere(test) {
  for (let k = 1; k <= N; k++) { const i = (selected + k + N) % N; if (test(i)) { select(i); return; } }
}

// ---- start ----
function start() {
  $("title").textContent = `${D.meta.feature} inspector`;
  $("source").textContent = D.meta.source + (D.meta.kind === "journal" ? " (journal, replayed)" : "");
  const chips = $("chips");
  const stale = [], errors = [];
  for (let i = 0; i < N; i++) { if (statusOf(i) === "stale") stale.push(i); else if (isError(i)) errors.push(i); }
  chips.append(el("span", "chip", `${N} steps`), el("span", "chip", `${D.lifetimes.length} effects`));
  if (stale.length) { const c = el("span", "chip stale", `${stale.length} stale`); c.title = "show the next stale input"; c.addEventListener("click", () => nextWhere((i) => statusOf(i) === "stale")); chips.append(c); }
  if (errors.length) { const c = el("span", "chip error", `${errors.length} refused`); c.addEventListener("click", () => nextWhere(isError)); chips.append(c); }
  if (D.meta.problems.length) {
    const c = el("span", "chip problem", `${D.meta.problems.length} unreadable line${D.meta.problems.length === 1 ? "" : "s"}`);
    const box = $("problems"); for (const p of D.meta.problems) box.append(el("div", "", p));
    c.addEventListener("click", () => { box.style.display = box.style.display === "block" ? "none" : "block"; });
    chips.append(c);
  }
  for (const name of D.names) $("filter-event").append(new Option(name, name));
  for (const fb of D.feedbacks) $("filter-feedback").append(new Option(fb, fb));
  D.diagrams.forEach((d, k) => $("diagram-of").append(new Option(d.of.startsWith("query:") ? "query " + d.title : "state " + d.title, k)));
  for (const id of ["filter-event", "filter-feedback", "filter-status"]) $(id).addEventListener("change", () => { applyFilters(); scrollToSelected(); });
  $("diagram-of").addEventListener("change", (e) => { diagramIndex = +e.target.value; renderDiagram(); });
  $("show-dot").addEventListener("click", () => showExport("dot"));
  $("show-mermaid").addEventListener("click", () => showExport("mermaid"));
  $("export-close").addEventListener("click", () => { exportKind = null; $("export").style.display = "none"; });
  $("export-copy").addEventListener("click", () => { $("export-text").select(); document.execCommand("copy"); });
  $("goto").addEventListener("change", (e) => { const seq = +e.target.value; if (seq === 0) select(-1); else { const i = S.seq.indexOf(seq); if (i >= 0) select(i); } });
  $("expand-all").addEventListener("click", () => { opened = new Set([""]); closed = new Set(); pages.clear(); revealChanges(current.marks); renderState(); });
  $("timeline").addEventListener("scroll", renderRows);
  window.addEventListener("resize", renderRows);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowDown" || e.key === "j") { move(1); e.preventDefault(); }
    else if (e.key === "ArrowUp" || e.key === "k") { move(-1); e.preventDefault(); }
    else if (e.key === "Home") { select(-1); e.preventDefault(); }
    else if (e.key === "End") { select(N - 1); e.preventDefault(); }
    else if (e.key === "s" || e.key === "S") nextWhere((i) => statusOf(i) === "stale");
    else if (e.key === "e" || e.key === "E") nextWhere(isError);
  });
  // The address may say what to show: #select=SEQ&event=NAME&feedback=NAME&status=stale&diagram=K&export=dot
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("event")) $("filter-event").value = params.get("event");
  if (params.get("feedback")) $("filter-feedback").value = params.get("feedback");
  if (params.get("status")) $("filter-status").value = params.get("status");
  if (params.get("diagram")) { diagramIndex = +params.get("diagram"); $("diagram-of").value = diagramIndex; }
  if (params.get("export")) exportKind = params.get("export");
  applyFilters();
  const seq = params.has("select") ? +params.get("select") : (N ? S.seq[0] : 0);
  const index = seq === 0 ? -1 : S.seq.indexOf(seq);
  select(index < 0 && seq !== 0 ? (N ? 0 : -1) : index);
  document.body.dataset.loadMs = (performance.now() - T0).toFixed(1);
  document.body.dataset.ready = "1";
}
start();
</script>
</body>
</html>
"""
