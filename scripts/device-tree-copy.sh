#!/usr/bin/env bash
# Sourced by the device scripts that measure a change against the code without it
# (device-weak-batches.sh, device-psync-relaxed.sh): a copy
# of this tree to patch, its build beside this tree's own, and the two benchmarks run
# in alternating rounds.
# copy_tree DEST: this tree without its builds, outputs and .git, at DEST (made anew).
copy_tree() {
  rm -rf "$1" && mkdir -p "$1"
  tar --exclude='./build*' --exclude='./out' --exclude='./.git' -cf - . | tar -xf - -C "$1"
}
# build_copy DEST OUT TARGET...: configures and builds TARGETs in DEST's build-gpu,
# the logs in OUT; on failure prints the log's tail and returns 2.
build_copy() {
  local dest=$1 logs=$2
  shift 2
  mkdir -p "$logs"
  (cd "$dest" && out="$logs" && source scripts/device-configure.sh &&
    cmake --build build-gpu -j"$(nproc)" --target "$@" >"$logs/build.log" 2>&1) ||
    { echo "the build in $dest failed"; tail -20 "$logs/build.log"; return 2; }
}
# ab_rounds OUT NAME_A BIN_A NAME_B BIN_B ARGS...: two rounds of A then B, each run
# with ARGS --csv OUT/NAME-ROUND.csv (its output in OUT/NAME-ROUND.txt); prints each
# run's exit status and any FAIL line. scripts/ab_rows.py prints the rows side by side.
ab_rounds() {
  local out=$1 name_a=$2 bin_a=$3 name_b=$4 bin_b=$5
  shift 5
  for round in 1 2; do
    "$bin_a" "$@" --csv "$out/$name_a-$round.csv" >"$out/$name_a-$round.txt" 2>&1
    echo "$name_a round $round: exit $?"
    "$bin_b" "$@" --csv "$out/$name_b-$round.csv" >"$out/$name_b-$round.txt" 2>&1
    echo "$name_b round $round: exit $?"
  done
  grep -h "FAIL" "$out/$name_a"-*.txt "$out/$name_b"-*.txt | head -10
}
