#!/usr/bin/env python3
"""Puts back, in a copy of the tree, the eight orderings dropped from the generalized
heaps' claims and the bucket heap's counts (`gpulin ablate` never found them needed:
docs/findings.md, "Which orderings each structure needs"), so that
scripts/device-dropped-orderings.sh can time the GPU code with and without them. Each
access is found by its text; one not found as expected stops the script.

Usage: put_back_orderings.py TREE"""
import os
import sys

# (file, text as the code is, as it was): each access, its ordering put back.
SITES = [
    # the insert's claim of its target (ms_lock to TARGET): relaxed -> acquire and release
    ("structures/gheap/ms_lock.h", "won, exec::holding, exec::relaxed);", "won, exec::holding);"),
    # the fixed heap's (lastelem, psize) under the root: relaxed -> acquire
    ("structures/gheap/root_prologue.h", "x.load_pair(h.lastelem, h.psize, exec::relaxed)",
     "x.load_pair(h.lastelem, h.psize)"),
    # the TD insert's look for MARKED: relaxed -> acquire
    ("structures/gheap/td_insert.h", "x.load(h.lock(tar), exec::relaxed) == MARKED", "x.load(h.lock(tar)) == MARKED"),
    # MARKED -> AVAIL at the target: release -> acquire and release
    ("structures/gheap/td_insert.h", "x.cas(h.lock(tar), MARKED, AVAIL, exec::release);", "x.cas(h.lock(tar), MARKED, AVAIL);"),
    # the bucket heap's counts: relaxed -> acquire (loads), release (stores)
    ("structures/bucket_heap/resolve.h", "x.load(count, exec::relaxed);", "x.load(count);"),
    ("structures/bucket_heap/resolve.h", "x.store(count, n, exec::relaxed);", "x.store(count, n);"),
    ("structures/bucket_heap/resolve.h", "x.store(h.signal_n + i, 0u, exec::relaxed);", "x.store(h.signal_n + i, 0u);"),
    ("structures/bucket_heap/operations.h", "x.store(h.bucket_n + 0, n - 1, exec::relaxed);", "x.store(h.bucket_n + 0, n - 1);"),
]


def main(tree):
    for path, now, was in SITES:
        p = os.path.join(tree, path)
        s = open(p).read()
        if s.count(now) != 1:
            sys.exit(f"{path}: expected `{now.strip()}` once, found it {s.count(now)} times")
        open(p, "w").write(s.replace(now, was))
    print(f"put back {len(SITES)} orderings (the heaps' 4, the bucket heap's counts 4)")


if __name__ == "__main__":
    main(sys.argv[1])
