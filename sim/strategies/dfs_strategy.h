// Systematic search with a preemption bound (Musuvathi and Qadeer's iterative
// context bounding): every schedule with at most `bound` preemptions, in depth-first
// order, by re-running from the start with a replayed prefix (stateless model
// checking). A preemption is a pick of another actor while the current one could
// still run; switching away from a blocked or finished actor is free. Exhaustive for
// the bound when exhausted() turns true.
//
// Given a prefix of picks, the search stays inside the subtree below it: the first
// decisions replay the prefix and are never backtracked. Subtrees of distinct
// prefixes, none a prefix of another, are disjoint; a frontier of them that covers
// the tree splits the search into parts whose union is exactly the whole search
// (tools/explore/work_units.h), which is how explore is sharded.
#pragma once

#include <utility>
#include <vector>

#include "sim/strategy.h"

namespace gpulin::sim {

class DfsStrategy final : public Strategy {
 public:
  explicit DfsStrategy(uint32_t preemption_bound, std::vector<uint32_t> prefix = {})
      : bound_(preemption_bound), prefix_(std::move(prefix)) {}

  // A branch of the frontier: a pick at the decision `step` and its cost.
  struct Branch {
    uint32_t pick = 0;
    uint32_t preemptions = 0;  // used by the prefix up to and including this pick
  };
  // After a run: the picks at decision `step` that stay within the bound, in the
  // order this search tries them (the default first, then by actor); empty when the
  // run made no decision `step`.
  std::vector<Branch> branches_at(uint64_t step) const {
    std::vector<Branch> out;
    if (step >= stack_.size()) return out;
    const Frame& f = stack_[step];
    const uint32_t first = contains(f.runnable, f.current) ? f.current : lowest(f.runnable);
    auto add = [&](uint32_t a) {
      const uint32_t used = f.preemptions_before + cost(f, a);
      if (used <= bound_) out.push_back({a, used});
    };
    add(first);
    for (ActorSet s = f.runnable & ~(ActorSet(1) << first); s; s &= s - 1) add(lowest(s));
    return out;
  }
  // Decisions the last run made.
  uint64_t decisions() const { return decisions_; }

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
    const bool fixed = step < prefix_.size();
    f.runnable = runnable;
    f.current = current;
    f.preemptions_before = stack_.empty() ? 0 : stack_.back().preemptions_before + cost(stack_.back(), stack_.back().chosen);
    f.chosen = fixed ? prefix_[step] : contains(runnable, current) ? current : lowest(runnable);
    // A decision of the fixed prefix has no alternative left to try.
    f.tried = fixed ? runnable : ActorSet(1) << f.chosen;
    stack_.push_back(f);
    return f.chosen;
  }

  void end_run(uint64_t decisions) override {
    decisions_ = decisions;
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
  std::vector<uint32_t> prefix_;
  uint64_t decisions_ = 0;
  bool started_ = false;
  bool exhausted_ = false;
  std::vector<Frame> stack_;
};

}  // namespace gpulin::sim
