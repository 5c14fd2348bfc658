#!/usr/bin/env bash
# Sourced by the lent GPU machine's scripts (device.sh, device-profile.sh) from the
# repository root with $out set: unpacks the carried Debian packages (.debs/) into a
# prefix, sets the environment, and configures build-gpu for sm_90 (Release).
prefix=/tmp/gpulin-deps
mkdir -p "$prefix"
for f in .debs/*.deb; do dpkg -x "$f" "$prefix"; done
export GPULIN_DEPS_PREFIX="$prefix"
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
export PATH="$PATH:/usr/local/cuda/bin"
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S . -B build-gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_PREFIX_PATH="$prefix/usr;$prefix/usr/lib/x86_64-linux-gnu/cmake" >"$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log"; exit 2; }
