#!/usr/bin/env python3
"""The instructions where a kernel's warps stalled most, from Nsight Compute's
source page (ncu --import REP --csv --page source --print-source sass > FILE).
Usage: ncu-stall-top.py FILE [N]   (N rows per kernel, default 25)
Prints, per profiled kernel, the N instructions with the most stall samples:
their share of the kernel's samples, the top stall reasons there, and the SASS."""
import csv
import sys


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    # Each kernel: a short "Kernel Name" row, its header row, its instructions.
    kernels, cur, title = [], None, ""
    for row in rows:
        if not row:
            continue
        if any("Warp Stall Sampling (All Samples)" == c for c in row):
            cur = {"header": row, "rows": [], "title": title}
            kernels.append(cur)
            continue
        if cur is None or len(row) < len(cur["header"]) // 2:
            title = ",".join(row)[:160]
            continue
        cur["rows"].append(row)
    for k in kernels:
        h = k["header"]
        col = h.index("Warp Stall Sampling (All Samples)")
        src = next((i for i, c in enumerate(h) if c in ("Source", "# Source", "Sass")), 1)
        addr = next((i for i, c in enumerate(h) if c == "Address"), 0)
        reasons = [i for i, c in enumerate(h) if c.startswith("stall_") or c.startswith("smsp__pcsamp")]

        def num(v):
            try:
                return float(v.replace(",", ""))
            except ValueError:
                return 0.0

        total = sum(num(r[col]) for r in k["rows"] if len(r) > col) or 1.0
        print(f"== kernel {k['title']}  ({int(total)} samples, {len(k['rows'])} instructions)")
        best = sorted((r for r in k["rows"] if len(r) > col), key=lambda r: -num(r[col]))[:top]
        for r in best:
            why = sorted(((num(r[i]), h[i]) for i in reasons if i < len(r)), reverse=True)[:2]
            why_s = " ".join(f"{n.replace('smsp__pcsamp_warps_issue_stalled_', '')}={int(v)}" for v, n in why if v)
            print(f"{100 * num(r[col]) / total:5.1f}%  {r[addr] if addr < len(r) else '':>8}  {r[src][:70]:70}  {why_s}")


if __name__ == "__main__":
    main()
