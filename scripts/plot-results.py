#!/usr/bin/python3
"""The benchmark CSVs of bench/results drawn as the papers lay out their figures and
tables, one SVG beside each CSV's figure (bench/results/plots/), with matplotlib
(Debian's python3-matplotlib). Each plot names its GPU (the CSV's `gpu` column) and
the commit its numbers were measured at (bench/results/README.md's row for the CSV).

    python3 scripts/plot-results.py [bench/results]      # writes bench/results/plots/*.svg
"""
import csv
import re
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

matplotlib.rcParams["svg.hashsalt"] = "gpulin"  # the same SVG for the same data
matplotlib.rcParams["svg.fonttype"] = "none"


def rows(results, name):
    with open(results / name, newline="") as f:
        return list(csv.DictReader(f))


COMMIT = re.compile(r"(?:code of|HEAD|commit) ([0-9a-f]{7,40})\b")


def commit_of(results, name):
    """The commit README.md's row for `name` gives ("code of X", "HEAD X"), else the
    first one the CSV's text file names."""
    stem = name.rsplit(".", 1)[0]
    for line in (results / "README.md").read_text().splitlines():
        if line.startswith("|") and f"`{stem}." in line.split("|")[1]:
            m = COMMIT.search(line)
            if m:
                return m.group(1)
    text = results / f"{stem}.txt"
    m = COMMIT.search(text.read_text()) if text.exists() else None
    if not m:
        sys.exit(f"{results / name}: no commit named for it (bench/results/README.md's row or {text.name})")
    return m.group(1)


def figure(results, out, csv_name, stem, title, panels=1):
    data = rows(results, csv_name)
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 3.8), squeeze=False)
    gpu = next((r["gpu"] for r in data if r.get("gpu")), "?").strip('"')
    fig.suptitle(f"{title}\n{gpu}, commit {commit_of(results, csv_name)}, data {csv_name}", fontsize=9)
    return data, fig, axes[0], lambda: save(fig, out / f"{stem}.svg")


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)
    print(path)


def series(ax, points, label, **kw):
    points = sorted(points)
    ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", ms=3, label=label, **kw)


def param(text, key):
    m = re.search(rf"(?:^|;){key}=([0-9.]+)", text)
    return float(m.group(1)) if m else None


# ---------------------------------------------------------------- generalized heap
def gheap(results, out):
    data, fig, (ax,), done = figure(results, out, "gheap-h200.csv", "gheap-table1",
                                    "Generalized heap, Table 1: insert N keys then delete them all (s)")
    t1 = [r for r in data if r["section"] == "table1"]
    names = ["random", "ascend", "descend"]
    heaps = ["TD", "BU", "CUB", "STL"]
    for h_i, heap in enumerate(heaps):
        for n_i, n in enumerate(sorted({int(r["n"]) for r in t1})):
            vals = {r["name"]: float(r["total_s"]) for r in t1 if r["heap"] == heap and int(r["n"]) == n}
            if not vals:
                continue
            xs = [i + (h_i * 2 + n_i) * 0.1 - 0.35 for i in range(len(names))]
            ax.bar(xs, [vals.get(x, 0) for x in names], width=0.1,
                   label=f"{heap} N=2^{n.bit_length() - 1}")
    ax.set_xticks(range(len(names)), names)
    ax.set_yscale("log")
    ax.set_ylabel("seconds")
    ax.legend(fontsize=6, ncol=2)
    done()

    data, fig, axes, done = figure(results, out, "gheap-h200.csv", "gheap-figs13-16",
                                   "Generalized heap, Figs. 13-16 (k = 1024, N = 2^24 unless said)", panels=4)
    for ax, (sec, x_of, xlabel) in zip(axes, [
            ("fig13", lambda r: int(r["blocks"]), "thread blocks (Fig. 13)"),
            ("fig14", lambda r: int(r["threads"]), "threads per block (Fig. 14)"),
            ("fig15", lambda r: int(r["name"].split(":")[1]), "levels filled before the pairs (Fig. 15)"),
            ("fig16", lambda r: int(r["name"].split(":")[1]), "% partial inserts (Fig. 16)")]):
        for heap in ("TD", "BU"):
            pts = [(x_of(r), float(r["keys_per_s"]) / 1e6) for r in data if r["section"] == sec and r["heap"] == heap]
            if pts:
                series(ax, pts, heap)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel("M keys/s")
        if sec in ("fig13", "fig14"):
            ax.set_xscale("log", base=2)
        ax.legend(fontsize=7)
    done()


