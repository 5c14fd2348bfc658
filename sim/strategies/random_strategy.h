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
    return nth(runnable, static_cast<uint32_t>(rng_() % count(runnable)));
  }
  std::string name() const override { return "random"; }

 private:
  std::mt19937_64 rng_;
};

}  // namespace gpulin::sim
