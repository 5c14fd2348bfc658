// Uniformly random choice at every decision (a random walk over interleavings).
#pragma once

#include <random>

#include "sim/strategy.h"

namespace gpulin::sim {

class RandomStrategy final : public Strategy {
 public:
  explicit RandomStrategy(uint64_t seed) : rng_(seed) {}
  bool begin_run(uint32_t) override { return true; }
  uint32_t pick(ActorSet runnable, uint32_t, uint64_t) override {
    const uint32_t n = count(runnable);
    return nth_of(runnable, draw_below(rng_(), n), n);
  }
  std::string name() const override { return "random"; }

 private:
  // r % n, the value every schedule was drawn with: a 64-bit division costs a
  // random pick more than its generator does, and with two or four actors
  // runnable (a power of two) a mask gives the same remainder.
  static uint32_t draw_below(uint64_t r, uint32_t n) {
    if ((n & (n - 1)) == 0) return static_cast<uint32_t>(r & (n - 1));
    return static_cast<uint32_t>(r % n);
  }

  // nth(s, k) of a set of n, in n - 1 rounds whatever k is: the number of rounds
  // repeats from pick to pick (the runnable set's size seldom changes) where k's is
  // random, and a loop that stopped after k mispredicted its exit at most picks.
  static uint32_t nth_of(ActorSet s, uint32_t k, uint32_t n) {
    for (uint32_t i = 1; i < n; ++i) s &= s - ActorSet{i <= k};  // arithmetic, so no branch on k
    return lowest(s);
  }

  std::mt19937_64 rng_;
};

}  // namespace gpulin::sim
