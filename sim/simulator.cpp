#include "sim/simulator.h"

#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>
#include <utility>

namespace gpulin::sim {

namespace ctx = boost::context;

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::Completed: return "completed";
    case Outcome::Deadlock: return "deadlock";
    case Outcome::Livelock: return "livelock";
    case Outcome::Fault: return "fault";
  }
  return "?";
}

struct Simulator::Impl {
  struct Actor {
    ctx::fiber fiber;    // the actor, while it is not running
    ctx::fiber to_main;  // the scheduler loop, while the actor runs
    bool finished = false;
    const uint32_t* wait_addr = nullptr;
    uint32_t wait_seen = 0;
  };
  explicit Impl(size_t stack_bytes) : stacks(stack_bytes) {}
  ctx::pooled_fixedsize_stack stacks;
  std::vector<Actor> actors;

  // Back to the scheduler loop; returns when this actor is resumed.
  void yield(uint32_t me) { actors[me].to_main = std::move(actors[me].to_main).resume(); }
};

Simulator::Simulator(size_t stack_bytes) : impl_(std::make_unique<Impl>(stack_bytes)) {}
Simulator::~Simulator() = default;

RunResult Simulator::run(uint32_t actors, const Body& body, Strategy& strategy, uint64_t max_points) {
  if (actors == 0 || actors > kMaxActors) throw std::invalid_argument("simulator: 1 to 64 actors");
  RunResult result;
  result_ = &result;
  strategy_ = &strategy;
  max_points_ = max_points;
  points_ = 0;
  parked_ = 0;
  in_flight_ = 0;
  stopped_ = false;
  runnable_ = actors == 64 ? ~ActorSet(0) : (ActorSet(1) << actors) - 1;
  impl_->actors.clear();
  impl_->actors.resize(actors);
  for (uint32_t a = 0; a < actors; ++a) {
    impl_->actors[a].fiber = ctx::fiber(std::allocator_arg, impl_->stacks, [this, a, &body](ctx::fiber&& main) {
      impl_->actors[a].to_main = std::move(main);
      // A fiber destroyed before it ever ran: the fcontext backend unwinds it before
      // this function starts, the ucontext one (the sanitizer build) calls it and
      // unwinds at its first switch. Either way no actor code runs after the run ended.
      if (stopped_) return std::move(impl_->actors[a].to_main);
      auto finish = [&] {
        impl_->actors[a].finished = true;
        runnable_ &= ~(ActorSet(1) << a);
      };
      try {
        body(a);
        finish();
        // Who runs next is a decision too: a strict replay that no longer fits
        // throws here, after the body returned, and must not leave the fiber.
        schedule_from(a, false);
      } catch (const ctx::detail::forced_unwind&) {
        throw;  // a stopped run unwinding this fiber's stack
      } catch (...) {
        // An exception (a strict replay that no longer fits, say) ends the run and
        // leaves run() by the main context, not through the fiber's edge.
        error_ = std::current_exception();
        stop(Outcome::Fault, "exception in actor " + std::to_string(a));
        finish();
      }
      return std::move(impl_->actors[a].to_main);
    });
  }
  try {
    // The first pick is a decision like any other.
    running_ = count(runnable_) > 1 ? strategy.pick(runnable_, actors, 0) : lowest(runnable_);
    if (count(runnable_) > 1) result.picks.push_back(running_);
    while (!stopped_) {
      auto& actor = impl_->actors[running_];
      actor.fiber = std::move(actor.fiber).resume();
    }
  } catch (...) {
    // The strategy threw outside any fiber (a strict replay's first pick): the
    // fibers go now, while `body` and `result` still exist.
    stopped_ = true;
    impl_->actors.clear();
    result_ = nullptr;
    throw;
  }
  result.points = points_;
  // Destroying unfinished fibers unwinds their stacks (deadlock, livelock, fault).
  impl_->actors.clear();
  strategy.end_run(result.picks.size());
  result_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return result;
}

void Simulator::stop(Outcome o, std::string message) {
  result_->outcome = o;
  result_->message = std::move(message);
  stopped_ = true;
}

// Decides who runs after actor `me` and switches there (through the loop) unless it
// is `me` again. Returns when `me` next runs; never returns once the run stopped.
void Simulator::schedule_from(uint32_t me, bool me_runnable) {
  if (runnable_ == 0) {
    bool all_done = true;
    for (const auto& a : impl_->actors) all_done &= a.finished;
    if (all_done) {
      stopped_ = true;
    } else {
      std::string who;
      for (uint32_t a = 0; a < impl_->actors.size(); ++a)
        if (!impl_->actors[a].finished) who += (who.empty() ? "" : ", ") + std::to_string(a);
      stop(Outcome::Deadlock, "every live actor is blocked (actors " + who + ")");
    }
  } else if (count(runnable_) == 1) {
    running_ = lowest(runnable_);
  } else {
    running_ = strategy_->pick(runnable_, me, result_->picks.size());
    result_->picks.push_back(running_);
  }
  if (!me_runnable) {
    if (!impl_->actors[me].finished) impl_->yield(me);  // parked: back when woken and picked
    return;
  }
  if (stopped_ || running_ != me) impl_->yield(me);
}

void Simulator::point() {
  if (++points_ > max_points_) {
    stop(Outcome::Livelock, "no completion within " + std::to_string(max_points_) + " scheduling points");
    impl_->yield(running_);
  }
  if (runnable_ & (runnable_ - 1)) schedule_from(running_, true);  // more than one runnable
}

void Simulator::park(const uint32_t* addr, uint32_t seen) {
  if (*addr != seen) return;
  const uint32_t me = running_;
  impl_->actors[me].wait_addr = addr;
  impl_->actors[me].wait_seen = seen;
  runnable_ &= ~(ActorSet(1) << me);
  ++parked_;
  schedule_from(me, false);
}

void Simulator::wake(const uint32_t* addr) {
  for (uint32_t a = 0; a < impl_->actors.size(); ++a) {
    auto& actor = impl_->actors[a];
    if (actor.wait_addr == addr && *addr != actor.wait_seen) {
      actor.wait_addr = nullptr;
      runnable_ |= ActorSet(1) << a;
      --parked_;
    }
  }
}

void Simulator::fault(const std::string& message) {
  stop(Outcome::Fault, "actor " + std::to_string(running_) + ": " + message);
  impl_->yield(running_);
  __builtin_unreachable();  // a stopped run never resumes its actors
}

}  // namespace gpulin::sim
