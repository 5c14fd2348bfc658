#!/usr/bin/env bash
# On the lent GPU machine (16 cores, no Open MPI installed, no network, root): the
# scaling of `gpulin explore --mpi` over 1, 2, 4, 8 and 16 ranks against the
# unsharded run, on the issue's search (DFS, 3 actors x 3 operations, preemption
# bound 2; EXPLORE_ARGS replaces it, RANKS the rank counts, REPEATS the rounds whose
# medians the table shows, default 3). Checks that every run
# counts the same schedules, distinct histories and failures, and prints a table:
# wall time of mpirun (start-up included) and the exploration's own time (the
# slowest rank), each with its speed-up over the unsharded run, and beside them the
# same split as independent processes without MPI, and the machine's own bound: N
# copies of the whole search at once, each slower than one alone (the "bound" column
# is N x one copy's time / their mean time). Results go to $OUT (or out/device).
#
# Open MPI travels as Debian packages: run scripts/fetch-device-debs.sh here first,
# then carry .debs; they are unpacked with dpkg -x into a prefix, and OPAL_PREFIX
# tells Open MPI where it lives. gpulin is built with MPI in build-mpi (only the
# gpulin target; a later call on the same machine reuses it, so a build that
# outlasts one 10-minute call goes on in the next), unless GPULIN names a gpulin
# already built with MPI (BUILD_ONLY=1 builds it and stops).
# BIND=core (the default) pins each rank to a core of its own (mpirun --bind-to
# core), and the unsharded run, each shard and each copy to a core too (taskset),
# so that every column is measured alike; BIND=none leaves placement to the kernel
# (on the H100 machine's host the unsharded run then took 0.88 to 1.34 s from one
# round to the next).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out/device}"
mkdir -p "$out"
args="${EXPLORE_ARGS:---actors 3 --ops 3 --strategy dfs --preemptions 2 --schedules 100000000}"
ranks="${RANKS:-1 2 4 8 16}"