def gheap_authors(results, out):
    data, fig, axes, done = figure(results, out, "gheap-table1-authors-h200.csv", "gheap-table1-authors",
                                   "Generalized heap, Table 1 beside the authors' heaps (ruadapt/BGPQ), one run, "
                                   "same keys; insert N keys then delete them all (s)", panels=2)
    t1 = [r for r in data if r["section"] == "table1" and r["check"] == "PASS"]
    names = ["random", "ascend", "descend"]
    # The authors' at 128 blocks (their better one here) beside ours at 128.
    heaps = [("TD", "TD"), ("authors-TD", "authors TD"), ("BU", "BU"), ("authors-BU", "authors BU")]
    for ax, n in zip(axes, sorted({int(r["n"]) for r in t1}, reverse=True)):
        for h_i, (heap, label) in enumerate(heaps):
            vals = {r["name"]: float(r["total_s"]) for r in t1
                    if r["heap"] == heap and int(r["n"]) == n and r["blocks"] == "128"}
            ax.bar([i + h_i * 0.2 - 0.3 for i in range(len(names))], [vals.get(x, 0) for x in names], width=0.2,
                   label=label, hatch="//" if heap.startswith("authors") else None)
        ax.set_xticks(range(len(names)), names)
        ax.set_xlabel(f"N = 2^{n.bit_length() - 1}, k = 1024, 128 x 512", fontsize=8)
        ax.set_ylabel("seconds")
        ax.legend(fontsize=7)
    done()


# ---------------------------------------------------------------- slab hash
def slab(results, out):
    data, fig, axes, done = figure(results, out, "slab-h100.csv", "slab-figs4-7",
                                   "Slab hash, Figs. 4-7a (ours and the cuckoo baseline, same run; "
                                   "the original beside ours: slab-original)", panels=4)
    def x_u(r):
        return param(r["param"], "u") or param(r["param"], "lf")
    specs = [("fig4", x_u, "memory utilization (Fig. 4, n = 2^22)", None),
             ("fig5", lambda r: int(r["n"]), "elements (Fig. 5, u = 0.6)", "log"),
             ("fig6", lambda r: param(r["param"], "batch"), "batch size (Fig. 6)", "log"),
             ("fig7a", lambda r: param(r["param"], "u0"), "initial utilization (Fig. 7a, mixes)", None)]
    for ax, (sec, x_of, xlabel, scale) in zip(axes, specs):
        by = defaultdict(list)
        for r in data:
            # Fig. 7a's curve is the paper's shape (batches of 2^20, four of them); the
            # other batch shapes measured at u = 0.55 are in the CSV and its text.
            if r["section"] == sec and (sec != "fig7a" or "batch=2^20;batches=4" in r["param"]):
                by[r["method"]].append((x_of(r), float(r["rate"])))
        for method, pts in sorted(by.items()):
            series(ax, pts, method, ls="--" if method.startswith("cuckoo") else "-")
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel("M ops/s")
        if scale:
            ax.set_xscale("log", base=2)
        ax.legend(fontsize=6)
    done()


