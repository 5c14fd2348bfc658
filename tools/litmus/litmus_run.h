// Runs a litmus test through the simulator under the ptx memory model
// (sim/memory/ptx_memory.h), exhaustively: depth-first over every interleaving of
// the threads' instructions and every store each load may read (both are the
// simulator's decisions), with no bound. Each thread is an actor; each of its memory
// operations after its first is a scheduling point (litmus_run.cpp says why).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/memory/memory_mode.h"
#include "tools/litmus/litmus_test.h"

namespace gpulin::litmus {

struct LitmusResult {
  bool holds = false;     // the test's own condition (exists: reachable; ~exists, forall: in every execution)
  bool complete = false;  // every execution was explored (false: the run budget ran out first)
  uint64_t executions = 0;
  uint64_t hung = 0;  // executions in which a barrier never released (not judged)
  // Every execution hung at a barrier: no final state to judge, and `holds` is false.
  bool always_hangs() const { return complete && executions > 0 && hung == executions; }
  // An execution that decides the verdict: one reaching an exists' state, or one
  // breaking a ~exists or a forall; empty when none.
  std::vector<uint32_t> witness;
  bool has_witness = false;
  uint64_t distinct_outcomes = 0;  // final states (registers and locations) seen
};

using sim::memory::MemoryMode;

// Under MemoryMode::Sc every load reads the newest store (no read is a decision):
// the outcomes a sequentially consistent machine reaches, to set beside ptx's.
LitmusResult run_litmus(const LitmusTest& test, uint64_t max_executions, MemoryMode memory = MemoryMode::Ptx);

// One execution of `test` replaying `picks` (a witness): what each instruction did,
// a line each ("P1 ld.acquire.gpu r0, y  -> 1 (P0's store 1 of y)"), then the final
// state and whether the condition's proposition held. Throws std::runtime_error when
// the picks do not fit the test.
std::string describe_execution(const LitmusTest& test, const std::vector<uint32_t>& picks,
                               MemoryMode memory = MemoryMode::Ptx);

}  // namespace gpulin::litmus
