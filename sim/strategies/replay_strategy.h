// Replays a recorded schedule. Strict replay (the default) reproduces a run exactly
// and reports a divergence; lenient replay (used while shrinking a failing program,
// where the schedule no longer fits exactly) falls back to running the current actor,
// and to the default value of a choice. Without its choices (`without_choices`), a
// schedule of a run under the ptx memory mode replays the same interleaving under
// sc, where there is nothing to choose.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "sim/strategy.h"

namespace gpulin::sim {

class ReplayStrategy final : public Strategy {
 public:
  // A schedule with no choice at all (a run under sc, or one under ptx where no
  // load had an older store to read) gives every choice the default, the newest
  // store, without consuming a pick: an sc run replays under ptx as it ran.
  ReplayStrategy(std::vector<uint32_t> picks, bool strict)
      : picks_(std::move(picks)), strict_(strict), default_choices_(std::none_of(picks_.begin(), picks_.end(), is_choice)) {}
  // The same schedule without its choices: a run under ptx replayed under sc.
  static std::vector<uint32_t> without_choices(std::vector<uint32_t> picks) {
    std::erase_if(picks, is_choice);
    return picks;
  }
  bool begin_run(uint32_t) override {
    if (used_) return false;
    used_ = true;
    return true;
  }
  uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) override {
    const size_t i = next_++;
    if (i < picks_.size() && !is_choice(picks_[i]) && contains(runnable, picks_[i])) return picks_[i];
    if (strict_)
      throw std::runtime_error("schedule does not fit this program: decision " + std::to_string(step) +
                               (i >= picks_.size()       ? " is past its end"
                                : is_choice(picks_[i]) ? " is a choice of a value where the run picks an actor"
                                                       : " picks a blocked actor"));
    return contains(runnable, current) ? current : lowest(runnable);
  }
  uint32_t choose(uint32_t options, uint64_t step) override {
    if (default_choices_) return options - 1;
    const size_t i = next_++;
    if (i < picks_.size() && is_choice(picks_[i]) && unmarked(picks_[i]) < options) return unmarked(picks_[i]);
    if (strict_)
      throw std::runtime_error("schedule does not fit this program: decision " + std::to_string(step) +
                               (i >= picks_.size()        ? " is past its end"
                                : !is_choice(picks_[i]) ? " picks an actor where the run chooses a value"
                                                        : " chooses a value out of range"));
    return options - 1;
  }
  std::string name() const override { return "replay"; }

 private:
  std::vector<uint32_t> picks_;
  bool strict_;
  bool default_choices_;
  size_t next_ = 0;  // the next recorded decision
  bool used_ = false;
};

}  // namespace gpulin::sim
