// The scheduler's one small interface (after loom and Shuttle): at every scheduling
// point with more than one runnable actor, a strategy picks who runs next. A run's
// picks, in order, are its schedule; replaying them reproduces the run exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpulin::sim {

class EventLog;

// Runnable actors as a bit set (at most 64 actors).
using ActorSet = uint64_t;
constexpr uint32_t kMaxActors = 64;

inline bool contains(ActorSet s, uint32_t a) { return (s >> a) & 1u; }
// Without -mpopcnt (the build targets any x86-64) __builtin_popcountll is a call into
// libgcc; the simulator counts at every decision, so the bits are summed inline.
inline uint32_t count(ActorSet s) {
  s = s - ((s >> 1) & 0x5555555555555555ull);
  s = (s & 0x3333333333333333ull) + ((s >> 2) & 0x3333333333333333ull);
  s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<uint32_t>((s * 0x0101010101010101ull) >> 56);
}
// Whether the set has two or more actors (a decision to make).
inline bool several(ActorSet s) { return (s & (s - 1)) != 0; }

class Strategy {
 public:
  virtual ~Strategy() = default;
  // Prepares the next run; false when the strategy has nothing left to explore
  // (dfs exhausted, replay done).
  virtual bool begin_run(uint32_t actors) = 0;
  // `runnable` has at least two actors; `current` is the actor at the point (it may
  // be blocked, then it is not in `runnable`). `step` counts decisions in this run.
  virtual uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) = 0;
  // A decision that is not who runs next: one of `options` (2..64) values, the last
  // the default (under the ptx memory mode, which store a load reads: the newest is
  // what a sequentially consistent run would read). It counts as a decision at
  // `step` like a pick, and a schedule records it the same way. By default it is a
  // pick among option "actors" 0..options-1 with the last one current.
  virtual uint32_t choose(uint32_t options, uint64_t step) {
    const ActorSet all = options >= 64 ? ~ActorSet(0) : (ActorSet(1) << options) - 1;
    return pick(all, options - 1, step);
  }
  // Called once the run ended, with its number of decisions.
  virtual void end_run(uint64_t decisions) { (void)decisions; }
  virtual std::string name() const = 0;
  // True once a systematic strategy has explored every schedule within its bound.
  virtual bool exhausted() const { return false; }
  // Where the simulator logs the run's events (trace/event_log.h), for a strategy
  // that reasons about which schedules are equivalent; nullptr (the default): none.
  virtual EventLog* event_log() { return nullptr; }

  // After a pick: the strategy promises the same pick at every decision of this run
  // before this step, as long as the runnable set is the one it picked from (its
  // choices in between change nothing of it). The simulator then makes those picks
  // without asking: a decision comes at nearly every point, and PCT's stand between
  // change points. 0 (the default): no promise.
  uint64_t same_pick_before() const { return same_pick_before_; }

 protected:
  uint64_t same_pick_before_ = 0;
};

// In a run's picks (RunResult::picks), a choice's value is marked, so that a
// schedule says which decisions chose a value (replay strings write them "rN"):
// a run under the ptx memory mode replayed under sc skips them.
constexpr uint32_t kChoiceMark = 1u << 31;
inline bool is_choice(uint32_t pick) { return (pick & kChoiceMark) != 0; }
inline uint32_t unmarked(uint32_t pick) { return pick & ~kChoiceMark; }

// Lowest actor in the set (the deterministic default when nothing else decides).
inline uint32_t lowest(ActorSet s) { return static_cast<uint32_t>(__builtin_ctzll(s)); }

// The k-th (0-based) member of the set in increasing order.
inline uint32_t nth(ActorSet s, uint32_t k) {
  for (uint32_t i = 0; i < k; ++i) s &= s - 1;
  return lowest(s);
}

}  // namespace gpulin::sim
