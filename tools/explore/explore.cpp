#include "tools/explore/explore.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "histories/jsonl_writer.h"
#include "sim/strategies/dfs_strategy.h"
#include "sim/strategies/dpor_strategy.h"
#include "sim/strategies/pct_strategy.h"
#include "sim/strategies/pos_strategy.h"
#include "sim/strategies/random_strategy.h"
#include "sim/strategies/replay_strategy.h"
#include "sim/strategies/traced_strategy.h"

namespace gpulin::explore {

bool ExploreSummary::found_bug() const {
  for (const auto& [kind, n] : counts)
    if (n && is_bug(kind)) return true;
  return false;
}

namespace {
// The portfolio's turns: PCT at three depths (a bug of depth d needs d - 1 well-placed
// preemptions), partial order sampling twice (even over traces), a random walk
// (many shallow preemptions: what an allocator's races need). PCT at depth 3 comes
// first, so schedule 0 is `--strategy pct`'s schedule 0.
const PortfolioMember kPortfolio[] = {{"pct", 3}, {"pos", 0}, {"random", 0}, {"pct", 2}, {"pos", 0}, {"pct", 5}};
constexpr uint64_t kPortfolioTurns = sizeof(kPortfolio) / sizeof(kPortfolio[0]);
}  // namespace

PortfolioMember portfolio_member(uint64_t index) { return kPortfolio[index % kPortfolioTurns]; }

std::string portfolio_text() {
  std::string out;
  for (const PortfolioMember& m : kPortfolio) {
    if (!out.empty()) out += ", ";
    out += m.strategy;
    if (m.strategy == "pct") out += fmt::format(" d={}", m.depth);
  }
  return out;
}

std::unique_ptr<sim::Strategy> make_strategy(const ExploreOptions& o, uint64_t seed, uint64_t pct_length,
                                             uint64_t index) {
  std::string name = o.strategy;
  uint32_t depth = o.depth;
  if (name == "portfolio") {
    const PortfolioMember m = portfolio_member(index);
    name = m.strategy;
    depth = m.depth;
  }
  if (name == "random") return std::make_unique<sim::RandomStrategy>(seed);
  if (name == "pct") return std::make_unique<sim::PctStrategy>(seed, depth, pct_length);
  if (name == "pos") return std::make_unique<sim::PosStrategy>(seed);
  if (name == "dfs") return std::make_unique<sim::DfsStrategy>(o.preemptions);
  if (name == "dpor") return std::make_unique<sim::DporStrategy>();
  throw std::invalid_argument("unknown strategy '" + o.strategy + "' (portfolio, random, pct, pos, dfs, dpor)");
}

bool is_systematic(const std::string& strategy) { return strategy == "dfs" || strategy == "dpor"; }

ExploreProgress::ExploreProgress(const ExploreOptions& options)
    : o_(options), start_(std::chrono::steady_clock::now()), last_(start_) {}

bool ExploreProgress::out_of_time() const {
  return o_.time_limit > 0 &&
         std::chrono::steady_clock::now() - start_ > std::chrono::duration<double>(o_.time_limit);
}

void ExploreProgress::update(const ExploreSummary& sum) {
  const auto now = std::chrono::steady_clock::now();
  if (!o_.progress || now - last_ <= std::chrono::milliseconds(250)) return;
  last_ = now;
  std::fprintf(stderr, "\r  %llu/%llu schedules, %.1f M points/s, %zu failures   ",
               static_cast<unsigned long long>(sum.schedules), static_cast<unsigned long long>(o_.schedules),
               sum.points / std::max(sum.sim_seconds, 1e-9) / 1e6, sum.first.size());
}

void ExploreProgress::finish(ExploreSummary& sum, bool exhausted, const std::unordered_set<uint64_t>& distinct) {
  if (o_.progress) std::fprintf(stderr, "\r%80s\r", "");
  sum.exhaustive = exhausted;
  sum.distinct_histories = distinct.size();
  sum.fingerprints.assign(distinct.begin(), distinct.end());
  std::sort(sum.fingerprints.begin(), sum.fingerprints.end());
  sum.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void count_failure(ExploreSummary& sum, Failure kind, uint64_t found_at,
                   const std::function<void(FailureReport&)>& report) {
  if (kind == Failure::None) return;
  ++sum.counts[kind];
  if (sum.first.count(kind)) return;
  FailureReport r;
  r.kind = kind;
  r.found_at = found_at;
  report(r);
  sum.first[kind] = std::move(r);
}

std::optional<std::vector<uint32_t>> retry_schedules(const ScheduleAttempt& attempt, const std::vector<uint32_t>& picks,
                                                     const ExploreOptions& o, uint64_t tries) {
  sim::ReplayStrategy replay(picks, /*strict=*/false);
  if (auto r = attempt(replay)) return r;
  sim::PctStrategy pct(o.seed ^ 0x5eed, o.depth);
  sim::RandomStrategy rnd(o.seed ^ 0xbeef);
  for (uint64_t i = 0; i < tries; ++i)
    if (auto r = attempt(i % 2 ? static_cast<sim::Strategy&>(rnd) : static_cast<sim::Strategy&>(pct))) return r;
  return std::nullopt;
}

namespace {
// The part `u` of a split run; without a split, the whole run.
std::vector<WorkUnit> plan_units(const ExploreOptions& o, const HistoryExploration& steps) {
  if (!o.units) return {WorkUnit{0, o.schedules, {}}};
  if (!is_systematic(o.strategy)) return schedule_parts(o.schedules, schedule_chunk(o.schedules));
  const uint32_t actors = steps.generate(o.seed);
  // dpor's parts: subtrees of the search with no bound, each searched by DPOR below
  // its prefix (the prefix branches to every actor, so no reordering is lost).
  return dfs_frontier(o.strategy == "dpor" ? kNoPreemptionBound : o.preemptions, [&](sim::Strategy& probe) {
    probe.begin_run(actors);
    steps.execute(probe);
  });
}

// Runs schedules and counts what they found; one of these per explored part.
struct ScheduleCounter {
  const ExploreOptions& o;
  const HistoryExploration& steps;
  ExploreSummary& sum;
  ExploreProgress& progress;
  std::unordered_set<uint64_t> seen;
  std::unordered_map<uint64_t, uint32_t> traces;  // met, and how often
  std::vector<uint8_t> new_trace;                  // per schedule: it met a new trace
  sim::TracedStrategy traced;  // wraps each sampled schedule's strategy

  // The time limit passed: no further schedule starts, and the summary says so.
  bool stopped_for_time() {
    if (!sum.timed_out && progress.out_of_time()) sum.timed_out = true;
    return sum.timed_out;
  }
  // A sampled schedule, its trace read from its log.
  void run(sim::Strategy& strategy, uint32_t actors, uint64_t unit, uint64_t found_at) {
    if (!o.coverage) {
      strategy.begin_run(actors);
      return run_begun(strategy, unit, found_at);
    }
    traced.wrap(strategy);
    traced.begin_run(actors);
    run_begun(traced, unit, found_at);
  }
  void run_begun(sim::Strategy& strategy, uint64_t unit, uint64_t found_at) {
    const auto t0 = std::chrono::steady_clock::now();
    const ExecutedRun run = steps.execute(strategy);
    sum.sim_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    count_trace(strategy);
    sum.points += run.points;
    sum.stale_reads += run.stale_reads;
    sum.outside_writes += run.outside_writes;
    ++sum.schedules;
    seen.insert(run.history ? history_fingerprint(*run.history) : run.output_fingerprint);
    const Judgement j = steps.judge();
    sum.searched += j.searched;
    count_failure(sum, j.failure, found_at, [&](FailureReport& r) {
      r.unit = unit;
      steps.report(r);
    });
    progress.update(sum);
  }
  void count_trace(sim::Strategy& strategy) {
    uint64_t trace = 0;
    if (const auto* d = dynamic_cast<const sim::DporStrategy*>(&strategy)) {
      if (d->last_run_redundant()) return new_trace.push_back(0);
      trace = d->last_trace();
    } else if (const auto* t = dynamic_cast<const sim::TracedStrategy*>(&strategy)) {
      trace = t->last_trace();
    } else {
      return;  // not counted (options.coverage off)
    }
    new_trace.push_back(++traces[trace] == 1);
  }
  void finish_coverage() {
    TraceCoverage& c = sum.coverage;
    for (const auto& [trace, n] : traces) {
      c.traces.push_back(trace);
      c.seen_once += n == 1;
    }
    std::sort(c.traces.begin(), c.traces.end());
    c.recent = (new_trace.size() + 9) / 10;
    c.recent_new = static_cast<uint64_t>(std::count(new_trace.end() - static_cast<long>(c.recent), new_trace.end(), 1));
  }
};

// Every schedule (dfs) or trace (dpor) of the subtree below the part's prefix (up to
// options.schedules in all); true when the subtree was exhausted.
bool explore_subtree(ScheduleCounter& c, const WorkUnit& part, uint64_t unit, uint32_t actors,
                     const std::vector<uint32_t>& roles) {
  if (c.o.strategy == "dpor") {
    sim::DporStrategy dpor(part.prefix, roles);
    bool exhausted = false;
    for (uint64_t j = 0; c.sum.schedules < c.o.schedules && !c.stopped_for_time(); ++j) {
      if (!dpor.begin_run(actors)) {
        exhausted = true;
        break;
      }
      c.run_begun(dpor, unit, j);
    }
    // At the cap: was that the last trace? (The strategy is not used after.)
    if (!exhausted) exhausted = !dpor.begin_run(actors);
    c.sum.dpor->counts += dpor.stats();
    return exhausted;
  }
  sim::DfsStrategy dfs(c.o.preemptions, part.prefix);
  sim::TracedStrategy traced(dfs);
  for (uint64_t j = 0; c.sum.schedules < c.o.schedules && !c.stopped_for_time(); ++j) {
    if (!traced.begin_run(actors)) return true;
    c.run_begun(traced, unit, j);
  }
  return dfs.exhausted();
}

// Random/pct schedules [first, last): schedule i runs program i / program_every
// under a strategy seeded for i alone. PCT draws its change points over the length
// of schedule 0's run, which a part that does not hold it measures first.
class ScheduleRange {
 public:
  explicit ScheduleRange(ScheduleCounter& c) : c_(c) {}
  void explore(const WorkUnit& part, uint64_t unit) {
    for (uint64_t i = part.first; i < part.last && !c_.stopped_for_time(); ++i) {
      if (uses_pct() && !pct_measured_ && i != 0) measure_pct_length();
      const uint32_t actors = program_for(i);
      auto strategy = make_strategy(c_.o, schedule_seed(c_.o.seed, i), pct_length_, i);
      c_.run(*strategy, actors, unit, i);
      if (i == 0 && uses_pct()) set_pct_length(static_cast<sim::PctStrategy&>(*strategy).length());
    }
  }

 private:
  uint32_t program_for(uint64_t i) {
    const uint64_t every = c_.o.program_every;
    const uint64_t program = every ? i / every * every : 0;
    if (program != program_) actors_ = c_.steps.generate(program_seed(c_.o.seed, program)), program_ = program;
    return actors_;
  }
  // Schedule 0 is PCT's (the portfolio's first turn is PCT too).
  bool uses_pct() const { return c_.o.strategy == "pct" || c_.o.strategy == "portfolio"; }
  void measure_pct_length() {
    sim::PctStrategy first(schedule_seed(c_.o.seed, 0),
                           c_.o.strategy == "portfolio" ? portfolio_member(0).depth : c_.o.depth);
    actors_ = c_.steps.generate(c_.o.seed);
    program_ = 0;
    first.begin_run(actors_);
    c_.steps.execute(first);
    set_pct_length(first.length());
  }

  ScheduleCounter& c_;
  uint64_t program_ = ~uint64_t(0);
  uint32_t actors_ = 0;
  void set_pct_length(uint64_t length) {
    pct_length_ = length;
    pct_measured_ = true;
  }
  // Until schedule 0's length is known, strategies of other kinds get 64 (unused).
  // (Two fields, not an optional: GCC 12 warned the optional's value might be read
  // uninitialized.)
  uint64_t pct_length_ = 64;
  bool pct_measured_ = false;
};
}  // namespace

ExploreSummary explore_histories(const ExploreOptions& o, const HistoryExploration& steps) {
  ExploreSummary sum;
  ExploreProgress progress(o);
  const std::vector<WorkUnit> parts = plan_units(o, steps);
  sum.units = parts.size();
  const UnitSource whole = [next = uint64_t(0)](uint64_t n) mutable -> std::optional<uint64_t> {
    return next < n ? std::optional<uint64_t>(next++) : std::nullopt;
  };
  UnitSource source = o.units ? o.units : whole;
  ScheduleCounter counter{o, steps, sum, progress, {}, {}, {}, {}};
  ScheduleRange range(counter);
  const bool systematic = is_systematic(o.strategy);
  const uint32_t actors = systematic ? steps.generate(o.seed) : 0;
  std::vector<uint32_t> roles;
  if (o.strategy == "dpor") {
    sum.dpor.emplace();
    sum.dpor->actors = actors;
    if (o.symmetry && steps.roles) {
      roles = steps.roles();
      sum.dpor->orbits = static_cast<uint32_t>(std::set<uint32_t>(roles.begin(), roles.end()).size());
    }
  }
  bool exhausted = systematic;
  while (const auto u = source(parts.size())) {
    if (counter.stopped_for_time()) break;
    if (systematic)
      exhausted = explore_subtree(counter, parts[*u], *u, actors, roles) && exhausted;
    else
      range.explore(parts[*u], *u);
  }
  counter.finish_coverage();
  progress.finish(sum, exhausted && !sum.timed_out, counter.seen);
  if (sum.dpor) sum.dpor->complete = exhausted && !sum.timed_out && !sum.counts.count(Failure::Livelock);
  return sum;
}

uint64_t history_fingerprint(const History& h) {
  uint64_t x = 1469598103934665603ULL;
  auto mix = [&x](uint64_t v) { x = (x ^ v) * 1099511628211ULL; };
  for (const Event& e : h.events) {
    mix(static_cast<uint64_t>(e.kind));
    mix(static_cast<uint64_t>(e.op));
    mix(static_cast<uint64_t>(e.node));
  }
  for (const Operation& o : h.ops) mix(o.res ? o.res->hash() : 7);
  return x;
}

JudgeOptions schedule_judge_options(const ExploreOptions& options, PassedHistories& passed) {
  JudgeOptions judged = options.judge;
  if (options.remember_passed) judged.passed = &passed;
  return judged;
}

void set_schedule_field(History& h, const std::string& schedule) {
  std::string quoted;
  append_json_string(quoted, schedule);
  auto& extra = h.header.extra;
  extra.erase(std::remove_if(extra.begin(), extra.end(), [](const auto& kv) { return kv.first == "schedule"; }),
              extra.end());
  extra.emplace_back("schedule", quoted);
}

void write_failure_files(FailureReport& r, const std::string& out_dir, const std::string& name,
                         const History* history, const sim::RunResult* run) {
  if (run) r.marks = run->marks;
  if (history) {
    History h = *history;
    set_schedule_field(h, r.schedule);
    r.history = std::move(h);
  }
  if (out_dir.empty()) return;
  std::filesystem::create_directories(out_dir);
  const std::string base = out_dir + "/" + name + "-" + to_string(r.kind);
  if (r.history) {
    r.history_path = base + ".jsonl";
    write_history_file(r.history_path, *r.history);
  }
  std::ofstream(base + ".schedule") << r.schedule << "\n# " << to_string(r.kind) << ": " << r.message << "\n";
}

}  // namespace gpulin::explore
