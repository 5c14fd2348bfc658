// The header of a generalized heap's history (model pq-batch, the heap's k and
// linearization rule), with named string fields telling where it came from: the
// applications' runs on the heap (knapsack, the SSSP frontier loop) share it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "histories/history.h"

namespace gpulin {

inline Header pq_batch_header(uint32_t k, const std::string& lp_rule,
                              const std::vector<std::pair<std::string, std::string>>& strings) {
  Header header;
  header.model = "pq-batch";
  header.params = Value::object({{"k", Value::integer(k)}});
  header.lp_rule = lp_rule;
  for (const auto& [name, text] : strings) {
    std::string json;
    append_json_string(json, text);
    header.extra.emplace_back(name, json);
  }
  return header;
}

}  // namespace gpulin
