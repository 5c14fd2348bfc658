// The general linearizability check: Wing and Gong's search with Lowe's
// memoisation, as in Porcupine. Exact; exponential in the worst case, so it runs
// under budgets (steps, memory, optionally wall-clock time) over the whole check
// and answers Undecided, naming the budget, when one runs out.
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
  // Budget: search steps over the whole check, all partitions together; 0 for
  // none. Every step counts (a new configuration, a memo hit, a backtrack), so
  // this is what bounds time. The default ends within about a minute on one
  // core of a 2-core development VM, measured at 0.3M steps/s (pq states of 240
  // keys) to 1.3M (40 keys) and 5.6M (a register); the slowest steps come with
  // the largest states, which the memory budget stops sooner.
  uint64_t max_steps = 20'000'000;
  // Budget: distinct (linearized set, state) configurations over the whole check;
  // 0 for none. Each step adds at most one, so it runs out as a step budget does
  // and is reported as BudgetExhausted::Steps. Kept for callers that bound the
  // memo's size rather than time; max_memory_bytes does that more directly.
  uint64_t max_states = 0;
  // Budget: bytes of the search's memo, all partitions in flight together; when
  // over, the largest gives up and the others go on (one may still show a
  // violation). 0 for none. An estimate, checked between slices of steps: the
  // allocator's overhead comes on top (about half as much again), and a memo
  // table that doubles may pass it briefly.
  size_t max_memory_bytes = size_t{1} << 30;
  // Wall-clock limit of the whole check in seconds; 0 for none. A backstop where
  // steps are slow (every check has a default bound in steps, bytes and seconds:
  // `gpulin check --seconds` has the same default); the witness checker's window
  // search sets its own, shorter one.
  double max_seconds = 300;
  // Keep each partition's linearization when the history is linearizable
  // (SearchResult::linearizations): for showing one (gpulin render).
  bool keep_linearizations = false;
  // Start from this model state instead of the model's initial one (the witness
  // checker's window around a failure starts where its replay stood).
  std::optional<State> initial_state;
};

// Which budget ended an Undecided search.
enum class BudgetExhausted { None, Steps, Memory, Time };

// "none", "steps", "memory", "time".
const char* to_string(BudgetExhausted b);

struct SearchResult {
  Verdict verdict = Verdict::Linearizable;
  BudgetExhausted budget = BudgetExhausted::None;  // set exactly when Undecided
  uint64_t steps = 0;            // search steps taken, all partitions
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
  // For Linearizable with SearchOptions::keep_linearizations: each partition's
  // linearization, op ids in order.
  std::vector<std::vector<int64_t>> linearizations;
  std::string message;  // one readable paragraph
};

// Checks h against the model its header names. Throws FormatError when the
// header or an operation does not fit the model.
SearchResult check_search(const History& h, const SearchOptions& options = {});

}  // namespace gpulin
