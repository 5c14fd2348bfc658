// `gpulin check` on histories the lean KeyHistory holds, at scale: read by the
// keys-only reader (histories/key_history_reader.h), then
//   pq-batch / pq with an lp_rule  -> the per-key rule-ordered check (all cores),
//     which decides a pass only (verify/pq_linear/lean_witness.h);
//   pq / pq-batch without one, distinct keys -> the polynomial distinct-key checker;
//   map / set / multimap with an lp_rule -> the keyed check (all cores): each key's
//     operations replayed in the rule's order, and the keys where that fails
//     decided by the search on their operations alone (auto), or reported as the
//     rule's failure (witness);
//   map / set / multimap without one (no lp events: recorded by warp rounds), auto
//     -> the same with each key's operations in the order of their rets.
// Returns nullopt when none of these decides (another model, strings for keys, a
// pending pq delete, duplicate keys without a rule, a pq history whose rule order
// fails, --method search) or the input is malformed: the caller then runs the
// generic path (DOM reader, witness replay, search), which also names any
// malformed line or op the model does not take.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "verify/search_checker.h"

namespace gpulin::cli {

struct KeyedCheckArgs {
  std::string file;
  std::string method;  // auto | search | witness
  bool json = false;
  SearchOptions search;          // budgets of a search on the keys where the rule fails
  size_t minimise_max_ops = 200; // a failing key's operations are minimised up to this many
};

// The exit code when decided here (0, 1 or 3), nullopt otherwise.
std::optional<int> check_keyed(const KeyedCheckArgs& a);

}  // namespace gpulin::cli
