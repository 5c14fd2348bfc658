// The timeline page's HTML, CSS and JavaScript (no library, no network): a canvas
// redrawn on zoom (wheel), pan (drag) and resize; only the ops that overlap the
// view are drawn, found per lane by binary search on invocation time, so that 10^5
// operations stay smooth. window.gpulin exposes the page's state to tests.
#include <string>

#include "render/page.h"

namespace gpulin::render {

namespace {

constexpr const char* kHead = R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>gpulin timeline</title>
<style>
body { font: 13px system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 8px 12px; border-bottom: 1px solid #ccc; }
header h1 { font-size: 15px; margin: 0 0 4px 0; }
#verdict.pass { color: #17702a; } #verdict.fail { color: #b3141b; } #verdict.undecided { color: #a15c00; }
#message, #notes, #note { white-space: pre-wrap; margin: 2px 0; } #note { font-weight: bold; }
#bar { padding: 4px 12px; display: flex; gap: 8px; align-items: center; border-bottom: 1px solid #eee; }
#wrap { position: relative; }
canvas { display: block; width: 100%; cursor: grab; }
#tip { position: absolute; pointer-events: none; background: #fffbe6; border: 1px solid #c9b458; padding: 4px 6px;
  max-width: 520px; white-space: pre-wrap; font: 12px ui-monospace, monospace; display: none; }
#details { padding: 8px 12px; border-top: 1px solid #ccc; font: 12px ui-monospace, monospace; white-space: pre-wrap; min-height: 4em; }
.legend span { display: inline-block; margin-right: 10px; }
.sw { display: inline-block; width: 12px; height: 10px; vertical-align: middle; margin-right: 3px; }
</style></head><body>
<header><h1 id="title"></h1>
<div><b id="verdict"></b> <span id="method"></span> <span id="counts"></span></div>
<div id="note"></div><div id="message"></div><div id="notes"></div>
<div class="legend"><span><i class="sw" style="background:#8fb3d9"></i>operation</span>
<span><i class="sw" style="background:#9fd49f"></i>in the longest linearizable prefix</span>
<span><i class="sw" style="background:#f2a7a7"></i>failing window</span>
<span><i class="sw" style="background:#555"></i>lock hold (node)</span>
<span><i class="sw" style="background:#d4570b"></i>linearization point, joined in order</span>
<span style="color:#b3141b"><b>&#x2715;</b> where the replay fails</span></div>
</header>
<div id="bar"><button id="fit">fit</button><button id="gofail">go to the failure</button>
<span>wheel: zoom, drag: pan, click an operation for its details</span></div>
<div id="wrap"><canvas id="c"></canvas><div id="tip"></div></div>
<div id="details">Click an operation.</div>
<script id="data" type="application/json">)HTML";

constexpr const char* kTail = R"HTML(</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
// Times are kept less t0 (exact in doubles); shown as the history's tickets.
const T0 = Number(D.t0), abs = t => Math.round((t + T0) * 100) / 100;
const LANE = 36, TOP = 24, LEFT = 70;
const ops = D.ops.map((o, i) => ({i, id: o[0], lane: o[1], f: o[2], args: o[3], res: o[4], inv: o[5], ret: o[6],
  holds: [], point: -1}));
let tMax = 1;
for (const o of ops) tMax = Math.max(tMax, o.inv, o.ret);
for (const h of D.holds) { ops[h[0]].holds.push({node: h[1], acq: h[2], rel: h[3]}); tMax = Math.max(tMax, h[2], h[3]); }
// The run's marks under ptx: stale reads (from the store read to the load) and a race.
const marks = D.marks.map(m => ({race: m[0] === 1, from: m[1], ft: m[2], to: m[3], tt: m[4], text: m[5]}));
for (const m of marks) tMax = Math.max(tMax, m.ft, m.tt);
const end = o => (o.ret < 0 ? tMax : o.ret);
D.points.forEach((p, k) => { ops[p[0]].point = k; });
const inWindow = new Set(D.window), inPrefix = new Set(D.prefix);
const lanes = D.actors.map(() => []);
for (const o of ops) lanes[o.lane].push(o);
const maxDur = lanes.map(l => l.reduce((m, o) => Math.max(m, end(o) - o.inv), 0));
const canvas = document.getElementById("c"), ctx = canvas.getContext("2d");
const tip = document.getElementById("tip"), details = document.getElementById("details");
let view = {t0: 0, t1: tMax * 1.02 + 1}, W = 0, H = 0, selected = -1;
const text = (id, s) => { document.getElementById(id).textContent = s; };
text("title", D.title || "gpulin timeline");
const vd = document.getElementById("verdict");
vd.textContent = D.verdict; vd.className = D.verdict === "linearizable" ? "pass" : D.verdict === "undecided" ? "undecided" : "fail";
text("method", "(" + D.method + ", model " + D.model + (D.rule ? ", lp_rule " + D.rule : "") + ")");
const races = marks.filter(m => m.race).length;
text("counts", ops.length + " of " + D.total_ops + " operations shown, " + D.actors.length + " actors, " +
  D.points.length + " points" + (marks.length ? ", " + (marks.length - races) + " stale reads" : "") +
  (races ? ", a data race (red)" : ""));
text("note", D.note); text("message", D.message); text("notes", D.notes);
const x = t => LEFT + (t - view.t0) / (view.t1 - view.t0) * (W - LEFT - 10);
const tAt = px => view.t0 + (px - LEFT) / (W - LEFT - 10) * (view.t1 - view.t0);
function resize() {
  const dpr = window.devicePixelRatio || 1;
  W = canvas.parentElement.clientWidth; H = TOP + LANE * Math.max(1, lanes.length) + 10;
  canvas.width = W * dpr; canvas.height = H * dpr; canvas.style.height = H + "px";
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0); draw();
}
// The ops of lane l that overlap [a, b]: those invoked in [a - maxDur[l], b].
function visible(l, a, b) {
  const L = lanes[l]; let lo = 0, hi = L.length; const from = a - maxDur[l];
  while (lo < hi) { const m = (lo + hi) >> 1; if (L[m].inv < from) lo = m + 1; else hi = m; }
  const out = [];
  for (let k = lo; k < L.length && L[k].inv <= b; ++k) if (end(L[k]) >= a) out.push(L[k]);
  return out;
}
function draw() {
  ctx.clearRect(0, 0, W, H);
  ctx.font = "11px system-ui"; ctx.fillStyle = "#666";
  for (let k = 0; k <= 8; ++k) {
    const t = view.t0 + (view.t1 - view.t0) * k / 8, px = x(t);
    ctx.fillText(Math.round(t + T0).toString(), px + 2, 12); ctx.fillStyle = "#eee"; ctx.fillRect(px, 16, 1, H); ctx.fillStyle = "#666";
  }
  if (D.window.length) {
    let a = Infinity, b = -Infinity;
    for (const i of D.window) { a = Math.min(a, ops[i].inv); b = Math.max(b, end(ops[i])); }
    ctx.fillStyle = "rgba(242,167,167,0.25)"; ctx.fillRect(x(a), TOP - 4, Math.max(2, x(b) - x(a)), H - TOP);
  }
  // Dense lanes' runs, one path a colour for all lanes (one fill each, not one a run).
  densePaths = COLORS.map(() => new Path2D()); denseOutlines = [];
  lanes.forEach((L, l) => {
    const y = TOP + l * LANE;
    ctx.fillStyle = "#333"; ctx.fillText("actor " + D.actors[l], 4, y + 17);
    const vis = visible(l, view.t0, view.t1);
    if (vis.length > (W - LEFT) / 2) { drawDense(vis, y); return; }
    for (const o of vis) {
      const a = Math.max(x(o.inv), LEFT), b = Math.min(x(end(o)), W), w = Math.max(1, b - a);
      ctx.fillStyle = inWindow.has(o.i) ? "#f2a7a7" : inPrefix.has(o.i) ? "#9fd49f" : "#8fb3d9";
      ctx.fillRect(a, y + 4, w, LANE - 8);
      if (o.ret < 0) { ctx.strokeStyle = "#333"; ctx.setLineDash([4, 3]); ctx.strokeRect(a, y + 4, w, LANE - 8); ctx.setLineDash([]); }
      if (o.i === D.failing || o.i === selected) { ctx.strokeStyle = o.i === D.failing ? "#b3141b" : "#000"; ctx.lineWidth = 2;
        ctx.strokeRect(a, y + 4, w, LANE - 8); ctx.lineWidth = 1; }
      if (w < 3) continue;  // too narrow to show holds and labels: the bar alone
      for (const h of o.holds) {
        const ha = x(h.acq), hb = x(h.rel < 0 ? end(o) : h.rel);
        ctx.fillStyle = "#555"; ctx.fillRect(ha, y + LANE - 10, Math.max(1, hb - ha), 4);
        if (hb - ha > 24) { ctx.font = "9px system-ui"; ctx.fillStyle = "#222"; ctx.fillText("n" + h.node, ha + 2, y + LANE - 12);
          ctx.font = "11px system-ui"; }
      }
      if (w > 40) { ctx.fillStyle = "#111"; ctx.fillText(o.f + " #" + o.id, a + 3, y + 15); }
    }
  });
  let shown = 0;
  for (const p of D.points) if (p[1] >= view.t0 && p[1] <= view.t1 && ++shown > W) break;
  COLORS.forEach((c, k) => { ctx.fillStyle = c; ctx.fill(densePaths[k]); });
  for (const [o, y] of denseOutlines) {
    const a = Math.max(x(o.inv), LEFT), w = Math.max(2, Math.min(x(end(o)), W) - a);
    ctx.strokeStyle = o.i === D.failing ? "#b3141b" : "#000"; ctx.lineWidth = 2; ctx.strokeRect(a, y + 4, w, LANE - 8);
    ctx.lineWidth = 1;
  }
  // The points in order, joined where they can be followed (a point every eight pixels
  // across at most; zoom in to see the order of denser stretches): only the
  // stretch inside the view (plus one each side); consecutive points in one pixel
  // column of one lane make one vertex.
  if (shown <= W / 8) {
    ctx.strokeStyle = "#d4570b"; ctx.beginPath();
    let started = false, lastX = -1, lastY = -1;
    for (let k = 0; k < D.points.length; ++k) {
      const p = D.points[k], t = p[1];
      if (t < view.t0 && k + 1 < D.points.length && D.points[k + 1][1] < view.t0) continue;
      const px = Math.round(x(t)), py = TOP + ops[p[0]].lane * LANE + 9;
      if (!started) { ctx.moveTo(px, py); started = true; }
      else if (px !== lastX || py !== lastY) ctx.lineTo(px, py);
      lastX = px; lastY = py;
      if (t > view.t1) break;
    }
    ctx.stroke();
  }
  // Diamonds where they can be told apart; where there are more points in view than
  // pixels across, the pixel columns holding a point, lane by lane, drawn as runs.
  ctx.fillStyle = "#d4570b";
  if (shown > W) {
    const n = Math.ceil(W) + 1, marks = lanes.map(() => new Uint8Array(n + 1));
    for (const p of D.points)
      if (p[1] >= view.t0 && p[1] <= view.t1) marks[ops[p[0]].lane][Math.min(n, Math.max(0, Math.round(x(p[1]))))] = 1;
    marks.forEach((m, l) => {
      const py = TOP + l * LANE + 9;
      for (let px = 0, start = -1; px <= n; ++px) {
        if (m[px] && start < 0) start = px;
        else if (!m[px] && start >= 0) { ctx.fillRect(start - 1, py - 1, px - start + 1, 2); start = -1; }
      }
    });
  } else {
    ctx.beginPath();
    for (const p of D.points) {
      if (p[1] < view.t0 || p[1] > view.t1) continue;
      const px = x(p[1]), py = TOP + ops[p[0]].lane * LANE + 9;
      ctx.moveTo(px, py - 4); ctx.lineTo(px + 4, py); ctx.lineTo(px, py + 4); ctx.lineTo(px - 4, py); ctx.closePath();
    }
    ctx.fill();
  }
  // The marks: a stale read's read-from edge dashed orange from the store to the
  // load, a race red from the earlier access to the later; a dot at the later end.
  for (const m of marks) {
    const y0 = TOP + ops[m.from].lane * LANE + LANE / 2, y1 = TOP + ops[m.to].lane * LANE + LANE / 2;
    ctx.strokeStyle = ctx.fillStyle = m.race ? "#b3141b" : "#e08a00";
    ctx.lineWidth = m.race ? 2 : 1.5; ctx.setLineDash(m.race ? [] : [5, 3]);
    ctx.beginPath(); ctx.moveTo(x(m.ft), y0); ctx.lineTo(x(m.tt), y1); ctx.stroke(); ctx.setLineDash([]);
    ctx.beginPath(); ctx.arc(x(m.tt), y1, 3, 0, 2 * Math.PI); ctx.fill(); ctx.lineWidth = 1;
  }
  // Where the rule's replay fails: a red cross at the failing op's point.
  if (D.fail_t >= 0 && D.failing >= 0 && D.fail_t >= view.t0 && D.fail_t <= view.t1) {
    const px = x(D.fail_t), py = TOP + ops[D.failing].lane * LANE + 9;
    ctx.strokeStyle = "#b3141b"; ctx.lineWidth = 2; ctx.beginPath();
    ctx.moveTo(px - 5, py - 5); ctx.lineTo(px + 5, py + 5); ctx.moveTo(px + 5, py - 5); ctx.lineTo(px - 5, py + 5); ctx.stroke();
    ctx.lineWidth = 1;
  }
}
// A lane with more ops in view than pixels across: each colour's coverage of every
// pixel column (difference arrays, so a long op costs as little as a short one),
// drawn as runs, later colours on top; the failing and selected ops outlined.
const COLORS = ["#8fb3d9", "#9fd49f", "#f2a7a7"];
let densePaths = [], denseOutlines = [];
function drawDense(vis, y) {
  const n = Math.ceil(W) + 2, cover = COLORS.map(() => new Int32Array(n + 1));
  for (const o of vis) {
    const a = Math.max(0, Math.floor(Math.max(x(o.inv), LEFT))), b = Math.min(n, Math.ceil(Math.min(x(end(o)), W)));
    const c = inWindow.has(o.i) ? 2 : inPrefix.has(o.i) ? 1 : 0;
    cover[c][a]++; cover[c][Math.max(a + 1, b)]--;
  }
  cover.forEach((d, c) => {
    let run = 0, start = -1;
    for (let px = 0; px <= n; ++px) {
      run += d[px];
      if (run > 0 && start < 0) start = px;
      else if (run <= 0 && start >= 0) { densePaths[c].rect(start, y + 4, px - start, LANE - 8); start = -1; }
    }
  });
  for (const o of vis) if (o.i === D.failing || o.i === selected) denseOutlines.push([o, y]);
}
function opAt(mx, my) {
  const l = Math.floor((my - TOP) / LANE);
  if (l < 0 || l >= lanes.length) return null;
  const t = tAt(mx), slack = (view.t1 - view.t0) / (W - LEFT) * 2;
  const c = visible(l, t - slack, t + slack);
  return c.length ? c[c.length - 1] : null;
}
function describe(o) {
  let s = "op " + o.id + " (actor " + D.actors[o.lane] + "): " + o.f + " " + o.args + " -> " + (o.res === null ? "pending" : o.res) +
    "\ninvoked " + abs(o.inv) + ", " + (o.ret < 0 ? "never returned" : "returned " + abs(o.ret));
  for (const h of o.holds) s += "\nholds node " + h.node + " from " + abs(h.acq) + " to " + (h.rel < 0 ? "the end (never released)" : abs(h.rel));
  if (o.point >= 0) s += "\nlinearization point " + (o.point + 1) + " of " + D.points.length + " at " + abs(D.points[o.point][1]) +
    "\nstate after it: " + D.points[o.point][2];
  else if (o.i === D.failing && D.fail_t >= 0) s += "\nits point at " + abs(D.fail_t) + ": the replay in the rule's order fails here";
  else s += "\nno linearization point";
  if (o.i === D.failing) s += "\nTHE FAILING OPERATION";
  if (inWindow.has(o.i)) s += "\nin the minimal failing window";
  if (inPrefix.has(o.i)) s += "\nin the longest linearizable prefix";
  for (const m of marks) if (m.from === o.i || m.to === o.i) s += "\n" + (m.race ? "RACE: " : "") + m.text;
  return s;
}
function select(i) { selected = i; details.textContent = i < 0 ? "Click an operation." : describe(ops[i]); draw(); }
let drag = null;
canvas.addEventListener("mousedown", e => { drag = {x: e.offsetX, t0: view.t0, t1: view.t1, moved: false}; });
window.addEventListener("mouseup", e => {
  if (drag && !drag.moved) { const o = opAt(e.offsetX, e.offsetY); select(o ? o.i : -1); }
  drag = null;
});
canvas.addEventListener("mousemove", e => {
  if (drag) {
    const dt = (e.offsetX - drag.x) / (W - LEFT - 10) * (drag.t1 - drag.t0);
    if (Math.abs(e.offsetX - drag.x) > 2) drag.moved = true;
    view.t0 = drag.t0 - dt; view.t1 = drag.t1 - dt; draw(); return;
  }
  const o = opAt(e.offsetX, e.offsetY);
  if (!o) { tip.style.display = "none"; return; }
  tip.textContent = describe(o); tip.style.display = "block";
  tip.style.left = Math.min(e.offsetX + 12, W - 530) + "px"; tip.style.top = (e.offsetY + 12) + "px";
});
canvas.addEventListener("mouseleave", () => { tip.style.display = "none"; });
canvas.addEventListener("wheel", e => {
  e.preventDefault();
  const t = tAt(e.offsetX), k = Math.exp(e.deltaY * 0.0015);
  view.t0 = t - (t - view.t0) * k; view.t1 = t + (view.t1 - t) * k;
  if (view.t1 - view.t0 < 1) view.t1 = view.t0 + 1;
  draw();
}, {passive: false});
function zoomTo(a, b) { const pad = (b - a) * 0.1 + 1; view = {t0: a - pad, t1: b + pad}; draw(); }
document.getElementById("fit").onclick = () => zoomTo(0, tMax);
document.getElementById("gofail").onclick = () => {
  const w = D.window.length ? D.window : D.failing >= 0 ? [D.failing] : [];
  if (!w.length) return;
  let a = Infinity, b = -Infinity;
  for (const i of w) { a = Math.min(a, ops[i].inv); b = Math.max(b, end(ops[i])); }
  zoomTo(a, b); if (D.failing >= 0) select(D.failing);
};
window.addEventListener("resize", resize);
resize();
if (D.window.length || D.failing >= 0) document.getElementById("gofail").onclick();
// For tests: the page's state and a way to click an operation by index.
window.gpulin = {ops: ops.length, points: D.points.length, window: D.window.length, lanes: lanes.length, marks: marks.length,
  select, selected: () => selected, details: () => details.textContent};
