// A block actor's private memory kept by its runner from one run to the next: the
// regions (their shadow words and owned memory) and the records of its barrier
// phases' codes. An explorer runs every actor of every schedule afresh, and making
// these anew each time (each allocated, and freed at the actor's end) was a part of
// each run; a SimContext given one takes its storage at the start and gives it back
// at its end. What a run sees is as if made anew: each region it makes is remade
// (sim/private_memory/private_ptr.h, PrivateRegion::remake) with its words and
// shadow zeroed, and each code is written before it is read.
#pragma once

#include <memory>
#include <vector>

#include "sim/private_memory/barrier_phases.h"
#include "sim/private_memory/private_ptr.h"

namespace gpulin::sim {

struct KeptPrivateMemory {
  std::vector<std::unique_ptr<PrivateRegion>> regions;  // the last run's, in the order it made them
  std::vector<BarrierPhases::Code> codes;
};

}  // namespace gpulin::sim
