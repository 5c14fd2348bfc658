#!/usr/bin/env bash
# Whether a change to the simulator kept every schedule and every verdict: runs the
# same `gpulin explore --json` cases with two builds of gpulin and compares the
# reports byte for byte (counts, fingerprints, first failures and their replay
# strings), the wall-clock fields (sim_seconds, total_seconds) and the echo of the
# run's options ("run": both builds get the same command line, and a newer build
# echoes options an older one does not have, such as the slab hash's lanes) left out.
#   scripts/sim-same-schedules.sh OLD_GPULIN NEW_GPULIN [OUT_DIR]
# Both heaps and their variants under every strategy and memory mode, with and
# without coverage, a few mutants (races in block-private memory among them), and
# every other structure under the portfolio and under ptx. Exits 1 at a difference.
set -euo pipefail
old=$1
new=$2
out=${3:-out/sim-same-schedules}
mkdir -p "$out/old" "$out/new"

cases=()
for s in gheap-td gheap-bu; do
  for v in fixed paper; do
    h="--structure $s --variant $v"
    cases+=("$h --strategy pct --schedules 300 --seed 1"
            "$h --strategy random --schedules 300 --seed 2"
            "$h --strategy pos --schedules 300 --seed 3"
            "$h --strategy portfolio --schedules 300 --seed 4"
            "$h --strategy portfolio --memory ptx --schedules 200 --seed 5"
            "$h --strategy dfs --preemptions 1 --actors 2 --ops 2 --schedules 2000"
            "$h --strategy dpor --actors 2 --ops 2 --schedules 2000"
            "$h --strategy pct --no-coverage --schedules 300 --seed 6")
  done
done
cases+=("--structure gheap-td --mutant early-root-release --strategy portfolio --schedules 300 --seed 7"
        "--structure gheap-bu --mutant skip-partial-merge --strategy portfolio --schedules 300 --seed 8"
        "--structure gheap-td --threads 4 --strategy pct --schedules 300 --seed 9"
        "--structure gheap-bu --k 8 --threads 3 --strategy pct --schedules 200 --seed 10"
        "--structure psync --mutant psync-no-barrier --strategy portfolio --schedules 300 --seed 11"
        "--structure bucket-heap --mutant bucket-shift-in-place --strategy portfolio --schedules 300 --seed 12"
        "--structure merge --mutant merge-no-warp-sync --strategy portfolio --schedules 300 --seed 13"
        "--structure counter-array --strategy dpor --schedules 5000"
        "--structure slab-map --strategy dfs --preemptions 1 --ops 2 --schedules 2000")
for s in merge slab-map slab-set "slab-multimap --variant paper" "slab-multimap --variant fixed" psync \
         "bucket-heap --variant fixed" "bucket-heap --variant paper" counter-array; do
  cases+=("--structure $s --strategy portfolio --schedules 300 --seed 14"
          "--structure $s --strategy portfolio --memory ptx --schedules 200 --seed 15")
done

differ=0
for i in "${!cases[@]}"; do
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    # shellcheck disable=SC2086  # a case is its words
    "$bin" explore ${cases[$i]} --json 2>/dev/null |
      sed -E 's/"(sim|total)_seconds":[0-9.e+-]+,//g; s/"run":\{[^}]*\},//' >"$out/$side/$i.json" || true
  done
  if cmp -s "$out/old/$i.json" "$out/new/$i.json"; then
    echo "same     ${cases[$i]}"
  else
    echo "DIFFERS  ${cases[$i]}"
    differ=1
  fi
done
echo "${#cases[@]} cases, reports in $out/{old,new}"
exit $differ
