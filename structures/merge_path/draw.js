// The stepper's drawing of GPU merge path: the two sorted inputs A and B with the
// windows' partition - window w takes A[split(w), split(w+1)) and B from diagonal
// w * tile less split(w), coloured by window, once a search warp published its
// batch's splits (a flag a batch) - the copy warps' next window and the search
// warps' next batch, and the output written so far.
(S) => {
  const L = S.layout, sc = S.r.scratch, A = S.r.a, B = S.r.b, C = S.r.c, W = L.windows;
  const batches = Math.ceil((W + 1) / 32), splitsAt = Math.ceil(4 * (2 + batches) / 16) * 16 / 4;
  const published = w => sc[2 + Math.floor(w / 32)] !== 0;
  const split = w => sc[splitsAt + 2 * w];  // low word (inputs here are < 2^32)
  const windowOf = new Map();  // "a"/"b" index -> window
  for (let w = 0; w < W; ++w) {
    if (!published(w) || !published(w + 1)) continue;
    const a0 = split(w), a1 = split(w + 1), d0 = Math.min(w * L.tile, L.na + L.nb), d1 = Math.min((w + 1) * L.tile, L.na + L.nb);
    for (let i = a0; i < a1; ++i) windowOf.set("a" + i, w);
    for (let j = d0 - a0; j < d1 - a1; ++j) windowOf.set("b" + j, w);
  }
  const colors = ["#8fb3d9", "#9fd49f", "#f7e08a", "#d7b8f0", "#f6c48f", "#a8d8d8"];
  const CW = 26, n = Math.max(A.length, B.length, C.length), width = Math.max(640, 60 + n * CW);
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="150">`;
  const row = (label, arr, y, tag) => {
    s += `<text x="4" y="${y + 14}">${label}</text>`;
    for (let i = 0; i < arr.length; ++i) {
      const w = tag ? windowOf.get(tag + i) : undefined, v = arr[i];
      s += `<rect x="${50 + i * CW}" y="${y}" width="${CW - 2}" height="20" fill="${w === undefined ? "#fff" : colors[w % colors.length]}" stroke="#999"/>`;
      s += `<text x="${52 + i * CW}" y="${y + 14}">${v === 0xffffffff ? "" : v}</text>`;
    }
  };
  row("A", A, 8, "a"); row("B", B, 34, "b"); row("out", C, 72, null);
  s += `<text x="4" y="116">${W} windows of ${L.tile}; next window (copy warps): ${sc[0]}, next batch (search warps): ${sc[1]}; ` +
    `batches published: ${Array.from({length: batches}, (_, b) => sc[2 + b] ? "1" : "0").join("")}</text>`;
  return s + `<text x="4" y="136">colour: the window the element falls in (once its splits are published); out: written so far</text></svg>`;
}
