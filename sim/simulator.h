// The fiber simulator: each actor (a thread block running a stream of operations)
// is a Boost.Context fiber; every shared access made through the execution context
// is a scheduling point where a Strategy decides who runs next. Its memory is
// sequentially consistent (memory mode `sc`), or follows the PTX memory model
// (`ptx`: memory/model_memory.h, where a load may read an older store, a choice
// the strategy makes too). Spin-waits park an actor until the watched word
// changes, so "every live actor parked" is a deadlock, found the moment it happens;
// a run longer than its point budget is reported as a livelock.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/memory/memory_mode.h"
#include "sim/memory/model_memory.h"
#include "sim/strategy.h"
#include "sim/trace/event_log.h"

namespace gpulin {
class HostRecorder;
}

namespace gpulin::sim {

// Race: under the ptx memory mode, two conflicting accesses no causality orders
// (memory::ModelMemory::race), or, under any mode, two threads of one block
// touching a word of its private memory in one barrier phase, one writing
// (private_memory/barrier_phases.h); the run ends at the first.
enum class Outcome { Completed, Deadlock, Livelock, Fault, Race };
const char* to_string(Outcome o);

struct RunResult {
  Outcome outcome = Outcome::Completed;
  uint64_t points = 0;          // scheduling points passed
  std::vector<uint32_t> picks;  // the schedule: one pick per decision (a choice's marked: kChoiceMark)
  std::string message;          // for Deadlock, Livelock, Fault
  // Under the ptx memory mode: loads that read an older store than the newest, and
  // words the program changed without telling the model (accesses around the
  // execution context).
  uint64_t stale_reads = 0;
  uint64_t outside_writes = 0;
  // Under ptx: the stale reads and the race, for the run's page (ModelMemory::marks).
  std::vector<memory::ModelMemory::Mark> marks;
};

class PointObserver;

class Simulator {
 public:
  using Body = std::function<void(uint32_t actor)>;

  explicit Simulator(size_t stack_bytes = 256 * 1024);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  // The memory of the following runs (default sc).
  void set_memory_mode(const memory::MemorySetting& m) {
    setting_ = m;
    site_hooks_ = m.mode != memory::MemoryMode::Sc && (m.weakening || m.inventory);
  }
  // Whether the accesses' sites matter to this run (a weakening or an inventory).
  bool site_hooks() const { return site_hooks_; }
  memory::MemoryMode memory_mode() const { return setting_.mode; }
  // Under ptx: the ordering site this run weakens (gpulin ablate), and where it
  // reports the sites it meets; nullptr for none.
  const memory::Weakening* weakening() const {
    return setting_.mode != memory::MemoryMode::Sc && setting_.weakening ? &*setting_.weakening : nullptr;
  }
  memory::SiteInventory* site_inventory() const { return setting_.inventory.get(); }
  // The running run's memory model under ptx; nullptr under sc.
  memory::ModelMemory* memory() { return model_.get(); }
  Simulator& operator=(const Simulator&) = delete;

  // Runs body(a) for actors a = 0..actors-1 under `strategy` (begin_run must already
  // have been called) until all return, all block, `max_points` pass, or an actor
  // faults. An exception thrown inside an actor (or by the strategy) ends the run
  // and is rethrown here.
  RunResult run(uint32_t actors, const Body& body, Strategy& strategy, uint64_t max_points);

