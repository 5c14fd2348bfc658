// The stepper's drawing of a generalized heap (tools/registry/structure_row.h,
// draw_js): its tree, each node's lock state (the low three bits of its word; the
// root's counts its holds above them), the actor holding it (the history's holds)
// and its batch of k keys; the node count (lastelem) and the partial buffer.
(S) => {
  const k = S.layout.k, st = S.r.state, keys = S.r.keys, last = S.r.lastelem[0], psize = S.r.psize[0];
  const names = ["AVAIL", "INUSE", "TARGET", "MARKED", "INSHOLD", "DELMOD"];
  const fill = ["#fff", "#f6c48f", "#f7e08a", "#d7b8f0", "#a8dca8", "#f2a7a7"];
  const EMPTY = 0xffffffff;
  const batch = (from, n) => { const out = []; for (let i = 0; i < n; ++i) if (keys[from + i] !== EMPTY) out.push(keys[from + i]); return out; };
  // Nodes 1 .. the level below the last full node's (at most 63), so a node being filled shows.
  const cap = st.length - 1;
  let shown = 1;
  while (shown < Math.min(cap, last + 1)) shown = shown * 2 + 1;
  shown = Math.min(cap, shown, 63);
  const levels = Math.floor(Math.log2(shown)) + 1, BW = Math.max(70, 16 + 22 * k), BH = 38;
  const width = Math.max(780, (1 << (levels - 1)) * (BW + 8) + 20), height = levels * (BH + 26) + 50;
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`;
  const pos = i => { const d = Math.floor(Math.log2(i)), n = 1 << d, j = i - n;
    return [10 + (j + 0.5) * (width - 20) / n, 10 + d * (BH + 26)]; };
  for (let i = 2; i <= shown; ++i) { const [x0, y0] = pos(i >> 1), [x1, y1] = pos(i);
    s += `<line x1="${x0}" y1="${y0 + BH}" x2="${x1}" y2="${y1}" stroke="#999"/>`; }
  for (let i = 1; i <= shown; ++i) {
    const [cx, y] = pos(i), w = st[i], state = w & 7, holder = S.holders[i];
    s += `<rect x="${cx - BW / 2}" y="${y}" width="${BW}" height="${BH}" rx="4" fill="${fill[state] || "#ccc"}" ` +
      `stroke="${i <= last ? "#333" : "#bbb"}" stroke-width="${holder !== undefined ? 2.5 : 1}"/>`;
    s += `<text x="${cx - BW / 2 + 4}" y="${y + 13}">${i}: ${names[state] || state}${holder !== undefined ? " a" + holder : ""}</text>`;
    s += `<text x="${cx - BW / 2 + 4}" y="${y + 29}">${batch(i * k, k).join(" ") || "-"}</text>`;
  }
  s += `<text x="10" y="${height - 26}">full nodes (lastelem): ${last}; partial buffer (${psize}): ` +
    `${Array.from(S.r.pbuffer).filter(v => v !== EMPTY).join(" ") || "-"}</text>`;
  s += `<text x="10" y="${height - 10}">AVAIL white, INUSE orange, TARGET yellow, MARKED purple, INSHOLD green, ` +
    `DELMOD red; a thick border: held by actor a</text>`;
  return s + "</svg>";
}
