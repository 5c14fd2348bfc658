#!/usr/bin/env bash
# Builds everything and runs the tests: CPU tests everywhere; GPU tests (label
# gpu) skip with a message where no device exists.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
