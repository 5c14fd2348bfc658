// The search's model states, each stored once and named by a 32-bit id (the
// cache then compares ids, not states), and a memo of recent transitions: the
// search retries the same op from the same state each time it backtracks there.
// The memo is a small direct-mapped table per op rather than one big hash map,
// because most lookups miss and a miss in a big map costs a cache miss each.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "verify/model.h"
#include "verify/search/flat_table.h"

namespace gpulin {

class StateTable {
 public:
  // `ops` is the number of ops the search numbers 0..ops-1.
  StateTable(const Model& model, size_t ops) : model_(model), memo_(ops * kWays) {}

  uint32_t intern(State s);
  const State& state(uint32_t id) const { return states_[id]; }
  size_t size() const { return states_.size(); }

  // The ids of the states `op` (the search's op number `op_key`) leads to from
  // state `id`: none or one for a completed op (none when its result does not
  // fit), one or more for a pending op. Valid until the next call.
  std::span<const uint32_t> successors(uint32_t id, uint32_t op_key, const Operation& op);

  size_t bytes() const;

 private:
  static constexpr size_t kWays = 8;
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Memo {
    uint32_t state = kNone;
    uint32_t count = 0;
    uint32_t first = 0;  // the successor itself when count <= 1, else its index in succ_
  };

  const Model& model_;
  std::vector<State> states_;
  FlatTable by_hash_;  // state hash -> id
  std::vector<Memo> memo_;
  std::vector<uint32_t> succ_;  // successor lists of pending ops (several states)
  std::vector<State> scratch_;
  size_t state_bytes_ = 0;
};

}  // namespace gpulin
