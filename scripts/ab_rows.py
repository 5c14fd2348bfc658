#!/usr/bin/env python3
"""Rows of two benchmark builds side by side (the device A/B scripts, device-tree-copy.sh's
ab_rounds): OUT/A-R.csv against OUT/B-R.csv for each round R, row by row, with the time
column of each and B/A.

Usage: ab_rows.py OUT A B TIME_COLUMN LABEL_COLUMN... [--also COLUMN]"""
import csv
import os
import sys


def rows(out, name):
    with open(os.path.join(out, name)) as f:
        return list(csv.DictReader(f))


def main(argv):
    also = None
    if "--also" in argv:
        i = argv.index("--also")
        also = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    out, a, b, time_col, *label_cols = argv
    rnd = 1
    while os.path.exists(os.path.join(out, f"{a}-{rnd}.csv")):
        for ra, rb in zip(rows(out, f"{a}-{rnd}.csv"), rows(out, f"{b}-{rnd}.csv")):
            label = " ".join(f"{c}={ra[c]}" if c in ("n", "r", "k", "s", "t") else ra[c] for c in label_cols)
            extra = f"  {ra[also]}/{rb[also]}" if also else ""
            try:
                ta, tb = float(ra[time_col]), float(rb[time_col])
                print(f"{rnd} {label:<60} {ta:10.4f} {tb:10.4f} {tb / ta:6.3f}{extra}")
            except ValueError:
                print(rnd, label, ra[time_col], rb[time_col], extra)
        rnd += 1


if __name__ == "__main__":
    main(sys.argv[1:])
