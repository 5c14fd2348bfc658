// The stepper's drawing of a slab hash: each bucket's list, its base slab then the
// pool's slabs its next pointers (lane 31) name, with their keys (and values, but
// for the set), DELETED marks and empty spots; the allocator's bitmaps (the units
// taken in each memory block) and, for the multimap, the buckets' version words.
(S) => {
  const L = S.layout, pairs = L.mode !== "set", EMPTY = 0xffffffff, DELETED = 0xfffffffe, BASE = 0xfffffffe;
  const base = S.r.base, pool = S.r.pool, bitmaps = S.r.bitmaps, versions = S.r.versions;
  const key = v => v === EMPTY ? "." : v === DELETED ? "DEL" : String(v);
  // An address: bits 0-9 the unit, 10-23 the memory block, 24-31 the super block.
  const unitOf = a => ((a >>> 24) * L.blocks_per_super + ((a >>> 10) & 0x3fff)) * 1024 + (a & 1023);
  const slabText = (w, at) => {
    const out = [];
    for (let lane = 0; lane < 30; lane += pairs ? 2 : 1) {
      const k = w[at + lane];
      if (k === EMPTY && (!pairs || w[at + lane + 1] === EMPTY)) continue;
      out.push(pairs ? key(k) + ":" + key(w[at + lane + 1]) : key(k));
    }
    return out.join(" ") || "(empty)";
  };
  const rows = [];
  for (let b = 0; b < L.buckets; ++b) {
    const cells = [["base", slabText(base, b * 32)]];
    let next = base[b * 32 + 31];
    for (let hops = 0; next !== EMPTY && next !== BASE && hops < 64; ++hops) {
      const at = unitOf(next) * 32;
      if (at + 32 > pool.length) { cells.push(["bad address " + next, ""]); break; }
      cells.push(["unit " + unitOf(next), slabText(pool, at)]);
      next = pool[at + 31];
    }
    rows.push([b, cells]);
  }
  const CW = 230, RH = 44;
  const width = 20 + 80 + Math.max(...rows.map(r => r[1].length)) * (CW + 20), height = 20 + rows.length * RH + 60;
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.max(640, width)}" height="${height}">`;
  rows.forEach(([b, cells], i) => {
    const y = 10 + i * RH;
    s += `<text x="10" y="${y + 22}">bucket ${b}${versions && L.mode === "multimap" ? " v" + versions[b] : ""}</text>`;
    cells.forEach(([label, body], j) => {
      const x = 100 + j * (CW + 20);
      if (j) s += `<line x1="${x - 20}" y1="${y + 18}" x2="${x}" y2="${y + 18}" stroke="#333" marker-end="url(#a)"/>`;
      s += `<rect x="${x}" y="${y}" width="${CW}" height="${RH - 8}" rx="3" fill="${j ? "#eef4fb" : "#fff"}" stroke="#333"/>`;
      s += `<text x="${x + 4}" y="${y + 13}" fill="#666">${label}</text><text x="${x + 4}" y="${y + 28}">${body.slice(0, 36)}</text>`;
    });
  });
  // The allocator: per memory block, the units its bitmap marks taken.
  const taken = [];
  for (let g = 0; g * 32 < bitmaps.length; ++g) {
    const units = [];
    for (let l = 0; l < 32; ++l) for (let bit = 0; bit < 32; ++bit) if ((bitmaps[g * 32 + l] >>> bit) & 1) units.push(l * 32 + bit);
    taken.push("block " + g + ": " + (units.length ? units.slice(0, 24).join(" ") + (units.length > 24 ? " ..." : "") : "none"));
  }
  s += `<text x="10" y="${height - 30}">SlabAlloc bitmaps, units taken: ${taken.join("; ")}</text>`;
  s += `<text x="10" y="${height - 12}">key:value (set: key); "." empty, DEL deleted; arrows: next pointers</text>`;
  return s + `<defs><marker id="a" markerWidth="6" markerHeight="6" refX="6" refY="3" orient="auto"><path d="M0,0 L6,3 L0,6 z"/></marker></defs></svg>`;
}