// page.html#selftest: the page checks itself as a user would - a real click (mouse
// events on the canvas, at the failing op's bar or the first op's) must show that
// op's details - and writes the outcome and its load time into #selftest, which
// headless Chromium's --dump-dom reads back (tests/render/browser_test.sh).
if (location.hash === "#selftest") {
  const loaded = performance.now();
  const r = {ops: ops.length, lanes: lanes.length, points: D.points.length, window: D.window.length, marks: marks.length,
    verdict: D.verdict, canvas: canvas.width > 0 && canvas.height > 0, load_ms: Math.round(loaded)};
  // The elements a reader needs, and the verdict shown as the data says.
  r.elements = ["title", "verdict", "message", "c", "details", "fit", "gofail"].every(id => document.getElementById(id)) &&
    document.getElementById("verdict").textContent === D.verdict;
  // Smoothness: the slowest of a fit, a zoom in and a pan (each one redraw).
  r.redraws_ms = [[0, tMax], [tMax * 0.4, tMax * 0.45], [tMax * 0.5, tMax * 0.502]].map(([a, b]) => {
    const t = performance.now(); zoomTo(a, b); return Math.round(performance.now() - t);
  });
  r.redraw_ms = Math.max(...r.redraws_ms);
  if (ops.length) {
    const o = ops[D.failing >= 0 ? D.failing : 0];
    zoomTo(o.inv, end(o));
    const rect = canvas.getBoundingClientRect();
    const px = (Math.max(x(o.inv), LEFT) + Math.min(x(end(o)), W)) / 2, py = TOP + o.lane * LANE + LANE / 2;
    const at = {bubbles: true, clientX: rect.left + px, clientY: rect.top + py};
    select(-1);
    canvas.dispatchEvent(new MouseEvent("mousedown", at));
    canvas.dispatchEvent(new MouseEvent("mouseup", at));
    r.clicked_op = o.id;
    r.details_shown = details.textContent.startsWith("op " + o.id + " ");
    r.details = details.textContent.split("\n")[0];
  }
  const out = document.createElement("pre");
  out.id = "selftest";
  out.textContent = "SELFTEST " + JSON.stringify(r);
  document.body.appendChild(out);
  // The scripts have run: without them --dump-dom returns kilobytes, not the data
  // embedded above (tens of megabytes for a large history, slow to serialise).
  for (const e of document.querySelectorAll("script")) e.remove();
}
</script></body></html>
)HTML";

}  // namespace

std::string timeline_page(const History& h, const Timeline& tl, const PageOptions& o) {
  std::string data = page_json(h, tl, o);
  // "</" inside the script element would end it: JSON allows "<\/" instead.
  std::string safe;
  safe.reserve(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    safe += data[i];
    if (data[i] == '<' && i + 1 < data.size() && data[i + 1] == '/') safe += '\\';
  }
  return std::string(kHead) + safe + kTail;
}

}  // namespace gpulin::render
