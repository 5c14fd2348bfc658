#!/usr/bin/env bash
# Builds everything and runs the tests: CPU tests everywhere; GPU tests (label
# gpu) skip with a message where no device exists; then the CPU suite again under
# ASan + UBSan (scripts/sanitize.sh; GPULIN_SANITIZE_SUITE=0 skips it); then the fuzz
# targets, each for GPULIN_FUZZ_SECONDS (default 30; 0 skips them) from their seed
# corpora (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
if [ "${GPULIN_SANITIZE_SUITE:-1}" != 0 ]; then bash scripts/sanitize.sh; fi
if [ "${GPULIN_FUZZ_SECONDS:-30}" != 0 ]; then bash scripts/fuzz.sh "${GPULIN_FUZZ_SECONDS:-30}"; fi
