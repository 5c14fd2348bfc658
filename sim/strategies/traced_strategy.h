// Any strategy with its runs logged (trace/event_log.h) and named by their
// Mazurkiewicz trace: how a sampling run counts the distinct traces it met
// (coverage), and how tests compare a search's traces with DPOR's. A strategy that
// logs its runs itself keeps its log; the trace is read from it.
#pragma once

#include <cstdint>
#include <string>

#include "sim/strategy.h"
#include "sim/trace/event_log.h"
#include "sim/trace/trace_clocks.h"

namespace gpulin::sim {

class TracedStrategy final : public Strategy {
 public:
  TracedStrategy() = default;
  explicit TracedStrategy(Strategy& inner) { wrap(inner); }
  // Wraps another strategy for the runs that follow (the memory is kept).
  void wrap(Strategy& inner) {
    inner_ = &inner;
    log_ = inner.event_log() ? inner.event_log() : &own_log_;
  }
  bool begin_run(uint32_t actors) override {
    actors_ = actors;
    return inner_->begin_run(actors);
  }
  uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) override {
    const uint32_t picked = inner_->pick(runnable, current, step);
    same_pick_before_ = inner_->same_pick_before();  // the wrapped strategy's promise
    return picked;
  }
  uint32_t choose(uint32_t options, uint64_t step) override { return inner_->choose(options, step); }
  void end_run(uint64_t decisions) override {
    inner_->end_run(decisions);
    clocks_.compute(*log_, actors_, false);
    trace_ = clocks_.fingerprint();
  }
  std::string name() const override { return inner_->name(); }
  bool exhausted() const override { return inner_->exhausted(); }
  EventLog* event_log() override { return log_; }
  // The last run's trace.
  uint64_t last_trace() const { return trace_; }

 private:
  Strategy* inner_ = nullptr;
  EventLog own_log_;
  EventLog* log_;
  TraceClocks clocks_;
  uint32_t actors_ = 0;
  uint64_t trace_ = 0;
};

}  // namespace gpulin::sim
