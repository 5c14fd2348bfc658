// The stepper's drawing of the P-Sync heap: its nodes of r keys (node i's children
// 2i and 2i + 1), the delete-update processes' positions (the delete table: slot s
// works on node t next, 0 once done) and the insert-update processes' (the
// controller's plan of the step running: slot s carries its buffer's keys to node t)
// marked on the tree, the insert buffers and the cycle's new and output keys.
(S) => {
  const r = S.layout.r, nodes = S.r.nodes, table = S.r.delete_table, bufs = S.r.insert_buffers;
  const max = Math.floor(nodes.length / r);
  const keysOf = (arr, i) => Array.from(arr.subarray(i * r, i * r + r)).join(" ");
  const deleting = {}, inserting = {}, plan = S.r.plan, NONE = 0xffffffff;
  table.forEach((node, slot) => { if (node) (deleting[node] = deleting[node] || []).push(slot); });
  // Between the cycle's first and second barrier step 2 runs, then step 3.
  const step = plan[0] === 1 || plan[0] === 2 ? plan[0] - 1 : -1;
  for (let at = 1 + Math.max(step, 0) * S.layout.plan_step_words; step >= 0 && plan[at] !== NONE; at += 2)
    (inserting[plan[at + 1]] = inserting[plan[at + 1]] || []).push(plan[at]);
  const shown = Math.min(max, 31), levels = Math.floor(Math.log2(shown)) + 1;
  const BW = Math.max(60, 14 + 24 * r), BH = 36, width = Math.max(640, (1 << (levels - 1)) * (BW + 8) + 20);
  const height = levels * (BH + 24) + 20 + 18 * (3 + bufs.length / r);
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`;
  const pos = i => { const d = Math.floor(Math.log2(i)), n = 1 << d; return [10 + (i - n + 0.5) * (width - 20) / n, 10 + d * (BH + 24)]; };
  for (let i = 2; i <= shown; ++i) { const [x0, y0] = pos(i >> 1), [x1, y1] = pos(i);
    s += `<line x1="${x0}" y1="${y0 + BH}" x2="${x1}" y2="${y1}" stroke="#999"/>`; }
  for (let i = 1; i <= shown; ++i) {
    const [cx, y] = pos(i), d = deleting[i], ins = inserting[i];
    s += `<rect x="${cx - BW / 2}" y="${y}" width="${BW}" height="${BH}" rx="4" fill="${d ? "#f2a7a7" : ins ? "#a8dca8" : "#fff"}" stroke="#333"/>`;
    s += `<text x="${cx - BW / 2 + 4}" y="${y + 13}">${i}${d ? " del " + d.join(",") : ""}${ins ? " ins " + ins.join(",") : ""}</text>`;
    s += `<text x="${cx - BW / 2 + 4}" y="${y + 28}">${keysOf(nodes, i - 1)}</text>`;
  }
  let y = levels * (BH + 24) + 16;
  for (let slot = 0; slot * r < bufs.length; ++slot, y += 18)
    s += `<text x="10" y="${y}">insert buffer ${slot}: ${keysOf(bufs, slot)}</text>`;
  s += `<text x="10" y="${y}">delete table: ${Array.from(table).join(" ")}; new keys: ${Array.from(S.r.new_keys).join(" ")}; ` +
    `out: ${Array.from(S.r.out).join(" ")}</text>`;
  s += `<text x="10" y="${y + 18}">${step < 0 ? "step 1 (the root)" : "step " + (step + 2)}; red: a delete-update process ` +
    `works on the node next; green: an insert-update process carries its buffer to it</text>`;
  return s + "</svg>";
}
