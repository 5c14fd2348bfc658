#!/usr/bin/env bash
# compute-sanitizer's racecheck over the BU heap's kernels (recorded and not): no
# shared-memory hazard. The fixed BU insert once scanned its ancestors' maxima in
# the scratch the next merge writes, with no barrier between (docs/findings.md M3);
# racecheck reported it as thousands of warp-level WAR hazards. Exit 77 (skipped)
# without a device or without compute-sanitizer.
# Usage: racecheck_gheap_test.sh GPULIN
set -uo pipefail
gpulin="$1"
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
if ! nvidia-smi -L 2>/dev/null | grep -q "^GPU"; then echo "no CUDA device: GPU test skipped"; exit 77; fi
if [ ! -x "$sanitizer" ]; then echo "no compute-sanitizer: GPU test skipped"; exit 77; fi
status=0
# k = 4: a heap deeper than k + 1 levels, so the ancestors are read in several
# rounds; k = 64: one round. Small runs (racecheck slows a kernel a hundredfold):
# without the fix each of the four runs reports hundreds of hazards (H200).
for args in "--k 64 --keys 4096 --blocks 8 --threads 128" "--k 4 --keys 1024 --blocks 8 --threads 64"; do
  for record in "" --record; do
    log="$(mktemp)"
    "$sanitizer" --tool racecheck --racecheck-report hazard --print-limit 20 \
      "$gpulin" stress --structure gheap-bu $args $record >"$log" 2>&1
    rc=$?
    summary="$(grep "RACECHECK SUMMARY" "$log")"
    echo "$args ${record:-unrecorded}: exit $rc; $summary"
    if [ $rc -ne 0 ] || ! grep -q "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" <<<"$summary"; then
      grep -E "hazard detected|(Read|Write) Thread" "$log" | head -8
      status=1
    fi
    rm -f "$log"
  done
done
exit $status
