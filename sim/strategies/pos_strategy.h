// Partial order sampling (Yuan, Yang and Gu, "Partial order aware concurrency
// sampling", CAV 2018): every pending step has a random priority and the highest
// runnable one runs; after a step, the steps that conflict with it get fresh
// priorities. Conflicting steps are reordered often and independent ones are left
// alone, so the traces (not the interleavings) are sampled more evenly than a
// random walk does.
//
// Here a step's words are known once it ran (trace/event_log.h), not before: an
// actor's pending step is taken to touch what its last step touched (a spinning
// lock, a scanned slab), and an actor whose last step conflicts with the one just
// run is drawn a new priority, as is the actor that ran it.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/strategy.h"
#include "sim/trace/event_log.h"

namespace gpulin::sim {

class PosStrategy final : public Strategy {
 public:
  explicit PosStrategy(uint64_t seed) : rng_(seed) {}

  bool begin_run(uint32_t actors) override {
    priority_.resize(actors);
    for (auto& p : priority_) p = rng_();
    last_.assign(actors, kNone);
    seen_ = 0;
    return true;
  }
  uint32_t pick(ActorSet runnable, uint32_t, uint64_t) override {
    redraw();
    uint32_t best = lowest(runnable);
    for (ActorSet s = runnable; s; s &= s - 1)
      if (priority_[lowest(s)] > priority_[best]) best = lowest(s);
    return best;
  }
  // A value: the default (the newest store) half the time, else any.
  uint32_t choose(uint32_t options, uint64_t) override {
    if (rng_() % 2 == 0) return options - 1;
    return static_cast<uint32_t>(rng_() % options);
  }
  std::string name() const override { return "pos"; }
  EventLog* event_log() override { return &log_; }

 private:
  static constexpr uint32_t kNone = ~0u;
  // The events logged since the last pick: each one's actor, and every actor whose
  // last event conflicts with it, draw again.
  void redraw() {
    const auto& events = log_.events();
    for (; seen_ < events.size(); ++seen_) {
      const uint32_t a = events[seen_].actor;
      if (events[seen_].last == events[seen_].first && events[seen_].records == 0) continue;  // touched nothing
      priority_[a] = rng_();
      for (uint32_t q = 0; q < priority_.size(); ++q)
        if (q != a && last_[q] != kNone && log_.depends(seen_, last_[q])) priority_[q] = rng_();
      last_[a] = static_cast<uint32_t>(seen_);
    }
  }

  std::mt19937_64 rng_;
  EventLog log_;
  std::vector<uint64_t> priority_;
  std::vector<uint32_t> last_;  // each actor's last event that touched something
  size_t seen_ = 0;
};

}  // namespace gpulin::sim
