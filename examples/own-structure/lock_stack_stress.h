// `own-stack stress --structure lock-stack`: the lock stack on the GPU under a
// generated program, checked (the row's `stress`, tools/registry/stress_args.h).
#pragma once

#include "tools/registry/stress_args.h"

namespace own {

// Exit code as history-format.md's: 0 pass, 1 a check failed, 2 bad input (and, as
// for gpulin stress, no CUDA device).
int run_lock_stack_stress(gpulin::registry::StressArgs& a);

}  // namespace own
