// The stepper's drawing of the counter array (the template structure): each
// counter's value and its lock (held: the word is 1).
(S) => {
  const locks = S.r.locks, values = S.r.values, n = values.length;
  let s = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.max(300, 20 + n * 96)}" height="80">`;
  for (let i = 0; i < n; ++i) {
    const x = 10 + i * 96, held = locks[i] !== 0;
    s += `<rect x="${x}" y="10" width="88" height="44" rx="4" fill="${held ? "#f6c48f" : "#fff"}" stroke="#333"/>`;
    s += `<text x="${x + 6}" y="26">counter ${i}</text><text x="${x + 6}" y="46">${values[i]}${held ? " (locked)" : ""}</text>`;
  }
  return s + `<text x="10" y="72">orange: the counter's lock is held</text></svg>`;
}
