#include "sim/simulator.h"

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>
#include <boost/context/preallocated.hpp>
#include <exception>
#include <map>
#include <utility>

#include "sim/asan_fiber_switch.h"
#include "sim/memory/model_memory.h"
#include "sim/point_observer.h"

namespace gpulin::sim {

namespace ctx = boost::context;

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::Completed: return "completed";
    case Outcome::Deadlock: return "deadlock";
    case Outcome::Livelock: return "livelock";
    case Outcome::Fault: return "fault";
    case Outcome::Race: return "race";
  }
  return "?";
}

namespace {
// Thrown inside an actor that is resumed after its run stopped: it unwinds the
// actor's stack (destructors run) up to its fiber's function, which then returns.
// The simulator unwinds its fibers itself, not through Boost.Context's forced unwind
// at a fiber's destruction, so that every switch, those included, is announced to
// ASan (asan_fiber_switch.h).
struct RunStopped {};

// The fiber stacks of this thread's simulators, a pool per stack size. Explorers make
// a simulator per run, and a pool of its own would allocate (and page in, and under
// ASan poison) 32 fresh stacks at each one's first fiber.
ctx::pooled_fixedsize_stack& thread_stacks(size_t stack_bytes) {
  thread_local std::map<size_t, ctx::pooled_fixedsize_stack> pools;
  auto it = pools.find(stack_bytes);
  if (it == pools.end()) it = pools.emplace(stack_bytes, ctx::pooled_fixedsize_stack(stack_bytes)).first;
  return it->second;
}
}  // namespace

struct Simulator::Impl {
  struct Actor {
    ctx::fiber fiber;    // the actor, while it is not running
    StackBounds stack;   // the fiber's stack
    void* fake_stack = nullptr;
    bool finished = false;
    const uint32_t* wait_addr = nullptr;
    uint32_t wait_seen = 0;
  };
  // The scheduler loop's number where an actor's would be (switch_to).
  static constexpr uint32_t kLoop = ~0u;
  explicit Impl(size_t stack_bytes) : stacks(thread_stacks(stack_bytes)) {}
  ctx::pooled_fixedsize_stack& stacks;
  std::vector<Actor> actors;
  ctx::fiber loop;         // the scheduler loop, while an actor runs
  StackBounds loop_stack;  // the loop's, learned at the first switch from it
  void* loop_fake_stack = nullptr;
  // Who made the last switch (an actor, or kLoop): the context that switch
  // suspended comes back as the resumed side's fiber, and goes to its slot.
  uint32_t switched_from = kLoop;

  // A fiber for actor `a` running `fn`, on a stack whose bounds are kept.
  template <typename Fn>
  void create(uint32_t a, Fn&& fn) {
    ctx::stack_context sc = stacks.allocate();
    actors[a].stack = {static_cast<char*>(sc.sp) - sc.size, sc.size};
    actors[a].fiber = ctx::fiber(std::allocator_arg, ctx::preallocated(sc.sp, sc.size, sc), stacks,
                                 std::forward<Fn>(fn));
  }

  ctx::fiber& slot(uint32_t c) { return c == kLoop ? loop : actors[c].fiber; }

  // From the running context `from` (an actor, or kLoop) straight into `to`;
  // returns when some context switches back to `from`. Actor to actor is one
  // switch: going through the loop made each change of actor two, and the loop's
  // own returns and branches besides.
  void switch_to(uint32_t from, uint32_t to) {
    void** fake = from == kLoop ? &loop_fake_stack : &actors[from].fake_stack;
    asan_start_switch(fake, to == kLoop ? loop_stack : actors[to].stack);
    switched_from = from;
    ctx::fiber back = std::move(slot(to)).resume();
    asan_finish_switch(*fake);
    slot(switched_from) = std::move(back);
  }

  // First thing in an actor's fiber: `caller` is the context that started it.
  void arrived(ctx::fiber&& caller) {
    asan_finish_switch(nullptr, switched_from == kLoop ? &loop_stack : nullptr);
    slot(switched_from) = std::move(caller);
  }

