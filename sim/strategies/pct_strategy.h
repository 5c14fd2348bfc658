// PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte 2010): random distinct priorities,
// always run the highest-priority runnable actor, and at d - 1 random change points
// drop the running actor below everyone. Finds a bug of depth d with probability at
// least 1 / (n * L^(d-1)). L, the run length, is measured: the change points of a
// run are drawn over the longest run seen so far.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "sim/strategy.h"

namespace gpulin::sim {

class PctStrategy final : public Strategy {
 public:
  // `length`: the run length to draw change points over until a longer run is seen.
  PctStrategy(uint64_t seed, uint32_t depth, uint64_t length = 64)
      : rng_(seed), depth_(depth < 1 ? 1 : depth), length_(length) {}

  bool begin_run(uint32_t actors) override {
    priority_.resize(actors);
    for (uint32_t a = 0; a < actors; ++a) priority_[a] = depth_ + a;  // all above change-point values
    std::shuffle(priority_.begin(), priority_.end(), rng_);
    change_points_.clear();
    std::uniform_int_distribution<uint64_t> at(0, std::max<uint64_t>(length_, 1) - 1);
    for (uint32_t i = 1; i < depth_; ++i) change_points_.push_back(at(rng_));
    std::sort(change_points_.begin(), change_points_.end());
    next_change_ = 0;
    next_change_at_ = change_points_.empty() ? kNever : change_points_[0];
    picked_from_ = 0;
    same_pick_before_ = 0;
    return true;
  }

  // Called at nearly every point: between change points the priorities stand still,
  // so the pick among an unchanged runnable set is the one made last.
  uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) override {
    if (step >= next_change_at_) [[unlikely]]
      pass_change_points(current, step);
    if (runnable != picked_from_) {
      picked_ = highest_priority(runnable);
      picked_from_ = runnable;
    }
    same_pick_before_ = next_change_at_;  // the priorities stand until then
    return picked_;
  }

  // Which of `options` values: PCT's priorities order actors, not values, so a
  // value is drawn at random, the default (the last) half the time.
  uint32_t choose(uint32_t options, uint64_t) override {
    if (rng_() % 2 == 0) return options - 1;
    return static_cast<uint32_t>(rng_() % options);
  }

  void end_run(uint64_t decisions) override { length_ = std::max(length_, decisions); }
  std::string name() const override { return "pct"; }
  // The longest run seen (or the length given).
  uint64_t length() const { return length_; }

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};

  void pass_change_points(uint32_t current, uint64_t step) {
    while (next_change_ < change_points_.size() && change_points_[next_change_] <= step) {
      // The i-th change point lowers the running actor to priority d - 1 - i.
      if (current < priority_.size()) priority_[current] = depth_ - 1 - static_cast<uint32_t>(next_change_) - 1;
      ++next_change_;
    }
    next_change_at_ = next_change_ < change_points_.size() ? change_points_[next_change_] : kNever;
    picked_from_ = 0;  // the priorities changed
  }
  uint32_t highest_priority(ActorSet runnable) const {
    uint32_t best = lowest(runnable);
    for (ActorSet s = runnable; s; s &= s - 1) {
      uint32_t a = lowest(s);
      if (priority_[a] > priority_[best]) best = a;
    }
    return best;
  }

  std::mt19937_64 rng_;
  uint32_t depth_;
  uint64_t length_;  // before any run: a guess, replaced by the measured length
  std::vector<uint32_t> priority_;
  std::vector<uint64_t> change_points_;
  size_t next_change_ = 0;
  uint64_t next_change_at_ = kNever;  // change_points_[next_change_], or kNever past the last
  ActorSet picked_from_ = 0;          // the runnable set of the last pick (0: none since a change)
  uint32_t picked_ = 0;
};

}  // namespace gpulin::sim
