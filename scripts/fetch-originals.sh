#!/usr/bin/env bash
# The originals that benchmarks measure beside ours, in one program run
# (bench/slab_hash/original_slab_hash.h): their public sources at pinned commits,
# into .originals/ (git-ignored: their code is not ours to commit). CMake builds
# the comparison when it finds them; re-run cmake after fetching.
#
#   scripts/fetch-originals.sh            clone from GitHub
#   ORIGINALS_MIRROR=DIR scripts/...      take them from DIR/<owner>+<name>/repo
#                                         (bare snapshots, e.g. a machine with no network)
set -euo pipefail
cd "$(dirname "$0")/.."

# owner/name, commit, where
fetch() {
  local repo=$1 commit=$2 dir=$3
  [ -f "$dir/.fetched-$commit" ] && return
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ -n "${ORIGINALS_MIRROR:-}" ]; then
    git --git-dir="$ORIGINALS_MIRROR/${repo/\//+}/repo" archive "$commit" | tar -x -C "$dir"
  else
    local clone
    clone=$(mktemp -d)
    git clone -q "https://github.com/$repo" "$clone"
    git -C "$clone" archive "$commit" | tar -x -C "$dir"
    rm -rf "$clone"
  fi
  touch "$dir/.fetched-$commit"
  echo "fetched $repo at ${commit:0:7} into $dir"
}

# The slab hash (Ashkiani et al., IPDPS 2018) and its allocator, the submodule's commit.
fetch owensgroup/SlabHash eec7135a3e5d40ba7fb9a7e88f7bd6d49abc4dee .originals/SlabHash
fetch owensgroup/SlabAlloc d6550289344cd4474d237e959bfd6bc962981af7 .originals/SlabHash/SlabAlloc
# The generalized heap's authors' code (Chen et al.): TD and BU heaps in heap/.
fetch ruadapt/BGPQ 1589a877906707b13b72d3148897ba65c0bd57dd .originals/BGPQ