  // The actor's last switch: its fiber ends, and the loop goes on.
  ctx::fiber leave(uint32_t me) {
    switched_from = me;  // the loop's slot for it receives the ended fiber (empty)
    asan_start_switch(nullptr, loop_stack);
    return std::move(loop);
  }

  // After a run: every fiber still suspended is resumed to unwind. A fiber that does
  // not end (an actor's destructor that keeps calling into the simulator while
  // unwinding) is left to Boost.Context's forced unwind when `actors` is cleared.
  void unwind_all() {
    for (uint32_t a = 0; a < actors.size(); ++a)
      for (int tries = 0; actors[a].fiber && tries < 16; ++tries) switch_to(kLoop, a);
  }
};

Simulator::Simulator(size_t stack_bytes) : impl_(std::make_unique<Impl>(stack_bytes)) {}
Simulator::~Simulator() = default;

RunResult Simulator::run(uint32_t actors, const Body& body, Strategy& strategy, uint64_t max_points) {
  if (actors == 0 || actors > kMaxActors) throw std::invalid_argument("simulator: 1 to 64 actors");
  RunResult result;
  // As many picks as the last run made (an explorer's runs are alike), so the vector
  // rarely grows; not past 64 Ki, so a livelocked run's length is not kept for all.
  result.picks.reserve(std::min<size_t>(last_picks_, size_t{1} << 16));
  result_ = &result;
  strategy_ = &strategy;
  steady_before_ = 0;  // no promise carried over from another run
  drop_kept_promise();
  max_points_ = max_points;
  points_ = 0;
  observer_ = PointObserver::installed();
  check_from_ = observer_ ? 0 : max_points;
  recorder_ = nullptr;
  if (observer_) observer_->begin(shared_regions_, named_regions_);
  parked_ = 0;
  in_flight_ = 0;
  stopped_ = false;
  runnable_ = actors == 64 ? ~ActorSet(0) : (ActorSet(1) << actors) - 1;
  log_ = strategy.event_log();
  if (log_) log_->clear();
  if (setting_.mode == memory::MemoryMode::Sc) {
    model_.reset();
  } else {
    if (model_) model_->reset(actors);
    else model_ = std::make_unique<memory::ModelMemory>(actors);
    model_->check_races(memory::checks_races(setting_.mode));
    model_->guard_words(true);
    for (const memory::GuardedRange& r : shared_regions_) model_->guard().guard_range(r);
  }
  impl_->actors.clear();
  impl_->actors.resize(actors);
  for (uint32_t a = 0; a < actors; ++a) {
    impl_->create(a, [this, a, &body](ctx::fiber&& caller) {
      impl_->arrived(std::move(caller));
      // A fiber whose run ended before it ever ran is resumed once, to end.
      if (stopped_) return impl_->leave(a);
      auto finish = [&] {
        impl_->actors[a].finished = true;
        runnable_ &= ~(ActorSet(1) << a);
        drop_kept_promise();
      };
      try {
        body(a);
        finish();
        // Who runs next is a decision too: a strict replay that no longer fits
        // throws here, after the body returned, and must not leave the fiber.
        schedule_from(a, false);
      } catch (const RunStopped&) {
        // the run stopped: this actor's stack is unwound
      } catch (...) {
        // An exception (a strict replay that no longer fits, say) ends the run and
        // leaves run() by the main context, not through the fiber's edge.
        error_ = std::current_exception();
        stop(Outcome::Fault, "exception in actor " + std::to_string(a));
        finish();
      }
      return impl_->leave(a);
    });
  }
  try {
    // The first pick is a decision like any other.
    running_ = several(runnable_) ? strategy.pick(runnable_, actors, 0) : lowest(runnable_);
    if (several(runnable_)) result.picks.push_back(running_);
    log_event(several(runnable_) ? 0 : EventLog::kForced);
    // The loop runs an actor, then again whenever one finished (running_ is then
    // the next) or the run stopped; actors switch to each other directly.
    while (!stopped_) impl_->switch_to(Impl::kLoop, running_);
  } catch (...) {
    // The strategy threw outside any fiber (a strict replay's first pick): the
    // fibers go now, while `body` and `result` still exist.
    stopped_ = true;
    drop_kept_promise();
    observer_ = nullptr;
    impl_->unwind_all();
    impl_->actors.clear();
    result_ = nullptr;
    log_ = nullptr;
    blocks_made_ = 0;
    if (model_) model_->end_run();
    throw;
  }
  result.points = points_;
  last_picks_ = result.picks.size();
  if (model_) {
    result.stale_reads = model_->stale_reads();
    result.outside_writes = model_->outside_writes();
    if (model_->stale_reads() || model_->race()) result.marks = model_->marks();
    model_->end_run();
  }
  // Unfinished actors' stacks are unwound (deadlock, livelock, fault), and finished
  // ones leave their last switch.
  impl_->unwind_all();
  impl_->actors.clear();
  log_ = nullptr;
  blocks_made_ = 0;
  result_ = nullptr;
  // An error of the run's own comes first; the strategy may throw too (dpor: a
  // program whose memory moved between runs).
  if (error_) {
    try {
      strategy.end_run(result.picks.size());
    } catch (...) {  // the run's error is the one reported
    }
    observer_ = nullptr;
    std::rethrow_exception(std::exchange(error_, nullptr));
  }
  strategy.end_run(result.picks.size());
  // The run's last state, once it is over (it throws StoppedAtState where that is
  // the state asked for).
  if (PointObserver* o = std::exchange(observer_, nullptr)) {
    const memory::LiftedGuard lifted = lift_guard();  // the observer reads the words directly
    o->end(running_, recorder_, to_string(result.outcome));
  }
  return result;
}