def slab_original(results, out):
    data, fig, axes, done = figure(results, out, "slab-original-h200.csv", "slab-original",
                                   "Slab hash beside the original (owensgroup/SlabHash), one run, same keys "
                                   "(below 2^30), u = 0.55", panels=2)
    rows_of = [r for r in data if r["section"] == "original"]
    mixes = ["G0", "G1", "G2"]
    builds = sorted({int(r["n"]) for r in rows_of if r["method"].endswith(":build")})
    panels = [(axes[0], [(m, f"slab:{m}", f"original:{m}", None) for m in mixes],
               "Fig. 7a's mixes, 2^22 keys built, 4 batches of 2^20", "G ops/s"),
              (axes[1], [(f"2^{n.bit_length() - 1}", "slab:build", "original:build", n) for n in builds],
               "build", "G keys/s")]
    # The mixes run by our paper multimap (the original's semantics), where the CSV has them.
    multimap = any(r["method"].endswith("/multimap") for r in rows_of)
    for ax, groups, xlabel, unit in panels:
        sides = [("ours (map)" if multimap else "ours", lambda g: g[1]), ("original", lambda g: g[2])]
        if multimap and ax is axes[0]:
            sides.insert(1, ("ours as the paper multimap", lambda g: g[1] + "/multimap"))
        width = 0.8 / len(sides)
        for side, (who, method_of) in enumerate(sides):
            heights = []
            for group in groups:
                n = group[3]
                vals = [float(r["rate"]) / 1e3 for r in rows_of
                        if r["method"] == method_of(group) and (n is None or int(r["n"]) == n)]
                heights.append(sorted(vals)[len(vals) // 2] if vals else 0)  # the rounds' median
            offset = (side - (len(sides) - 1) / 2) * width
            ax.bar([i + offset for i in range(len(groups))], heights, width=width, label=who)
        ax.set_xticks(range(len(groups)), [g[0] for g in groups])
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel(unit)
        ax.legend(fontsize=7)
    done()


# ---------------------------------------------------------------- merge path
def merge(results, out):
    data, fig, axes, done = figure(results, out, "merge-h200.csv", "merge",
                                   "GPU Merge Path against CUB, thrust and a device copy", panels=2)
    for ax, ty in zip(axes, ("int32", "float")):
        for method in ("gpulin", "cub", "thrust", "copy"):
            pts = [(int(r["n_per_array"]), float(r["gbps"])) for r in data
                   if r["type"] == ty and r["method"] == method]
            if pts:
                series(ax, pts, method, ls=":" if method == "copy" else "-")
        ax.set_xscale("log")
        ax.set_xlabel(f"{ty} keys per input", fontsize=8)
        ax.set_ylabel("GB/s (read + write)")
        ax.legend(fontsize=7)
    done()


# ---------------------------------------------------------------- P-Sync
def psync(results, out):
    data, fig, axes, done = figure(results, out, "psync-h100.csv", "psync-figs8-12",
                                   "P-Sync parallel heap, Figs. 8-12 (against SeqHeap)", panels=4)
    def pts(sec, method, x):
        return [(float(r[x]), float(r["median_s"])) for r in data if r["section"] == sec and r["method"] == method]
    ax = axes[0]
    for m in ("concurrent", "sequential"):
        series(ax, pts("fig8", m, "t"), m)
    ax.set_xlabel("per-key work t (Fig. 8)", fontsize=8)
    ax.set_ylabel("seconds")
    ax = axes[1]
    series(ax, pts("fig9", "ppq", "r"), "ppq")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("node capacity r (Fig. 9)", fontsize=8)
    ax.set_ylabel("seconds")
    ax = axes[2]
    for m in ("ppq", "seqheap"):
        series(ax, pts("fig10", m, "t"), m)
    ax.set_yscale("log")
    ax.set_xlabel("per-key work t (Fig. 10)", fontsize=8)
    ax.set_ylabel("seconds")
    ax = axes[3]
    series(ax, pts("fig11", "speedup", "t"), "vs t (Fig. 11)")
    ax2 = ax.twiny()
    series(ax2, pts("fig12", "speedup", "r"), "vs r (Fig. 12)", color="C1")
    ax2.set_xscale("log", base=2)
    ax.set_xlabel("t (Fig. 11, bottom) / r (Fig. 12, top)", fontsize=8)
    ax.set_ylabel("speedup over SeqHeap")
    for a in (ax, axes[0], axes[1], axes[2]):
        a.legend(fontsize=7)
    ax2.legend(fontsize=7, loc="lower right")
    done()


# ---------------------------------------------------------------- SSSP
def sssp(results, out):
    data, fig, axes, done = figure(results, out, "sssp-h200.csv", "sssp",
                                   "SSSP on random DAGs of 30 000 vertices: PARDIJKSTRA, near-far, BGL Dijkstra",
                                   panels=1)
    ax = axes[0]
    codes = list(dict.fromkeys(r["code"] for r in data))  # the measured code first, its baseline after
    for code in codes[:2]:  # older codes' rows stay in the CSV for the text's sections
        for method in ("pardijkstra", "near_far", "bgl_dijkstra"):
            if code != codes[0] and method != "pardijkstra":
                continue  # the baseline's other methods are the same code as the run's
            pts = [(int(r["m"]), float(r["median_s"])) for r in data
                   if r["code"] == code and r["method"] == method and r["skipped"] == "0"]
            label = method if code == codes[0] else f"{method} at {code}"
            if pts:
                series(ax, pts, label, ls=":" if method == "bgl_dijkstra" else "-" if code == codes[0] else "--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    threads = sorted({(int(r["m"]), r["threads"]) for r in data if r["code"] == codes[0] and r["method"] == "pardijkstra"})
    blocks = ", ".join(f"{t} from {m:.0e}" for i, (m, t) in enumerate(threads) if i == 0 or threads[i - 1][1] != t)
    ax.set_xlabel(f"edges m (PARDIJKSTRA's level blocks, threads: {blocks})", fontsize=8)
    ax.set_ylabel("seconds")
    ax.legend(fontsize=7)
    done()


def main():
    results = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    out = results / "plots"
    out.mkdir(exist_ok=True)
    for draw in (gheap, gheap_authors, slab, slab_original, merge, psync, sssp):
        draw(results, out)


if __name__ == "__main__":
    main()
