// Replays a recorded schedule. Strict replay (the default) reproduces a run exactly
// and reports a divergence; lenient replay (used while shrinking a failing program,
// where the schedule no longer fits exactly) falls back to running the current actor.
#pragma once

#include <stdexcept>
#include <vector>

#include "sim/strategy.h"

namespace gpulin::sim {

class ReplayStrategy final : public Strategy {
 public:
  ReplayStrategy(std::vector<uint32_t> picks, bool strict) : picks_(std::move(picks)), strict_(strict) {}
  bool begin_run(uint32_t) override {
    if (used_) return false;
    used_ = true;
    return true;
  }
  uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) override {
    if (step < picks_.size() && contains(runnable, picks_[step])) return picks_[step];
    if (strict_)
      throw std::runtime_error("schedule does not fit this program: decision " + std::to_string(step) +
                               (step < picks_.size() ? " picks a blocked actor" : " is past its end"));
    return contains(runnable, current) ? current : lowest(runnable);
  }
  std::string name() const override { return "replay"; }

 private:
  std::vector<uint32_t> picks_;
  bool strict_;
  bool used_ = false;
};

}  // namespace gpulin::sim