void Simulator::stop(Outcome o, std::string message) {
  result_->outcome = o;
  result_->message = std::move(message);
  stopped_ = true;
  drop_kept_promise();
}

// Decides who runs after actor `me` and switches there (through the loop) unless it
// is `me` again. Returns when `me` next runs; never returns once the run stopped.
void Simulator::schedule_from(uint32_t me, bool me_runnable) {
  if (several(runnable_)) {
    running_ = strategy_->pick(runnable_, me, result_->picks.size());
    result_->picks.push_back(running_);
    log_event(static_cast<uint32_t>(result_->picks.size() - 1));
  } else if (runnable_ == 0) {
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
  } else {
    running_ = lowest(runnable_);
    log_event(EventLog::kForced);
  }
  if (!me_runnable) {
    if (!impl_->actors[me].finished) suspend(me);  // parked: back when woken and picked
    return;
  }
  if (stopped_ || running_ != me) suspend(me);
}

// schedule_from(running_, true) with two or more actors runnable, the decision made
// at nearly every point: kept apart from the rare cases, so that it saves and
// restores next to nothing.
void Simulator::pick_at_point() {
  const uint32_t me = running_;
  const uint64_t step = result_->picks.size();
  if (runnable_ == steady_from_ && step < steady_before_) {
    running_ = steady_pick_;  // the strategy's promise (Strategy::same_pick_before)
  } else {
    running_ = strategy_->pick(runnable_, me, step);
    steady_from_ = runnable_;
    steady_pick_ = running_;
    steady_before_ = strategy_->same_pick_before();
  }
  result_->picks.push_back(running_);
  if (log_) {
    log_event(static_cast<uint32_t>(result_->picks.size() - 1));
  } else if (!stopped_) {
    // The promise holds for the actor now running while the runnable set stays.
    keep_below_ = std::min<uint64_t>(steady_before_, result_->picks.capacity());
  }
  if (stopped_ || running_ != me) [[unlikely]]
    suspend(me);
}

