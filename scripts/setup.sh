#!/usr/bin/env bash
# Installs what gpulin builds with, from Debian's packages, where it is missing.
# nvcc (the CUDA toolkit) must already be on the machine.
set -euo pipefail
need=()
have_header() { [ -e "/usr/include/$1" ]; }
have_header boost/context/fiber.hpp || need+=(libboost-context-dev)
have_header rapidcheck.h            || need+=(librapidcheck-dev)
have_header gtest/gtest.h           || need+=(libgtest-dev)
have_header fmt/core.h              || need+=(libfmt-dev)
have_header simdjson.h              || need+=(libsimdjson-dev)
have_header CLI/CLI.hpp             || need+=(libcli11-dev)
have_header benchmark/benchmark.h   || need+=(libbenchmark-dev)
# explore --mpi and its test (tests/tools/mpi_explore_test.cpp) run under Open MPI.
have_header x86_64-linux-gnu/openmpi/mpi.h || need+=(libopenmpi-dev)
command -v mpirun >/dev/null        || need+=(openmpi-bin)
command -v cmake >/dev/null         || need+=(cmake)
command -v ninja >/dev/null         || need+=(ninja-build)
command -v g++ >/dev/null           || need+=(g++)
# The fuzz targets (fuzz/, scripts/fuzz.sh) are clang's libFuzzer; test.sh's build is
# clang's too, linked by lld (faster than GNU ld on its large sanitized programs).
command -v clang++ >/dev/null || need+=(clang)
command -v ld.lld >/dev/null || need+=(lld)
# The plots of bench/results (scripts/plot-results.py, tests/scripts/plot_results_test.sh).
/usr/bin/python3 -c "import matplotlib" 2>/dev/null || need+=(python3-matplotlib)
# gpulin render's pages are tested in headless Chromium (tests/render/browser_test.sh).
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -q
  $sudo_cmd apt-get install -y -q "${need[@]}"
fi
if ! command -v nvcc >/dev/null; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: add /usr/local/cuda/bin to PATH"
  else
    echo "setup: nvcc not found; install the CUDA toolkit" >&2
    exit 1
  fi
fi
