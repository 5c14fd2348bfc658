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
#stepper { border-top: 1px solid #ccc; padding: 4px 12px; } #stepbar { display: flex; gap: 4px; align-items: center; }
#s_range { flex: 1; } #s_pos { font: 12px ui-monospace, monospace; min-width: 34em; } .hint { color: #666; font-size: 11px; }
#state { overflow-x: auto; } #state svg { font: 11px ui-monospace, monospace; } #nostepper { padding: 2px 12px; color: #666; }
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
<div id="stepper" hidden><div id="stepbar"><button id="s_first" title="Home">|&lt;</button>
<button id="s_lpprev" title="L">&lt; lp</button><button id="s_opprev" title="shift+left">&lt; op</button>
<button id="s_prev" title="left">&lt;</button><button id="s_next" title="right">&gt;</button>
<button id="s_opnext" title="shift+right">op &gt;</button><button id="s_lpnext" title="l">lp &gt;</button>
<button id="s_last" title="End">&gt;|</button><button id="s_fail" title="f">failure</button>
<input id="s_range" type="range" min="0" value="0"> <span id="s_pos"></span></div>
<div class="hint">Step through the run: left/right a scheduling point, shift+left/right to an operation's invocation or
response, l / L the next / previous linearization point, f the failure, Home / End; page.html#point=N opens at point N.</div>
<div id="state"></div></div>
<div id="nostepper"></div>
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
vd.textContent = D.verdict_text || D.verdict; vd.className = D.verdict === "linearizable" ? "pass" : D.verdict === "undecided" ? "undecided" : "fail";
text("method", "(" + D.method + (D.model ? ", model " + D.model : "") + (D.rule ? ", lp_rule " + D.rule : "") + ")");
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
  drawCursor();
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
// The stepper (docs/architecture.md, "The stepper"): a simulated run's shared words
// at each scheduling point, decoded lazily (a state from its keyframe and the changes
// after it, or from the state shown when it is a few steps before), drawn by the
// structure's own function (its registry row's draw_js), the timeline's cursor at
// the history events recorded by then.
const ST = D.stepper;
let stepAt = -1;
const STN = ST ? ST.actor.length : 0;
const stepEv = new Float64Array(STN), chgOff = new Uint32Array(STN + 1), regionOff = [];
let stepWords = null, wordsAt = -1, drawState = null, opMarks = [], lpMarks = [];
if (ST) {
  for (let p = 0, e = 0; p < STN; ++p) { e += ST.ev[p]; stepEv[p] = e; }
  for (let p = 1; p < STN; ++p) chgOff[p] = chgOff[p - 1] + ST.nchg[p - 1];
  for (let i = 0, o = 0; i < ST.regions.length; o += ST.regions[i++]) regionOff.push(o);
  drawState = Function('"use strict"; return (' + ST.draw + "\n);")();
  for (const o of ops) { opMarks.push(o.inv); if (o.ret >= 0) opMarks.push(o.ret); }
  for (const p of D.points) lpMarks.push(p[1]);
  opMarks.sort((a, b) => a - b); lpMarks.sort((a, b) => a - b);
}
// Where state p sits on the timeline: after the events recorded by then.
const cursorT = p => stepEv[p] + 0.5 - T0;
// Keyframe k's words: runs of equal words come as -n, v.
function keyframe(k) {
  const src = ST.keys[k], w = new Uint32Array(regionOff.length ? regionOff[regionOff.length - 1] + ST.regions[ST.regions.length - 1] : 0);
  for (let i = 0, o = 0; i < src.length; ++i) {
    if (src[i] < 0) { w.fill(src[i + 1], o, o - src[i]); o -= src[i]; ++i; } else w[o++] = src[i];
  }
  return w;
}
function wordsOf(p) {
  const K = ST.every;
  let from;
  if (wordsAt >= 0 && p >= wordsAt && p - wordsAt <= K) from = wordsAt;
  else { from = Math.floor(p / K) * K; stepWords = keyframe(from / K); }
  for (let q = from + 1; q <= p; ++q)
    for (let i = chgOff[q - 1]; i < chgOff[q]; ++i) stepWords[ST.chg[2 * i]] = ST.chg[2 * i + 1];
  wordsAt = p;
  return stepWords;
}
// FNV-1a over the words' bytes: what gpulin replay --state-at prints.
function digest(w) {
  let h = 2166136261;
  for (const v of w) for (let b = 0; b < 4; ++b) h = Math.imul(h ^ ((v >>> (8 * b)) & 255), 16777619) >>> 0;
  return h.toString(16).padStart(8, "0");
}
// Which actor holds each node at time t (the history's lock holds).
function holdersAt(t) {
  const m = {};
  for (const o of ops) for (const h of o.holds) if (h.acq <= t && (h.rel < 0 || h.rel > t)) m[h.node] = D.actors[o.lane];
  return m;
}
// `follow`: pan the timeline to the cursor when it is out of view (not when the page
// opens without a point: it opens on the failure, as without a stepper).
function stepTo(p, follow = true) {
  if (!ST) return;
  p = Math.max(0, Math.min(STN - 1, p));
  stepAt = p;
  const w = wordsOf(p), r = {};
  (ST.layout.regions || []).forEach((name, i) => { if (i < ST.regions.length) r[name] = w.subarray(regionOff[i], regionOff[i] + ST.regions[i]); });
  const t = cursorT(p);
  let svg;
  try { svg = drawState({layout: ST.layout, words: w, r, point: p, actor: ST.actor[p], events: stepEv[p], holders: holdersAt(t)}); }
  catch (e) { svg = "<pre>drawing failed: " + String(e).replace(/</g, "&lt;") + "</pre>"; }
  document.getElementById("state").innerHTML = svg;
  document.getElementById("s_range").value = p;
  text("s_pos", "point " + p + " of " + (STN - 1) + (p === STN - 1 ? " (the run's end: " + ST.outcome + ")" : ", actor " + ST.actor[p] + " at it") +
    ", " + stepEv[p] + " events recorded");
  if (follow && (t < view.t0 || t > view.t1)) { const half = (view.t1 - view.t0) / 2; view.t0 = t - half; view.t1 = t + half; }
  draw();
  if (!location.hash.startsWith("#selftest")) history.replaceState(null, "", "#point=" + p);
}
function drawCursor() {
  if (stepAt < 0) return;
  const px = x(cursorT(stepAt));
  ctx.strokeStyle = "#1f5fd1"; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(px, TOP - 8); ctx.lineTo(px, H); ctx.stroke(); ctx.lineWidth = 1;
}
// The first state past time t (right after the event there); the last when none.
function firstPast(t) {
  let lo = 0, hi = STN - 1;
  while (lo < hi) { const m = (lo + hi) >> 1; if (cursorT(m) > t) hi = m; else lo = m + 1; }
  return lo;
}
// To the next mark (an invocation or response, a linearization point) after the
// cursor, or back to the one before the state before it.
function toMark(marks, dir) {
  if (dir > 0) {
    const t = cursorT(stepAt);
    const b = marks.find(m => m > t);
    if (b !== undefined) stepTo(firstPast(b));
    return;
  }
  if (stepAt <= 0) return;
  const t = cursorT(stepAt - 1);
  let b;
  for (const m of marks) if (m < t) b = m; else break;
  stepTo(b === undefined ? 0 : firstPast(b));
}
function toFailure() {
  if (D.fail_t >= 0) return stepTo(firstPast(D.fail_t));
  if (D.failing >= 0) { const o = ops[D.failing]; return stepTo(firstPast(o.ret >= 0 ? o.ret : o.inv)); }
  if (ST.outcome !== "completed") stepTo(STN - 1);
}
const stepKeys = {ArrowRight: e => e.shiftKey ? toMark(opMarks, 1) : stepTo(stepAt + 1),
  ArrowLeft: e => e.shiftKey ? toMark(opMarks, -1) : stepTo(stepAt - 1),
  l: () => toMark(lpMarks, 1), L: () => toMark(lpMarks, -1), f: () => toFailure(), Home: () => stepTo(0), End: () => stepTo(STN - 1)};