// To the actor picked (running_), or to the scheduler loop once the run stopped;
// returns when actor `me` runs again. After the run stopped an actor is resumed only
// to unwind (RunStopped), except while an exception already unwinds it.
void Simulator::suspend(uint32_t me) {
  impl_->switch_to(me, stopped_ ? Impl::kLoop : running_);
  if (stopped_ && std::uncaught_exceptions() == 0) throw RunStopped{};
}

void Simulator::checked_point() {
  if (observer_) {
    const memory::LiftedGuard lifted = lift_guard();  // the observer reads the words directly
    observer_->at_point(running_, recorder_);
  }
  if (points_ > max_points_) out_of_points();
}

void Simulator::out_of_points() {
  stop(Outcome::Livelock, "no completion within " + std::to_string(max_points_) + " scheduling points");
  suspend(running_);
}

void Simulator::park(const uint32_t* addr, uint32_t seen, bool logged, bool retry) {
  if (memory::unguarded_load(addr) != seen) return;
  const uint32_t me = running_;
  // The check is a read of the word (usually the event's own failed CAS or load of
  // it). It stays in the log: a lock taken before another actor's attempt races with
  // that attempt, which is how DPOR finds the order where the other actor takes the
  // lock first. Once woken, the actor reads the word again at its next point. A
  // retried attempt is an await (EventLog::is_await), not a step of the trace; under
  // ptx a retried load may still read an older store (memory::ModelMemory::
  // kStaleRereads), so there the wait is part of what the actor reads.
  if (!logged) touch(addr, 4, false);
  if (log_ && retry && setting_.mode == memory::MemoryMode::Sc) log_->retries();
  impl_->actors[me].wait_addr = addr;
  impl_->actors[me].wait_seen = seen;
  runnable_ &= ~(ActorSet(1) << me);
  drop_kept_promise();
  ++parked_;
  schedule_from(me, false);
}

void Simulator::log_event(uint32_t decision) {
  if (log_) log_->begin(running_, decision, runnable_);
}

void Simulator::log_touch(const void* addr, uint32_t bytes, bool write) {
  // A word of a declared shared region is named by its place in the region, so that
  // another run, whose runner may have placed the region elsewhere, names it alike.
  const auto* p = static_cast<const std::byte*>(addr);
  size_t r = 0;
  for (const auto* regions : {&shared_regions_, &named_regions_})
    for (const memory::GuardedRange& g : *regions) {
      ++r;
      const auto* at = static_cast<const std::byte*>(g.at);
      if (p >= at && p < at + g.bytes) {
        log_->touch(reinterpret_cast<const void*>((r << 48) + static_cast<uintptr_t>(p - at)), bytes, write);
        return;
      }
    }
  log_->touch(addr, bytes, write);
}

void Simulator::wake(const uint32_t* addr) {
  for (uint32_t a = 0; a < impl_->actors.size(); ++a) {
    auto& actor = impl_->actors[a];
    if (actor.wait_addr == addr && memory::unguarded_load(addr) != actor.wait_seen) {
      actor.wait_addr = nullptr;
      runnable_ |= ActorSet(1) << a;
      drop_kept_promise();
      --parked_;
    }
  }
}

uint32_t Simulator::choose(uint32_t options) {
  if (options <= 1) return 0;
  if (options > kMaxActors) options = kMaxActors;
  const uint32_t c = strategy_->choose(options, result_->picks.size());
  if (c >= options) fault("the strategy chose value " + std::to_string(c) + " of " + std::to_string(options));
  result_->picks.push_back(c | kChoiceMark);
  if (log_) log_->chose(c);
  return c;
}

void Simulator::race(const std::string& message) {
  stop(Outcome::Race, message);
  suspend(running_);
  std::terminate();  // as fault
}

void Simulator::fault(const std::string& message) {
  stop(Outcome::Fault, "actor " + std::to_string(running_) + ": " + message);
  suspend(running_);
  std::terminate();  // resumed while an exception unwinds it: a fault raised by a destructor
}

}  // namespace gpulin::sim
