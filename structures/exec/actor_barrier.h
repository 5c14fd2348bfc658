// A barrier of every actor of a run, built from the context's shared-word
// operations (structures/exec/context.h): the bulk-synchronous steps of an
// application (the SSSP frontier loop's advance, insert and delete phases) run
// between two of them. On the GPU the actors must all be resident at once (a
// persistent grid, as every waiting program here); a barrier nobody completes is
// the watchdog's (CudaContext's bounded wait), in the simulator a deadlock.
//
// Sense by generation: an actor reads the generation BEFORE it arrives, so the
// value it waits to leave is the current phase's (the phase cannot end before its
// own arrival). The last to arrive resets the count, then advances the generation,
// so the next phase's arrivals never see the old count. The arrival and the
// generation are ordered operations: what an actor wrote before it arrived, every
// actor reads after it leaves.
#pragma once

#include <cstdint>

#include "common/host_device.h"
#include "structures/exec/waiting.h"

namespace gpulin::exec {

struct ActorBarrier {
  uint32_t* arrived = nullptr;     // actors arrived in this phase (0 between phases)
  uint32_t* generation = nullptr;  // phases completed
  uint32_t actors = 0;
};

template <class X>
GPULIN_HD void arrive_and_wait(X& x, const ActorBarrier& b) {
  const uint32_t generation = x.load(b.generation);
  if (x.fetch_add(b.arrived, 1u) == b.actors - 1) {
    x.store(b.arrived, 0u);
    x.store(b.generation, generation + 1);
  } else {
    x.wait_while_equals(b.generation, generation, exec::keeps_seen);  // released, not retried
  }
}

}  // namespace gpulin::exec
