// The header of a knapsack search's heap history (the simulator's run and the
// GPU's alike): model pq-batch with the heap's k, the heap's rule, the instance.
#pragma once

#include <cstdint>
#include <string>

#include "apps/knapsack/instance.h"
#include "histories/history.h"

namespace gpulin::knapsack {

inline Header history_header(const Instance& in, uint32_t k, const std::string& lp_rule) {
  Header header;
  header.model = "pq-batch";
  header.params = Value::object({{"k", Value::integer(k)}});
  header.lp_rule = lp_rule;
  header.extra.emplace_back("source", "\"gpulin knapsack\"");
  std::string name;
  append_json_string(name, in.name);
  header.extra.emplace_back("instance", name);
  return header;
}

}  // namespace gpulin::knapsack
