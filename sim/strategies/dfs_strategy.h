// Systematic search with a preemption bound (Musuvathi and Qadeer's iterative
// context bounding): every schedule with at most `bound` preemptions, in depth-first
// order, by re-running from the start with a replayed prefix (stateless model
// checking). A preemption is a pick of another actor while the current one could
// still run; switching away from a blocked or finished actor is free. Exhaustive for
// the bound when exhausted() turns true.
#pragma once

#include <vector>

#include "sim/strategy.h"

namespace gpulin::sim {

class DfsStrategy final : public Strategy {
 public:
  explicit DfsStrategy(uint32_t preemption_bound) : bound_(preemption_bound) {}

  bool begin_run(uint32_t) override {
    if (!started_) {
      started_ = true;
      return true;
    }
    // Backtrack to the deepest decision with an untried alternative within the bound.
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      for (ActorSet s = f.runnable & ~f.tried; s; s &= s - 1) {
        uint32_t alt = lowest(s);
        f.tried |= ActorSet(1) << alt;
        if (f.preemptions_before + cost(f, alt) <= bound_) {
          f.chosen = alt;
          return true;
        }
      }
      stack_.pop_back();
    }
    exhausted_ = true;
    return false;
  }

  uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) override {
    if (step < stack_.size()) return stack_[step].chosen;  // the replayed prefix
    Frame f;
    f.runnable = runnable;
    f.current = current;
    f.preemptions_before = stack_.empty() ? 0 : stack_.back().preemptions_before + cost(stack_.back(), stack_.back().chosen);
    f.chosen = contains(runnable, current) ? current : lowest(runnable);
    f.tried = ActorSet(1) << f.chosen;
    stack_.push_back(f);
    return f.chosen;
  }

  void end_run(uint64_t decisions) override {
    // A run that ended early (deadlock, fault) leaves no deeper frames to keep.
    if (stack_.size() > decisions) stack_.resize(decisions);
  }
  std::string name() const override { return "dfs"; }
  bool exhausted() const override { return exhausted_; }

 private:
  struct Frame {
    ActorSet runnable = 0;
    ActorSet tried = 0;
    uint32_t current = 0;
    uint32_t chosen = 0;
    uint32_t preemptions_before = 0;
  };
  static uint32_t cost(const Frame& f, uint32_t pick) {
    return contains(f.runnable, f.current) && pick != f.current ? 1 : 0;
  }

  uint32_t bound_;
  bool started_ = false;
  bool exhausted_ = false;
  std::vector<Frame> stack_;
};

}  // namespace gpulin::sim
