// Dynamic partial-order reduction: one run of every Mazurkiewicz trace of the
// program, with no preemption bound (Source-DPOR with sleep sets: Abdulla, Aronis,
// Jonsson and Sagonas, "Optimal dynamic partial order reduction", POPL 2014,
// Algorithm 1; Flanagan and Godefroid, POPL 2005, for the stateless setting).
//
// Stateless, as DfsStrategy: each run replays a prefix of decisions, then decides
// anew. After a run, the simulator's log of it (trace/event_log.h) gives each event's
// words and records; every race in it (trace/trace_clocks.h: dependent events i < j
// ordered only by themselves) asks for a run where j's side goes first from the
// state before i: unless an actor that can start that reordering (an initial of the
// events not after i, then j) is already in that decision's backtrack set, one is
// added. Only actors runnable before i can start it: a race whose later actor was
// parked there and woken by i itself cannot be reversed and asks for nothing.
//
// Awaits (a failed attempt parked to be retried: EventLog::is_await) are no steps of
// the trace. An await is the later event of its races (its actor could have gone
// before the write that made it wait: the lock taken first) and never the earlier
// one, is no step of the reordering that starts a reversal, and wakes no sleeper. A
// reversal that lands in a wait repeats its trace once; the repeat holds the await's
// race that leads on.
//
// Sleep sets: after a decision's alternative was explored, its actor sleeps in the
// later alternatives' runs until an event dependent on its own runs; a sleeping
// actor is not picked. A run where every runnable actor sleeps is equivalent to one
// explored already ("sleep-set blocked"): it is finished (the simulator cannot stop
// it) but its races ask for nothing and `last_run_redundant` says so.
//
// Under the ptx memory mode, a load's choice of store is a decision too: every value
// the model offers is explored, each under DPOR for the schedule after it (as
// GenMC explores C11's reads-from; here the choices are the model's, so a value
// reachable only by another order of independent events is reached in that order's
// run). Every record is then dependent on every other (RecordFlag kSerial).
//
// Symmetry: actors with the same role (same program, same part; `roles[a]`) are
// interchangeable until one of them touches shared memory or records (before that
// each is where its deterministic program starts, having read nothing). Among the
// runnable actors of one role that have not started, only the lowest is ever
// picked: runs that start another one instead are the same runs with the actors
// renamed.
//
// Given a prefix, the search stays below it, as DfsStrategy's does: shards split
// DPOR along a frontier of prefixes (tools/explore/work_units.h) that branches into
// every runnable actor at its decisions, so no reordering inside a prefix is lost.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/strategy.h"
#include "sim/trace/event_log.h"

namespace gpulin::sim {

class DporStrategy final : public Strategy {
 public:
  struct Stats {
    uint64_t runs = 0;
    uint64_t redundant = 0;        // sleep-set blocked runs
    uint64_t races = 0;            // races seen, over all runs
    uint64_t reversals = 0;        // actors added to backtrack sets
    uint64_t pruned = 0;           // alternatives at decisions never run: each a schedule (or more) avoided
    uint64_t symmetric = 0;        // of those, left out as another actor's renaming
    uint64_t value_choices = 0;    // ptx: alternative values run
    Stats& operator+=(const Stats& o) {
      runs += o.runs;
      redundant += o.redundant;
      races += o.races;
      reversals += o.reversals;
      pruned += o.pruned;
      symmetric += o.symmetric;
      value_choices += o.value_choices;
      return *this;
    }
  };

  explicit DporStrategy(std::vector<uint32_t> prefix = {}, std::vector<uint32_t> roles = {})
      : prefix_(std::move(prefix)), roles_(std::move(roles)) {}

  bool begin_run(uint32_t actors) override;
  uint32_t pick(ActorSet runnable, uint32_t current, uint64_t step) override;
  uint32_t choose(uint32_t options, uint64_t step) override;
  void end_run(uint64_t decisions) override;
  std::string name() const override { return "dpor"; }
  bool exhausted() const override { return exhausted_; }
  EventLog* event_log() override { return &log_; }

  const Stats& stats() const { return stats_; }
  // The last run was equivalent to an earlier one (sleep-set blocked).
  bool last_run_redundant() const { return redundant_; }
  // The last run's trace (TraceClocks::fingerprint).
  uint64_t last_trace() const { return trace_; }

 private:
  struct Sleeper {
    uint32_t actor;
    Footprint next;  // the event it would run
  };
  struct Frame {
    bool choice = false;
    bool fixed = false;       // from the prefix: never backtracked
    ActorSet enabled = 0;     // a pick's runnable actors; a choice's values
    uint32_t chosen = 0;
    ActorSet backtrack = 0;   // to run from here (a choice: every value)
    ActorSet done = 0;        // run from here already
    ActorSet started = 0;     // actors that touched shared memory before this decision
    std::vector<Sleeper> sleep;       // asleep when the decision is made
    std::vector<Sleeper> done_events;  // the actors run from here, with their events
    Footprint event;          // the chosen actor's event, once the run logged it
    bool event_known = false;
  };

  // The actors `f` may pick: runnable, not asleep, and the lowest unstarted one
  // of each role.
  ActorSet eligible(const Frame& f) const;
  // `a` or, when it has not started at `f`, the lowest unstarted actor of its role.
  uint32_t representative(const Frame& f, uint32_t a) const;
  // Brings the running sleep set up to date with the events logged since last time.
  void advance_sleep();
  void reverse_races(size_t usable_events);

  std::vector<uint32_t> prefix_;
  std::vector<uint32_t> roles_;
  std::vector<Frame> stack_;
  EventLog log_;
  uint32_t actors_ = 0;
  bool started_ = false, exhausted_ = false;
  // During a run: the sleep set after the last decision, the events it has seen,
  // and the actors that touched shared memory.
  std::vector<Sleeper> sleep_now_;
  size_t events_seen_ = 0;
  ActorSet ran_ = 0;
  bool redundant_ = false;
  size_t blocked_at_event_ = 0;
  uint64_t trace_ = 0;
  Stats stats_;
};

}  // namespace gpulin::sim
