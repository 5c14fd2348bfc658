// `gpulin explore`'s loop, for every structure: many simulated schedules of a
// structure's programs, every run judged; the first failure of each kind shrunk to
// a minimal replayable program. A structure gives the loop its steps
// (HistoryExploration) from its own folder (structures/NAME/sim/).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>

#include "sim/memory/model_memory.h"
#include "sim/strategies/dpor_strategy.h"
#include "sim/strategy.h"
#include "tools/explore/judge_history.h"
#include "tools/explore/work_units.h"

namespace gpulin::explore {

// How a structure is explored, whichever it is (its own configuration and program
// shape are its own: the registry row's parameters).
struct ExploreOptions {
  std::string strategy = "portfolio";  // portfolio, random, pct, pos, dfs, dpor
  uint32_t depth = 3;            // pct
  uint32_t preemptions = 2;      // dfs
  uint64_t schedules = 1000;
  // Seconds after which no further schedule starts (0: none); the report says the
  // run stopped there (ExploreSummary::timed_out): a search so cut is not complete.
  double time_limit = 0;
  uint64_t seed = 1;
  // dpor: explore one representative of each orbit of actors that run the same
  // program in the same role (HistoryExploration::roles).
  bool symmetry = true;
  // Count the distinct traces the schedules met (TraceCoverage): each run's steps
  // logged and ordered by happens-before. dfs and dpor count theirs always.
  bool coverage = true;
  // random/pct: a fresh program every `program_every` schedules (0: one program);
  // dfs always explores one program.
  uint64_t program_every = 1;
  uint64_t max_points = 200'000;  // per run, then livelock
  JudgeOptions judge;
  // Pass a repeat of a history that passed unchecked (passed_histories.h); off, every
  // schedule's history is judged (the benchmark's baseline).
  bool remember_passed = true;
  std::string out_dir;             // "" : write nothing
  bool progress = false;           // a progress line on stderr
  bool shrink = true;
  // The parts of the run this process explores (explore --shard, --mpi); empty: the
  // whole run as one part (every explorer built on explore_histories splits).
  UnitSource units;
};

struct FailureReport {
  Failure kind = Failure::None;
  std::string message;
  std::string schedule;          // replay string of the minimal failing run
  size_t ops = 0;                // operations in it
  uint64_t found_at = 0;         // schedule index where first seen (dfs: within its part)
  uint64_t unit = 0;             // the part of a split run it was found in
  std::string history_path;      // written to out_dir
  std::optional<History> history;  // the minimal failing run's, where it has one
  std::vector<sim::memory::ModelMemory::Mark> marks;  // its stale reads and race under ptx
};

// What partial-order reduction did, for the report: its strategies' counts, summed
// over the parts of the run.
struct DporSummary {
  sim::DporStrategy::Stats counts;
  uint32_t orbits = 0;      // classes of interchangeable actors (0: symmetry not used)
  uint32_t actors = 0;
  bool complete = false;    // every trace of the program run (no run cut short, no schedule cap)
};

// Coverage: the distinct Mazurkiewicz traces (runs equal up to reordering
// independent steps) the run met, and how fast new ones were still coming.
struct TraceCoverage {
  std::vector<uint64_t> traces;  // the distinct traces' fingerprints, sorted
  uint64_t seen_once = 0;        // traces met exactly once: seen_once / schedules estimates the
                                 // chance that one more schedule meets a new trace (Good-Turing)
  uint64_t recent = 0;           // schedules in the last tenth of the run
  uint64_t recent_new = 0;       // of those, the ones that met a new trace
};

struct ExploreSummary {
  uint64_t schedules = 0;
  uint64_t points = 0;
  // Under the ptx memory mode: loads that read an older store than the newest, and
  // words the structure changed around the execution context (sim::RunResult).
  uint64_t stale_reads = 0;
  uint64_t outside_writes = 0;
  double sim_seconds = 0;    // time inside the simulator
  double total_seconds = 0;  // simulator, checkers, shrinking
  uint64_t distinct_histories = 0;
  uint64_t searched = 0;
  bool exhaustive = false;   // dfs explored every schedule within its bound; dpor every trace
  bool timed_out = false;    // stopped at ExploreOptions::time_limit
  TraceCoverage coverage;
  std::optional<DporSummary> dpor;
  uint64_t units = 1;        // the parts the run was split into (one: unsplit)
  std::vector<uint64_t> fingerprints;  // of the distinct histories, sorted
  std::map<Failure, uint64_t> counts;  // failures by kind
  std::map<Failure, FailureReport> first;  // the shrunk first failure of each kind
  bool found_bug() const;
};

// What every exploration loop does beside its runs: the progress line on stderr
// (options.progress, at most four times a second, cleared at the end) and the
// summary's closing totals.
class ExploreProgress {
 public:
  explicit ExploreProgress(const ExploreOptions& options);
  void update(const ExploreSummary& sum);
  // The time limit passed (ExploreOptions::time_limit; never without one).
  bool out_of_time() const;
  // Clears the line; sets exhaustive, distinct_histories and fingerprints (of the
  // distinct results seen) and total_seconds.
  void finish(ExploreSummary& sum, bool exhausted, const std::unordered_set<uint64_t>& distinct);

