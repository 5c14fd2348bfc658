#!/usr/bin/env bash
# Downloads (here, with network) the Debian packages the GPU machine lacks into
# .debs/ (git-ignored); `device` carries it and scripts/device.sh unpacks it.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .debs && cd .debs
apt-get download libgtest-dev librapidcheck-dev libboost-context1.74-dev libboost-context1.74.0 libboost1.74-dev \
  libboost-context-dev libfmt-dev libfmt9 libsimdjson-dev libsimdjson14 libcli11-dev libbenchmark-dev libbenchmark1debian
# Open MPI for explore --mpi (scripts/device-mpi-scaling.sh): the runtime, the
# headers and compiler-wrapper data (libopenmpi-dev) and the shared libraries
# libmpi, libopen-pal, libopen-rte and their components load (found with
# apt-cache depends and ldd). The C library, libstdc++, zlib and libudev are left to
# the machine's own, newer ones.
apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libevent-core-2.1-7 libevent-pthreads-2.1-7 \
  libhwloc15 libpmix2 libfabric1 libibverbs1 ibverbs-providers librdmacm1 libnl-3-200 libnl-route-3-200 libnuma1 \
  libpsm-infinipath1 libpsm2-2 libucx0 libmunge2
