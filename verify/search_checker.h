// The general linearizability check: Wing and Gong's search with Lowe's
// memoisation, as in Porcupine. Exact; exponential in the worst case, so it runs
// under a budget and answers Undecided when the budget runs out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "histories/history.h"
#include "verify/model.h"
#include "verify/verdict.h"

namespace gpulin {

struct SearchOptions {
  // Check each key's operations on their own (locality, Herlihy and Wing): exact,
  // and exponentially faster when keys interleave. Only where the model has keys.
  bool partition = true;
  // Budget, per partition: distinct (linearized set, state) configurations
  // explored; 0 for none.
  uint64_t max_states = 50'000'000;
  // Budget: bytes of the search's memo, all partitions in flight together (the
  // largest gives up first); 0 for none. An estimate: the allocator's overhead
  // comes on top, about half as much again.
  size_t max_memory_bytes = size_t{2} << 30;
  // Start from this model state instead of the model's initial one (the witness
  // checker's window around a failure starts where its replay stood).
  std::optional<State> initial_state;
};

struct SearchResult {
  Verdict verdict = Verdict::Linearizable;
  uint64_t states_explored = 0;  // configurations explored, all partitions
  size_t partitions = 1;
  // For NotLinearizable, from the (first) partition that has no linearization:
  // the longest sequence of op ids the search could linearize, in order;
  std::vector<int64_t> longest_prefix;
  // the model state after it;
  std::string state_after_prefix;
  // and the ops none of which could come next: first the op that responded
  // earliest (it had to be linearized by then), then the others it tried.
  std::vector<int64_t> stuck_ops;
  std::string message;  // one readable paragraph
};

// Checks h against the model its header names. Throws FormatError when the
// header or an operation does not fit the model.
SearchResult check_search(const History& h, const SearchOptions& options = {});

}  // namespace gpulin
