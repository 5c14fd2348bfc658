// `gpulin check` on keys-only histories (pq, pq-batch) at scale: read into the
// lean KeyHistory (keys-only reader), then
//   pq-batch / pq with an lp_rule  -> the per-key rule-ordered check (all cores);
//   pq / pq-batch without one, distinct keys -> the polynomial distinct-key checker.
// Returns nullopt when neither decides (another model, a pending delete, duplicate
// keys without a rule, a method other than auto/witness): the caller then runs the
// generic path (DOM reader, witness replay, search).
#pragma once

#include <optional>
#include <string>

namespace gpulin::cli {

struct KeyedCheckArgs {
  std::string file;
  std::string method;  // auto | search | witness
  bool json = false;
};

// The exit code when decided here (0, 1, 2 for bad input), nullopt otherwise.
std::optional<int> check_keyed(const KeyedCheckArgs& a);

}  // namespace gpulin::cli
