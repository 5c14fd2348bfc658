// The checks of a heap with no operation in flight, shared by the simulator
// harness (every quiescent point) and the GPU stress run (the end): no lock held,
// every node outside the heap empty (MAX_VALUE), and the generalized heap
// properties 1-3 (structures/gheap/sim/gheap_invariant.h).
#pragma once

#include <optional>
#include <string>

#include "structures/gheap/config.h"
#include "structures/gheap/heap_image.h"

namespace gpulin::explore {

// Built for the heap's key types on the GPU, uint32_t and uint64_t.
template <class Key>
std::optional<std::string> check_heap_at_rest(const gheap::HeapImage<Key>& img, gheap::Mutant mutant);

}  // namespace gpulin::explore