 private:
  const ExploreOptions& o_;
  std::chrono::steady_clock::time_point start_, last_;
};

// Counts a run's failure (None counts nothing); the first of its kind gets a
// report: kind and found_at set, then `report` fills the rest (shrinks the program,
// replays it, writes its schedule).
void count_failure(ExploreSummary& sum, Failure kind, uint64_t found_at,
                   const std::function<void(FailureReport&)>& report);

// A history's identity for counting distinct ones: its events and results.
uint64_t history_fingerprint(const History& h);

// What a structure gives the exploration loop, explore_histories. The structure
// keeps its current program and its last execution. Most record histories; one
// that records none (the merge) tells its runs apart by their outputs.
struct ExecutedRun {
  uint64_t points = 0;              // scheduling points
  const History* history = nullptr;  // what the run recorded
  uint64_t output_fingerprint = 0;   // without a history: its output's identity
  uint64_t stale_reads = 0, outside_writes = 0;  // sim::RunResult's
};
struct HistoryExploration {
  // Makes a new current program from `seed`; returns its actors.
  std::function<uint32_t(uint64_t seed)> generate;
  // Optional: each actor's role in the current program; actors of one role run the
  // same program the same way and may be renamed (roles_of), for dpor's symmetry.
  std::function<std::vector<uint32_t>()> roles;
  // Runs the current program once under `strategy` (begin_run already called).
  std::function<ExecutedRun(sim::Strategy& strategy)> execute;
  // Judges the last execution.
  std::function<Judgement()> judge;
  // The last execution is the first failure of its kind (r.kind, r.found_at set):
  // shrinks it, replays the minimal program and fills in the rest of the report.
  std::function<void(FailureReport& r)> report;
};
// options.schedules runs (fewer when dfs exhausts its bound), a new program every
// options.program_every schedules (random and pct), built from program_seed(seed,
// its first schedule's index); counts failures, distinct
// histories, points and time. Random/pct schedule i runs under a strategy seeded
// for i alone (schedule_seed), so that any split of the run (options.units) runs
// exactly the schedules of the whole; dfs splits into subtrees (dfs_frontier).
ExploreSummary explore_histories(const ExploreOptions& options, const HistoryExploration& steps);

// The options each schedule of a run is judged with: options.judge, remembering the
// passed histories in `passed` unless options.remember_passed is off.
JudgeOptions schedule_judge_options(const ExploreOptions& options, PassedHistories& passed);

// Names the run in a history's header: its "schedule" field, the replay string
// (replacing one there).
void set_schedule_field(History& h, const std::string& schedule);

// The first failure's files, under out_dir (nothing when it is ""):
// NAME-KIND.schedule (the replay string, then "# KIND: message") and, given the
// run's history, NAME-KIND.jsonl with the replay string in its header
// (r.history_path names it). r keeps the history and, given the run, its marks.
void write_failure_files(FailureReport& r, const std::string& out_dir, const std::string& name,
                         const History* history, const sim::RunResult* run = nullptr);

// The strategy of schedule `index` (random, pct, pos, or under `portfolio` the one
// of its turn: portfolio_member), seeded; PCT draws its first run's change points
// over `pct_length` decisions. dfs and dpor: the whole search's.
std::unique_ptr<sim::Strategy> make_strategy(const ExploreOptions& options, uint64_t seed, uint64_t pct_length = 64,
                                             uint64_t index = 0);
// The portfolio's strategy for schedule `index`: they take turns, so that any
// stretch of schedules has them all in fixed shares.
struct PortfolioMember {
  std::string strategy;  // pct, pos, random
  uint32_t depth = 0;    // pct
};
PortfolioMember portfolio_member(uint64_t index);
// dfs and dpor search one program systematically; the others sample schedules.
bool is_systematic(const std::string& strategy);
std::string portfolio_text();

// Roles from the actors' programs: equal programs, one role (numbered by first
// appearance).
template <class P>
std::vector<uint32_t> roles_of(const std::vector<P>& programs) {
  std::vector<uint32_t> roles(programs.size());
  for (size_t a = 0; a < programs.size(); ++a) {
    roles[a] = static_cast<uint32_t>(a);
    for (size_t b = 0; b < a; ++b)
      if (programs[b] == programs[a]) {
        roles[a] = roles[b];
        break;
      }
  }
  return roles;
}
// Shrinking's question, "does this smaller program still fail the same way?": runs
// `attempt` under a lenient replay of `picks`, then under up to `tries` fresh PCT
// and random schedules; the picks of the first failing run, if any. `attempt` runs
// one execution under the strategy it is given (begin_run included) and returns its
// picks when it failed as wanted.
using ScheduleAttempt = std::function<std::optional<std::vector<uint32_t>>(sim::Strategy&)>;
std::optional<std::vector<uint32_t>> retry_schedules(const ScheduleAttempt& attempt, const std::vector<uint32_t>& picks,
                                                     const ExploreOptions& options, uint64_t tries);

// A shrinker's current program and the picks of a run that fails with it.
// accept(smaller) keeps `smaller` when a run of it still fails the same way
// (retry_schedules: a lenient replay of the current picks, then up to `tries` fresh
// schedules). `fails` runs one execution of a program under a strategy (begin_run
// included) and returns its picks when it failed as wanted.
template <class P>
class ShrinkState {
 public:
  using Fails = std::function<std::optional<std::vector<uint32_t>>(const P& program, sim::Strategy& s)>;
  ShrinkState(P program, std::vector<uint32_t> picks, Fails fails, const ExploreOptions& o, uint64_t tries)
      : program_(std::move(program)), picks_(std::move(picks)), fails_(std::move(fails)), o_(o), tries_(tries) {}
  bool accept(const P& smaller) {
    auto found = retry_schedules([&](sim::Strategy& s) { return fails_(smaller, s); }, picks_, o_, tries_);
    if (!found) return false;
    program_ = smaller;
    picks_ = std::move(*found);
    return true;
  }
  const P& program() const { return program_; }
  std::pair<P, std::vector<uint32_t>> result() && { return {std::move(program_), std::move(picks_)}; }

 private:
  P program_;
  std::vector<uint32_t> picks_;
  Fails fails_;
  const ExploreOptions& o_;
  uint64_t tries_;
};

}  // namespace gpulin::explore
