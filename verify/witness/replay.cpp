#include "verify/witness/replay.h"

namespace gpulin {
namespace {

void add_unique(std::vector<State>& states, State s) {
  for (const State& t : states)
    if (t.hash() == s.hash() && t == s) return;
  states.push_back(std::move(s));
}

}  // namespace

Replay replay(const History& h, const Model& model, const std::vector<size_t>& order, size_t count) {
  Replay r;
  r.states.push_back(model.initial_state());
  std::vector<State> next, scratch;
  for (; r.done < count; ++r.done) {
    const Operation& op = h.ops[order[r.done]];
    if (op.pending()) {
      next.clear();
      for (const State& s : r.states) {
        scratch.clear();
        model.apply_pending(s, op, scratch);
        for (State& t : scratch) add_unique(next, std::move(t));
      }
      if (next.size() > kMaxReplayStates) {
        next.resize(kMaxReplayStates);
        r.capped = true;
      }
      r.states.swap(next);
    } else if (r.states.size() == 1) {  // the common case: in place, no copies
      if (!model.apply(r.states[0], op)) {
        r.failed = true;
        return r;
      }
    } else {
      next.clear();
      for (State& s : r.states) {
        State t = s;
        if (model.apply(t, op)) add_unique(next, std::move(t));
      }
      if (next.empty()) {
        r.failed = true;
        return r;
      }
      r.states.swap(next);
    }
  }
  return r;
}

}  // namespace gpulin
