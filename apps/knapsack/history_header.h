// The header of a knapsack search's heap history (the simulator's run and the
// GPU's alike): model pq-batch with the heap's k, the heap's rule, the instance.
#pragma once

#include <cstdint>
#include <string>

#include "apps/knapsack/instance.h"
#include "histories/pq_batch_header.h"

namespace gpulin::knapsack {

inline Header history_header(const Instance& in, uint32_t k, const std::string& lp_rule) {
  return pq_batch_header(k, lp_rule, {{"source", "gpulin knapsack"}, {"instance", in.name}});
}

}  // namespace gpulin::knapsack
