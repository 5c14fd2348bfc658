// `own-stack stress --structure lock-stack`: the lock stack on the GPU under a
// generated program, checked (the row's `stress`, tools/registry/stress_args.h).
#pragma once

#include <vector>

#include "tools/registry/stress_args.h"

namespace own {

// Exit code as history-format.md's: 0 pass, 1 a check failed, 2 bad input (and, as
// for gpulin stress, no CUDA device).
int run_lock_stack_stress(const gpulin::registry::StressArgs& a);
// Its options (the row's stress_params): blocks, threads, ops, spin-bound.
std::vector<gpulin::registry::Param> lock_stack_stress_params();

}  // namespace own
