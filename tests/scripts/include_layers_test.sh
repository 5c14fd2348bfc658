#!/usr/bin/env bash
# The arrows between the folders (design.md's folder table, issue 36): every
# #include of a project folder in a production source file must be one that the
# including file's folder may use. Prints FILE:LINE and the rule broken for each one
# that is not, and exits 1; exits 0 when there is none.
#
# Usage: include_layers_test.sh [ROOT]               check the tree at ROOT (default:
#                                                    this script's repository)
#        include_layers_test.sh --self-test SCRATCH  copy the production folders to
#                                                    SCRATCH, plant bad includes one at
#                                                    a time and fail unless the check
#                                                    catches every one (and passes the
#                                                    unaltered copy and a good plant)
# GPULIN_INCLUDE_LAYERS_ROOT=DIR is the same as passing DIR as ROOT.
set -uo pipefail

# --- The rules -------------------------------------------------------------------
# FOLDER | MAY INCLUDE | WHY. A file takes the first row whose FOLDER (a bash pattern,
# matched against the path from the root) holds it; NAME in MAY INCLUDE is the file's
# own structure (structures/NAME/). An #include of a project folder outside MAY
# INCLUDE breaks the row, unless an exception below allows it.
rules=(
  "common/|common/|shared basics every layer may include: they include nothing of the project"
  "histories/|histories/ common/|the history format is the bottom layer: the recorder knows no structure, executor or checker"
  "verify/|verify/ histories/ common/|checkers read histories and never run structure code"
  "sim/|sim/ structures/exec/ histories/ common/|the simulator implements the context contract and records; it knows no structure"
  "structures/exec/|structures/exec/ common/|the context contract is what algorithms and executors share; it depends on neither"
  "structures/*/sim/|structures/NAME/ structures/exec/ sim/ verify/ histories/ common/ tools/explore/|a structure's simulator part runs its algorithm on the simulator, judges the runs by the checkers and plugs into the explore framework"
  "structures/*/gpu/|structures/NAME/ structures/exec/ cuda/ verify/ histories/ common/ tools/stress/ tools/explore/ tools/registry/stress_args.h tools/commands.h|a structure's GPU part instantiates its algorithm on the CUDA executor and its recorder; its stress driver plugs into the stress command"
  "structures/*/row.cpp|structures/NAME/ tools/registry/ tools/explore/ sim/ histories/ common/|a structure's registry row names its parts to the command line's table"
  "structures/*/|structures/NAME/ structures/exec/ common/|a structure's algorithm is written once over the context contract, for both executors"
  "cuda/|cuda/ structures/ histories/ common/|the CUDA executor runs structures; applications, tools, simulator and checkers sit above it"
  "apps/*/sim/|apps/ structures/ sim/ histories/ common/|an application in the simulator runs its algorithm over the structures on the simulator's context"
  "apps/|apps/ structures/ cuda/ histories/ common/|the papers' applications run on the structures, on the GPU through the CUDA executor"
  "render/|render/ verify/ histories/ common/|the timeline page draws a history and its checks"
)
# Nothing outside tools/, tests/, bench/ and fuzz/ includes tools/, but a structure's
# parts that plug into it (its sim/, gpu/ and row.cpp, as their rows above say); a
# break of it is named so.
tools_reason="the gpulin command is the top: only tools/, tests/, bench/, fuzz/ and a structure's sim/, gpu/ and row.cpp may include it"

# FILE PATTERN | INCLUDE PATTERN | WHY: allowed although the file's row forbids it.
exceptions=(
  "structures/gheap/*|structures/merge_path/block_merge.h|the heap's node merges are the one block-cooperative merge-path core (design.md's merge_and_sort)"
  "structures/psync/*|structures/merge_path/block_merge.h|the P-Sync heap's node merges are the one block-cooperative merge-path core"
  "structures/bucket_heap/*|structures/merge_path/block_merge.h|the bucket heap's level merges are the one block-cooperative merge-path core"
)

# The folders checked (those with a row), the project's top-level folders (an include
# whose first part is one of them is rooted at the repository) and the sources.
checked=(common histories verify sim structures cuda apps render)
project=(apps bench common cuda docs fuzz histories render scripts sim structures tests tools verify)
source_globs=('*.h' '*.cuh' '*.cpp' '*.cu' '*.hpp' '*.cc')
# ----------------------------------------------------------------------------------

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

is_project_folder() {
  local p
  for p in "${project[@]}"; do [ "$1" = "$p" ] && return 0; done
  return 1
}

# Normalise a relative path into $norm: drop "." parts, fold "..".
normalise() {
  local IFS=/ part out=()
  for part in $1; do
    case $part in
      '' | .) ;;
      ..) if [ ${#out[@]} -gt 0 ] && [ "${out[-1]}" != .. ]; then unset 'out[-1]'; else out+=(..); fi ;;
      *) out+=("$part") ;;
    esac
  done
  norm="${out[*]}"
}