prefix=/tmp/gpulin-deps
mkdir -p "$prefix"
for f in .debs/*.deb; do dpkg -x "$f" "$prefix"; done
mpi="$prefix/usr"
if [ ! -x "$mpi/bin/mpirun.openmpi" ]; then
  echo "no Open MPI among the carried packages: run scripts/fetch-device-debs.sh here and carry .debs" >&2
  exit 2
fi
# Debian's alternatives (mpirun, mpicxx) are not made by dpkg -x: the .openmpi names.
export OPAL_PREFIX="$mpi"
export PATH="$mpi/bin:$PATH:/usr/local/cuda/bin"
export LD_LIBRARY_PATH="$mpi/lib/x86_64-linux-gnu:$mpi/lib/libpsm1:${LD_LIBRARY_PATH:-}"
export GPULIN_DEPS_PREFIX="$prefix"
# Root, one node, no network: shared memory between ranks, nothing else probed; the
# isolated launcher, since without an ssh client the default one refuses to start
# ("plm_rsh_agent: ssh : rsh ... could not be found", tried here with ssh hidden).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f\n", b - a }'; }

build_gpulin() {
  echo "== build (build-mpi, gpulin only)"
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  cmake -S . -B build-mpi "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DGPULIN_BUILD_TESTS=OFF -DGPULIN_BUILD_BENCH=OFF \
    -DCMAKE_PREFIX_PATH="$prefix/usr;$prefix/usr/lib/x86_64-linux-gnu/cmake" \
    -DMPI_CXX_COMPILER="$mpi/bin/mpicxx.openmpi" -DMPIEXEC_EXECUTABLE="$mpi/bin/mpirun.openmpi" \
    >"$out/mpi-configure.log" 2>&1 || { tail -30 "$out/mpi-configure.log"; exit 2; }
  cmake --build build-mpi -j"$(nproc)" --target gpulin >"$out/mpi-build.log" 2>&1 ||
    { grep -E "error" "$out/mpi-build.log" | head -30; tail -20 "$out/mpi-build.log"; exit 2; }
}
gpulin="${GPULIN:-build-mpi/tools/gpulin}"
[ -n "${GPULIN:-}" ] || build_gpulin
[ -n "${BUILD_ONLY:-}" ] && { echo "built $gpulin"; exit 0; }
bind="${BIND:-core}"
case "$bind" in none | core) ;; *) echo "BIND is none or core, not $bind" >&2; exit 2 ;; esac
on_core() {  # CORE COMMAND...: the command, on that core when BIND=core
  local c=$1
  shift
  if [ "$bind" = core ]; then taskset -c "$c" "$@"; else "$@"; fi
}
# A gpulin built without MPI refuses --mpi: say why before timing anything.
ldd "$gpulin" | grep -q "libmpi\.so" || {
  echo "$gpulin is not linked with Open MPI (did CMake find the unpacked one?)"
  grep -i mpi "$out/mpi-configure.log" 2>/dev/null | tail
  exit 2
}
# REPEATS rounds (default 3), each the unsharded run and every rank count, in turn,
# so that the machine's drift reaches all alike; the table takes medians.
repeats="${REPEATS:-3}"
echo "== explore $args ($repeats rounds)"
for rep in $(seq 1 "$repeats"); do
  t0=$(now)
  # shellcheck disable=SC2086
  on_core 0 "$gpulin" explore $args --json >"$out/mpi-whole-$rep.json" 2>"$out/mpi-whole.err"
  code=$?
  since "$t0" >"$out/mpi-whole-$rep.seconds"
  [ "$code" -le 1 ] || { cat "$out/mpi-whole.err"; exit 2; }
  for n in $ranks; do
    echo "== round $rep: mpirun -np $n"
    t0=$(now)
    # shellcheck disable=SC2086
    mpirun.openmpi -np "$n" --oversubscribe --bind-to "$bind" "$gpulin" explore $args --mpi --json \
      >"$out/mpi-$n-$rep.json" 2>"$out/mpi-$n.err"
    echo "rc=$? $(since "$t0")" >"$out/mpi-$n-$rep.seconds"
  done
done

# The same split without MPI: N independent processes, one static shard each
# (`--shard i/N`), started together; the slowest one's time. It tells the machine's
# own parallel capacity (shared cores, clocks) apart from what MPI adds.
for n in $ranks; do
  t0=$(now)
  for i in $(seq 1 "$n"); do
    # shellcheck disable=SC2086
    on_core $((i - 1)) "$gpulin" explore $args --shard "$i/$n" --json >"$out/shard-$n-$i.json" 2>/dev/null &
  done
  wait
  echo "$(since "$t0")" >"$out/shards-$n.seconds"
done
# N copies of the whole unsharded search at once: how much slower each runs than
# one alone (clocks, shared caches) bounds what any split can gain on N cores.
for n in $ranks; do
  for i in $(seq 1 "$n"); do
    ( t=$(now)
      # shellcheck disable=SC2086
      on_core $((i - 1)) "$gpulin" explore $args --json >/dev/null 2>&1
      since "$t" >"$out/copies-$n-$i.seconds" ) &
  done
  wait
done
lscpu 2>/dev/null | grep -E "^(CPU\(s\)|Thread|Core|Socket|Model name)" >"$out/lscpu.txt"

python3 - "$out" "$repeats" $ranks <<'PY'
import json, os, statistics, sys
out, repeats, ranks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
fields = ["schedules", "histories", "violations", "invariant_failures", "deadlocks", "livelocks", "faults",
          "races", "proof_point_failures", "undecided", "exhaustive"]
reps = range(1, repeats + 1)
wholes = [json.load(open(f"{out}/mpi-whole-{k}.json")) for k in reps]
whole = wholes[0]
whole_wall = statistics.median(float(open(f"{out}/mpi-whole-{k}.seconds").read()) for k in reps)
whole_run = statistics.median(w["total_seconds"] for w in wholes)
print(f"placement: {os.environ.get('BIND', 'core')}")
print(f"unsharded: {whole['schedules']} schedules, {whole['histories']} distinct histories, "
      f"exhaustive={whole['exhaustive']}; medians of {repeats} rounds: {whole_wall:.2f} s wall, "
      f"{whole_run:.2f} s exploring")
print(open(f"{out}/lscpu.txt").read().strip())
print(f"{'ranks':>5} {'wall s':>8} {'speed-up':>8} {'explore s':>9} {'speed-up':>8} {'shards s':>8} {'speed-up':>8} "
      f"{'copies s':>8} {'bound':>7}  counts")
bad = False
for n in ranks:
    walls, runs, failed = [], [], False
    for k in reps:
        rc, wall = open(f"{out}/mpi-{n}-{k}.seconds").read().split()
        try:
            r = json.load(open(f"{out}/mpi-{n}-{k}.json"))
        except ValueError:
            print(f"{n:>5} failed ({rc}) in round {k}; see {out}/mpi-{n}.err:")
            print(open(f"{out}/mpi-{n}.err").read()[-2000:])
            failed = True
            break
        same = all(r[f] == whole[f] for f in fields)
        if not same:
            print(f"{n:>5} round {k} differs: " + ", ".join(f"{f} {r[f]} vs {whole[f]}" for f in fields if r[f] != whole[f]))
            failed = True
        walls.append(float(wall))
        runs.append(r["total_seconds"])
    bad |= failed
    if not walls:
        continue
    wall, run = statistics.median(walls), statistics.median(runs)
    shards = float(open(f"{out}/shards-{n}.seconds").read())
    copies = [float(open(f"{out}/copies-{n}-{i}.seconds").read()) for i in range(1, int(n) + 1)]
    copy_mean = sum(copies) / len(copies)
    print(f"{n:>5} {wall:>8.2f} {whole_wall / wall:>7.2f}x {run:>9.2f} {whole_run / run:>7.2f}x "
          f"{shards:>8.2f} {whole_wall / shards:>7.2f}x {copy_mean:>8.2f} {int(n) * whole_wall / copy_mean:>6.2f}x  "
          f"{'NOT EQUAL' if failed else 'equal'}")
sys.exit(1 if bad else 0)
PY
