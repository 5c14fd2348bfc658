// `gpulin stress`'s options, as the command line set them; each structure's stress
// driver reads its own (registry rows' `stress`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tools/stress/bucket_stress.h"
#include "tools/stress/psync_stress.h"
#include "tools/stress/slab_stress.h"
#include "tools/stress/stress.h"

namespace gpulin::registry {

struct StressArgs {
  std::string structure = "gheap-td", variant = "fixed", mutant = "none", mix = "0.2,0.2,0.3,0.3", alloc = "light",
              recorder = "auto";
  stress::StressOptions o;
  stress::SlabStressOptions slab;
  stress::PsyncStressOptions psync;
  stress::BucketStressOptions bucket;
  std::optional<uint64_t> ops;  // --ops: the slab hash's mix or the bucket heap's program
  std::string gpus;             // --gpus: "" runs on the current GPU alone
};

}  // namespace gpulin::registry

namespace gpulin::cli {

// Each structure's `stress` run with its report (tools/cmd_stress.cpp); the exit
// code as history-format.md's.
int stress_heap(registry::StressArgs& a);
int stress_slab(registry::StressArgs& a);
int stress_psync(registry::StressArgs& a);
int stress_bucket(registry::StressArgs& a);

}  // namespace gpulin::cli
