#include "verify/search/state_table.h"

namespace gpulin {

uint32_t StateTable::intern(State s) {
  const uint64_t h = s.hash();
  uint32_t found = 0;
  if (by_hash_.find_if(h, [&](uint64_t id) {
        found = static_cast<uint32_t>(id);
        return states_[id] == s;
      }))
    return found;
  const auto id = static_cast<uint32_t>(states_.size());
  state_bytes_ += s.bytes();
  states_.push_back(std::move(s));
  by_hash_.insert(h, id);
  return id;
}

std::span<const uint32_t> StateTable::successors(uint32_t id, uint32_t op_key, const Operation& op) {
  Memo& m = memo_[op_key * kWays + (mix64(id) & (kWays - 1))];
  if (m.state != id) {
    m.state = id;
    if (op.pending()) {
      scratch_.clear();
      model_.apply_pending(states_[id], op, scratch_);
      std::vector<uint32_t> ids;
      for (State& s : scratch_) ids.push_back(intern(std::move(s)));
      m.count = static_cast<uint32_t>(ids.size());
      if (ids.size() == 1) {
        m.first = ids[0];
      } else {
        m.first = static_cast<uint32_t>(succ_.size());
        succ_.insert(succ_.end(), ids.begin(), ids.end());
      }
    } else {
      State next = states_[id];
      m.count = model_.apply(next, op) ? 1 : 0;
      if (m.count) m.first = intern(std::move(next));
    }
  }
  if (m.count <= 1) return {&m.first, m.count};
  return {succ_.data() + m.first, m.count};
}

size_t StateTable::bytes() const {
  return state_bytes_ + states_.capacity() * sizeof(State) + by_hash_.bytes() + memo_.capacity() * sizeof(Memo) +
         succ_.capacity() * sizeof(uint32_t);
}

}  // namespace gpulin