# The repository path an #include names into $target, empty for a header of no project
# folder. Quoted: the including file's folder first (as the compiler looks), then the
# root. Angle brackets: only a file that exists at the root (<cuda/atomic> is libcu++'s).
resolve() {  # ROOT FILE KIND PATH
  local root=$1 file=$2 kind=$3 path=$4 first=${4%%/*}
  target=
  if [ "$kind" = '"' ]; then
    normalise "${file%/*}/$path"
    if [ -f "$root/$norm" ] && [ "${norm%%/*}" != .. ]; then target=$norm; return; fi
    if is_project_folder "$first"; then normalise "$path"; target=$norm; return; fi
    # A path that exists nowhere yet but climbs into a project folder ("../cuda/x.h").
    normalise "${file%/*}/$path"
    if [[ $path == *..* ]] && is_project_folder "${norm%%/*}"; then target=$norm; fi
    return
  fi
  if is_project_folder "$first" && [ -f "$root/$path" ]; then normalise "$path"; target=$norm; fi
}

# The row of the rules for a file into $row, -1 for none.
row_of() {
  local i folder
  row=-1
  for i in "${!rules[@]}"; do
    folder=${rules[$i]%%|*}
    # shellcheck disable=SC2053  # the folder is a pattern
    if [[ $1 == $folder* ]]; then row=$i; return; fi
  done
}

check_tree() {  # ROOT [FILE...]: prints the breaks (in FILEs only, if given), returns 1 when there is one
  local root=$1 bad=0 count=0 d g hit hits shown rest file line text kind path row folder allowed why name a ok e efile etarget
  local norm target args=() globs=() re='include[[:space:]]*(["<])([^">]+)[">]'
  if [ $# -gt 1 ]; then args=("${@:2}"); else
    for d in "${checked[@]}"; do [ -d "$root/$d" ] && args+=("$d"); done
  fi
  for g in "${source_globs[@]}"; do globs+=(--include="$g"); done
  hits=$(cd "$root" && grep -rnHE "${globs[@]}" '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]+[">]' "${args[@]}" | LC_ALL=C sort)
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; text=${rest#*:}
    [[ $text =~ $re ]] || continue
    kind=${BASH_REMATCH[1]}; path=${BASH_REMATCH[2]}
    if [ "$kind" = '"' ]; then shown="\"$path\""; else shown="<$path>"; fi
    resolve "$root" "$file" "$kind" "$path"
    [ -n "$target" ] || continue
    count=$((count + 1))
    row_of "$file"
    if [ "$row" -lt 0 ]; then
      echo "$file:$line: #include $shown: no rule for this folder (add a row to tests/scripts/include_layers_test.sh)"
      bad=1; continue
    fi
    IFS='|' read -r folder allowed why <<<"${rules[$row]}"
    name=
    if [[ $file == structures/*/* ]]; then name=${file#structures/}; name=${name%%/*}; fi
    ok=0
    for a in $allowed; do
      a=${a//NAME/$name}
      if [[ $target == "$a"* ]]; then ok=1; break; fi
    done
    # A structure's algorithm (the top of its folder) is the part both executors
    # share: it includes none of its own executor-specific parts.
    if [ $ok = 1 ] && [ "$folder" = "structures/*/" ] && [[ $target == structures/$name/sim/* || $target == structures/$name/gpu/* ]]; then
      echo "$file:$line: #include $shown: a structure's algorithm includes neither its sim/ nor its gpu/ part (both executors run it)"
      bad=1; continue
    fi
    [ $ok = 1 ] && continue
    for e in "${exceptions[@]}"; do
      IFS='|' read -r efile etarget _ <<<"$e"
      # shellcheck disable=SC2053  # the exception's parts are patterns
      if [[ $file == $efile && $target == $etarget ]]; then ok=1; break; fi
    done
    [ $ok = 1 ] && continue
    if [[ $target == tools/* ]]; then
      echo "$file:$line: #include $shown: $folder may not include it ($tools_reason)"
    else
      echo "$file:$line: #include $shown: $folder may include only ${allowed//NAME/$name} ($why)"
    fi
    bad=1
  done <<<"$hits"
  if [ $bad = 0 ]; then
    echo "include layers: $count project includes in ${args[*]}, none breaks a rule"
  fi
  return $bad
}

self_test() {  # SCRATCH
  local scratch=$1 tree d fail=0 out rc
  local src
  src=$(cd "$here/../.." && pwd)
  tree="$scratch/tree"
  rm -rf "$scratch" && mkdir -p "$tree"
  for d in "${checked[@]}"; do [ -d "$src/$d" ] && cp -R "$src/$d" "$tree/$d"; done
  out=$(check_tree "$tree"); rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL: the unaltered copy of the tree does not pass:"; echo "$out"; return 1; fi
  echo "ok: the unaltered copy passes"
  # plant FILE INCLUDE EXPECT(0|1) WHAT: the check on the copy with FILE added.
  plant() {
    local f=$1 inc=$2 want=$3 what=$4
    mkdir -p "$(dirname "$tree/$f")"
    printf '// planted by include_layers_test.sh --self-test\n#pragma once\n#include %s\n' "$inc" >"$tree/$f"
    out=$(check_tree "$tree" "$f"); rc=$?  # the planted file against the whole tree
    rm -f "$tree/$f"
    if [ "$want" = 1 ]; then
      if [ $rc -eq 1 ] && [[ $out == *"$f:3:"* ]]; then echo "ok: caught $what"
      else echo "FAIL: missed $what (exit $rc):"; echo "$out"; fail=1; fi
    else
      if [ $rc -eq 0 ]; then echo "ok: allowed $what"
      else echo "FAIL: refused $what (exit $rc):"; echo "$out"; fail=1; fi
    fi
  }
  plant histories/zz_planted.h '"structures/exec/context.h"' 1 "histories/ including structures/"
  plant histories/zz_planted.h '"../verify/model.h"' 1 "histories/ including verify/ by a relative path"
  plant verify/zz_planted.h '"sim/simulator.h"' 1 "verify/ including sim/"
  plant sim/zz_planted.h '"structures/gheap/td_insert.h"' 1 "sim/ including a structure"
  plant structures/exec/zz_planted.h '"histories/recorder.h"' 1 "structures/exec/ including histories/"
  plant structures/gheap/zz_planted.h '"cuda/cuda_context.cuh"' 1 "a structure's algorithm including the CUDA executor"
  plant structures/gheap/zz_planted.h '"structures/slab_hash/slab_list.h"' 1 "a structure's algorithm including another structure"
  plant structures/gheap/gpu/zz_planted.cu '"sim/sim_context.h"' 1 "a structure's GPU part including sim/"
  plant cuda/zz_planted.h '"apps/sssp/graph.h"' 1 "cuda/ including apps/"
  plant cuda/zz_planted.h '"tools/explore/explore.h"' 1 "cuda/ including tools/"
  plant structures/gheap/zz_planted.h '"tools/explore/explore.h"' 1 "a structure's algorithm including the explore framework"
  plant structures/gheap/zz_planted.h '"structures/gheap/sim/heap_run.h"' 1 "a structure's algorithm including its own simulator part"
  plant structures/gheap/sim/zz_planted.h '"cuda/cuda_context.cuh"' 1 "a structure's simulator part including the CUDA executor"
  plant structures/gheap/sim/zz_planted.h '"structures/slab_hash/sim/slab_run.h"' 1 "a structure's simulator part including another structure's"
  plant structures/gheap/sim/zz_planted.h '"tools/registry/registry.h"' 1 "a structure's simulator part including the registry"
  plant structures/gheap/sim/zz_planted.h '"tools/explore/explore.h"' 0 "a structure's simulator part including the explore framework"
  plant structures/gheap/gpu/zz_planted.h '"tools/stress/multi_gpu.h"' 0 "a structure's GPU part including the stress framework"
  plant apps/zz_planted.h '"verify/model.h"' 1 "apps/ including verify/"
  plant apps/zz_planted.h '"sim/sim_context.h"' 1 "an application's algorithm including the simulator"
  plant apps/sssp/sim/zz_planted.h '"sim/sim_context.h"' 0 "an application's simulator part including the simulator"
  plant apps/sssp/sim/zz_planted.h '"tools/explore/explore.h"' 1 "an application's simulator part including tools/"
  plant common/zz_planted.h '"histories/history.h"' 1 "common/ including histories/"
  plant structures/slab_hash/zz_planted.h '"structures/merge_path/block_merge.h"' 1 "a structure the exceptions do not name including the block merge"
  plant structures/gheap/gpu/zz_planted.cu '"cuda/cuda_context.cuh"' 0 "a structure's GPU part including the CUDA executor"
  plant structures/gheap/zz_planted.h '<cuda/atomic>' 0 "libcu++'s <cuda/atomic> (no project folder)"
  plant structures/gheap/zz_planted.h '"block_ops.h"' 0 "a structure's algorithm including its own header by a relative path"
  return $fail
}

if [ "${1:-}" = --self-test ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --self-test SCRATCH" >&2; exit 2; }
  self_test "$2"; exit $?
fi
root=${1:-${GPULIN_INCLUDE_LAYERS_ROOT:-$here/../..}}
[ -d "$root" ] || { echo "no such folder: $root" >&2; exit 2; }
check_tree "$(cd "$root" && pwd)"
exit $?
