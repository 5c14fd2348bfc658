#!/usr/bin/env bash
# Downloads (here, with network) the Debian packages the GPU machine lacks into
# .debs/ (git-ignored); `device` carries it and scripts/device.sh unpacks it.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .debs && cd .debs
apt-get download libgtest-dev librapidcheck-dev libboost-context1.74-dev libboost-context1.74.0 libboost1.74-dev \
  libboost-context-dev libfmt-dev libfmt9 libsimdjson-dev libsimdjson14 libcli11-dev libbenchmark-dev libbenchmark1debian
