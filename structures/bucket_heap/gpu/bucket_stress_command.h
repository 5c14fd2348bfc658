// `gpulin stress` for the bucket heap: its options (the row's stress_params) and the run
// with its report; the exit code as history-format.md's.
#pragma once

#include <vector>

#include "tools/registry/stress_args.h"

namespace gpulin::cli {

std::vector<registry::Param> bucket_stress_params();
int stress_bucket(const registry::StressArgs& a);

}  // namespace gpulin::cli
