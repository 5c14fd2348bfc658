#!/usr/bin/env bash
# Sourced by the device scripts that measure a change against the code without it
# (device-slab-pair-reads.sh, device-weak-batches.sh): a copy of this tree to patch,
# and its build, beside this tree's own.
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
