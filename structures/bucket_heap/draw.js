// The stepper's drawing of the parallel bucket heap: each level i's bucket B_i and
// signal buffer S_i, and its second buffer S'_i where a policy has two (elements
// value/priority; a DELETE's priority shown "del"),
// its threshold p_i and how many RESOLVE(i) have completed (the signal the level
// blocks wait on). Elements and thresholds are 64-bit: two words, low first.
(S) => {
  const d = S.layout.d, q = S.r.bucket_n.length, DEL = S.layout.del;
  const el = (arr, at) => { const prio = arr[2 * at], value = arr[2 * at + 1];
    return value + "/" + (prio === DEL ? "del" : prio); };
  const list = (arr, base, n) => { const out = []; for (let k = 0; k < Math.min(n, 12); ++k) out.push(el(arr, base + k));
    return (out.join(" ") || "-") + (n > 12 ? " ... (" + n + ")" : ""); };
  const bucketBase = i => d * ((1 << (2 * i)) - 1), signalBase = i => d * (((1 << (2 * i)) - 1) / 3);
  const RH = 50, width = 900, height = 20 + q * RH + 20;
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`;
  for (let i = 0; i < q; ++i) {
    const y = 10 + i * RH, lo = S.r.threshold[2 * i], hi = S.r.threshold[2 * i + 1];
    const p = lo === 0xffffffff && hi === 0xffffffff ? "none" : lo + "/" + (hi === DEL ? "del" : hi);
    const nb = S.r.signal_n_b ? S.r.signal_n_b[i] : 0, pending = S.r.signal_n[i] > 0 || nb > 0;
    s += `<rect x="10" y="${y}" width="${width - 20}" height="${RH - 6}" rx="3" fill="${pending ? "#fff3d6" : "#fff"}" stroke="#333"/>`;
    s += `<text x="16" y="${y + 14}">level ${i}: p=${p}, RESOLVE done ${S.r.done[i]}, |B|=${S.r.bucket_n[i]}, |S|=${S.r.signal_n[i]}${nb ? ", |S'|=" + nb : ""}</text>`;
    s += `<text x="16" y="${y + 28}">B: ${list(S.r.buckets, bucketBase(i), S.r.bucket_n[i])}</text>`;
    s += `<text x="16" y="${y + 40}">S: ${list(S.r.signals, signalBase(i), S.r.signal_n[i])}` +
      (nb ? `; S': ${list(S.r.signals_b, signalBase(i), nb)}` : "") + `</text>`;
  }
  return s + `<text x="10" y="${height - 6}">value/priority; yellow: signals pending in S_i</text></svg>`;
}