if (ST) {
  document.getElementById("stepper").hidden = false;
  const range = document.getElementById("s_range");
  range.max = STN - 1; range.oninput = () => stepTo(Number(range.value));
  const on = (id, f) => { document.getElementById(id).onclick = f; };
  on("s_first", () => stepTo(0)); on("s_last", () => stepTo(STN - 1)); on("s_prev", () => stepTo(stepAt - 1));
  on("s_next", () => stepTo(stepAt + 1)); on("s_opprev", () => toMark(opMarks, -1)); on("s_opnext", () => toMark(opMarks, 1));
  on("s_lpprev", () => toMark(lpMarks, -1)); on("s_lpnext", () => toMark(lpMarks, 1)); on("s_fail", toFailure);
  document.addEventListener("keydown", e => {
    const f = stepKeys[e.key];
    if (!f || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault(); f(e);
  });
} else text("nostepper", D.no_stepper);
const hashArgs = new URLSearchParams(location.hash.slice(1));
window.addEventListener("resize", resize);
resize();
if (D.window.length || D.failing >= 0) document.getElementById("gofail").onclick();
// After the failure's zoom: a point asked for outside it pans the view to the cursor.
if (ST) stepTo(hashArgs.has("point") ? Number(hashArgs.get("point")) : 0, hashArgs.has("point"));
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
// page.html#selftest-stepper[&point=N]: the stepper checks itself as a user would -
// keys pressed on the page (forward, back, by operation, by linearization point, to
// the failure and the end, and a jump then a step back) - and writes each state it
// lands on and its words' digest ("LANDED label point digest"), which
// tests/render/browser_test.sh compares with `gpulin replay --state-at` (a fresh
// replay stopped there), and the time a step takes.
if (hashArgs.has("selftest-stepper")) {
  const lines = [];
  const land = label => lines.push("LANDED " + label + " " + stepAt + " " + digest(wordsOf(stepAt)));
  const key = (k, shift) => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, shiftKey: !!shift, bubbles: true}));
  const r = {states: STN, opened_at: stepAt, drawn: false};
  if (ST) {
    land("opened");
    key("Home");
    const fwd = Math.min(STN - 1, Number(hashArgs.get("steps") || 200)), back = Math.floor(fwd / 3) + 1;
    let t = performance.now();
    for (let i = 0; i < fwd; ++i) key("ArrowRight");
    r.forward_step_ms = (performance.now() - t) / Math.max(1, fwd);
    land("forward");
    t = performance.now();
    for (let i = 0; i < back; ++i) key("ArrowLeft");
    r.back_step_ms = (performance.now() - t) / back;
    land("back");
    key("ArrowRight", true); land("next-op");
    key("ArrowRight", true); key("ArrowLeft", true); land("prev-op");
    key("l"); land("next-lp");
    key("l"); key("L"); land("prev-lp");
    key("f"); land("failure");
    key("End"); land("end");
    stepTo(Math.floor(STN * 0.61)); key("ArrowLeft"); land("jump-back");
    const svg = document.querySelector("#state svg");
    r.drawn = !!svg && svg.childElementCount > 0;
    r.step_ms = Math.max(r.forward_step_ms, r.back_step_ms).toFixed(3);
  } else r.no_stepper = D.no_stepper;
  const out = document.createElement("pre");
  out.id = "selftest";
  out.textContent = "SELFTEST-STEPPER " + JSON.stringify(r) + "\n" + lines.join("\n");
  document.body.appendChild(out);
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