  // Called from inside an actor (through the execution context), at every shared
  // access: inline, since most points have nothing to decide or keep the actor.
  void point() {
    // One compare for both rare cases: past the point budget, or observed
    // (sim/point_observer.h: then every point is past check_from_ = 0).
    if (++points_ > check_from_) [[unlikely]]
      checked_point();
    if (several(runnable_)) {
      if (!kept_promised_pick()) pick_at_point();
    } else if (log_) [[unlikely]] {
      log_event(EventLog::kForced);  // one event per point, however many could run
    }
  }
  // `logged`: the caller reported the read of *addr itself (a SimBlock names its
  // barriers by id: Simulator::touch_object). `retry`: once woken, the actor does
  // again what led it here, keeping nothing of it (a lock loop's failed attempt,
  // a re-read after a wait): the event is then an await (EventLog::is_await).
  void park(const uint32_t* addr, uint32_t seen, bool logged = false, bool retry = false);
  void wrote(const uint32_t* addr) {
    if (parked_) wake(addr);
  }
  // For a strategy that logs the run's events (Strategy::event_log): the running
  // actor touched `bytes` of shared memory at `addr`, or appended history records
  // (RecordFlag: under ptx every record is kSerial), or made a fence.sc, which
  // orders it with every other (a word of the simulator's own).
  void touch(const void* addr, uint32_t bytes, bool write) {
    if (log_) [[unlikely]] log_touch(addr, bytes, write);
  }
  void records(uint8_t flags) {
    if (log_) [[unlikely]] log_->record(setting_.mode == memory::MemoryMode::Sc ? flags : uint8_t{kSerial});
  }
  void sc_fence() { touch_object(kScFenceObject, true); }
  // The same for an object of the simulator's own (a SimBlock's barrier), named by
  // `id` so that every run names it alike wherever it lives.
  void touch_object(uint64_t id, bool write) {
    if (log_) [[unlikely]] log_->touch(reinterpret_cast<const void*>((uint64_t{0xff} << 56) | (id << 2)), 4, write);
  }
  // The SimBlocks made for a run number themselves from 0 (their objects' ids); the
  // count restarts after each run.
  uint32_t next_block_id() { return blocks_made_++; }
  // A decision inside an actor that is not a scheduling one: one of `options`
  // values (the strategy's choose; the last is the default). Recorded in the run's
  // picks (marked, kChoiceMark), so a replay makes the same choice. At most 64 options.
  uint32_t choose(uint32_t options);
  [[noreturn]] void fault(const std::string& message);
  // Ends the run as a data race (`message` names both accesses).
  [[noreturn]] void race(const std::string& message);
  // Operations in flight; when the count drops to zero the quiescent hook runs.
  void op_begin() { ++in_flight_; }
  void op_end() {
    if (--in_flight_ == 0 && quiescent_hook_) {
      const memory::LiftedGuard lifted = lift_guard();  // the hook reads the structure directly
      quiescent_hook_();
    }
  }
  void set_quiescent_hook(std::function<void()> hook) { quiescent_hook_ = std::move(hook); }
  // For a check of the testbed's own during a run (a runner's, reading the
  // structure's words directly): the ptx model's guard lifted while it lives
  // (memory/direct_access_guard.h).
  memory::LiftedGuard lift_guard() { return memory::LiftedGuard(model_ ? &model_->guard() : nullptr); }
  uint32_t current() const { return running_; }
  // The recorder the run's contexts append to: an observer (sim/point_observer.h)
  // counts its events at each point.
  void uses_recorder(const HostRecorder* r) {
    if (r) recorder_ = r;
  }
  // The memory the actors share (a structure's arrays: locks, batches, slabs,
  // counters), as the runner laid it out: under the ptx memory mode, in a build with
  // AddressSanitizer, every byte of it is guarded during each run
  // (memory/direct_access_guard.h), not only the words the model met, so a structure
  // that touches a word only ever directly is caught too. Kept for the runs after,
  // until set again. Memory a structure views as private (x.private_view) is not
  // shared: its checked pointers read it directly.
  void set_shared_regions(std::vector<memory::GuardedRange> regions) { shared_regions_ = std::move(regions); }
  // Memory the actors reach through the context that the runner also reads or writes
  // itself between steps (inputs, outputs), so not guarded: named by its place, as a
  // shared region's words are, in a log of events (Strategy::event_log). Kept until
  // set again.
  void set_named_regions(std::vector<memory::GuardedRange> regions) { named_regions_ = std::move(regions); }

 private:
  struct Impl;
  void wake(const uint32_t* addr);
  void log_touch(const void* addr, uint32_t bytes, bool write);
  [[gnu::noinline]] void log_event(uint32_t decision);  // kept out of the hot paths that test log_ first
  void schedule_from(uint32_t me, bool me_runnable);
  void pick_at_point();
  // pick_at_point's most frequent case, inline: the strategy promised the running
  // actor again (Strategy::same_pick_before) and nothing is logged. False when this
  // point needs more. One compare (keep_below_, armed by pick_at_point). Flattened:
  // left to itself GCC calls the vector's push_back out of line here, at most points
  // of a schedule, though the room was checked.
  [[gnu::always_inline, gnu::flatten]] bool kept_promised_pick() {
    std::vector<uint32_t>& picks = result_->picks;
    if (picks.size() >= keep_below_) return false;
    picks.push_back(running_);
    return true;
  }
  // Whatever the promise rested on changed (the runnable set, the running actor, the
  // run stopped): the next point asks pick_at_point again, which re-arms it.
  void drop_kept_promise() { keep_below_ = 0; }
  [[gnu::cold]] void out_of_points();
  [[gnu::cold]] void checked_point();
  [[gnu::noinline]] void suspend(uint32_t me);  // a fiber switch: kept out of the paths that rarely take it
  void stop(Outcome o, std::string message);

  std::unique_ptr<Impl> impl_;
  memory::MemorySetting setting_;
  bool site_hooks_ = false;
  std::unique_ptr<memory::ModelMemory> model_;
  std::vector<memory::GuardedRange> shared_regions_, named_regions_;
  uint32_t running_ = 0;
  ActorSet runnable_ = 0;
  uint32_t parked_ = 0;
  int64_t in_flight_ = 0;
  uint64_t points_ = 0;
  uint64_t max_points_ = 0;
  uint64_t check_from_ = 0;  // max_points_, or 0 while observed
  PointObserver* observer_ = nullptr;
  const HostRecorder* recorder_ = nullptr;  // the run's, for an observer (SimContext names it)
  Strategy* strategy_ = nullptr;
  RunResult* result_ = nullptr;
  bool stopped_ = false;
  std::exception_ptr error_;  // thrown inside an actor, rethrown by run()
  std::function<void()> quiescent_hook_;
  EventLog* log_ = nullptr;
  static constexpr uint64_t kScFenceObject = 0;
  uint32_t blocks_made_ = 0;
  size_t last_picks_ = 0;  // how many picks the last run made (run reserves as many)
  // The strategy's last pick at a point, from which set, and the step before which it
  // promised to pick the same (Strategy::same_pick_before).
  ActorSet steady_from_ = 0;
  uint32_t steady_pick_ = 0;
  uint64_t steady_before_ = 0;
  // The picks' count below which a point keeps the running actor at once
  // (kept_promised_pick): the promise's step bound and the picks' room, armed where
  // the promise is taken with runnable_ == steady_from_, running_ == steady_pick_ and
  // nothing logged; 0 (never) from any change of those until the next pick_at_point.
  uint64_t keep_below_ = 0;
};

}  // namespace gpulin::sim
