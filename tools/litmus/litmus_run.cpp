#include "tools/litmus/litmus_run.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "sim/memory/ptx_memory.h"
#include "sim/simulator.h"
#include "sim/strategies/dfs_strategy.h"
#include "sim/strategies/replay_strategy.h"

namespace gpulin::litmus {
namespace {

using sim::memory::PtxMemory;

// A litmus test's instructions are few; a run longer than this is a bug of ours.
constexpr uint64_t kMaxPoints = 1'000'000;

struct Execution {
  sim::RunResult run;
  bool proposition = false;  // the condition's proposition held in the final state
  std::string outcome;       // the final state, as text
  std::string trace;         // with `traced`: what each instruction did
};

int64_t wrap(uint64_t v) { return static_cast<int64_t>(v); }

class Runner {
 public:
  Runner(const LitmusTest& t, MemoryMode memory) : t_(t), memory_(memory) {
    for (const auto& [name, value] : t.locations) location_names_.push_back(name);
    for (size_t k = 0; k < t.threads.size(); ++k) {
      const auto p = t.threads[k].place;
      ++cta_size_[{p.gpu, p.cta}];
    }
  }

  Execution execute(sim::Strategy& strategy, bool traced) {
    std::vector<sim::memory::Place> places;
    for (const Thread& th : t_.threads) places.push_back(th.place);
    PtxMemory mem(places);
    std::map<std::string, uint32_t> loc;
    for (const auto& [name, value] : t_.locations) loc[name] = mem.add_location(static_cast<uint64_t>(value));
    std::vector<std::map<std::string, int64_t>> regs;
    for (const Thread& th : t_.threads) regs.push_back(th.registers);
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Barrier> barriers;
    std::ostringstream trace;

    Execution e;
    e.run = sim_.run(
        static_cast<uint32_t>(t_.threads.size()),
        [&](uint32_t a) {
          const Thread& th = t_.threads[a];
          auto& r = regs[a];
          auto value = [&](const Operand& o) { return o.is_register ? r[o.reg] : o.value; };
          bool started = false;
          for (const Instruction& in : th.code) {
            // Every memory operation but a thread's first is a scheduling point: the
            // thread was picked to run its first one (a point before it would only
            // repeat that decision, and multiply the executions to explore). Register
            // arithmetic is none (no other thread can see it).
            if (in.op != Op::Move && in.op != Op::Add) {
              if (started) sim_.point();
              started = true;
            }
            std::string did;
            switch (in.op) {
              case Op::Load: {
                const uint32_t l = loc.at(in.location);
                r[in.dest] = wrap(mem.load(a, l, in.order, in.scope, [&](uint32_t n) {
                  return memory_ == MemoryMode::Sc ? n - 1 : sim_.choose(n);  // sc: the newest, always
                }));
                if (traced) did = "-> " + std::to_string(r[in.dest]) + read_from(mem.last_read(a), in.location);
                break;
              }
              case Op::Store:
                mem.store(a, loc.at(in.location), static_cast<uint64_t>(value(in.a)), in.order, in.scope);
                break;
              case Op::Rmw:
              case Op::Reduce: {
                const int64_t x = value(in.a), y = value(in.b);
                const RmwOp op = in.rmw;
                const uint64_t old = mem.rmw(a, loc.at(in.location), in.order, in.scope,
                                             [&](uint64_t v) -> std::optional<uint64_t> { return apply(op, v, x, y); });
                if (in.op == Op::Rmw) r[in.dest] = wrap(old);
                if (traced) did = "-> old " + std::to_string(wrap(old)) + read_from(mem.last_read(a), in.location);
                break;
              }
              case Op::Fence: mem.fence(a, in.order, in.scope); break;
              case Op::Barrier: {
                Barrier& b = barriers[{th.place.gpu, th.place.cta, in.barrier}];
                b.arrived.push_back(a);
                const size_t needed = in.barrier_count ? in.barrier_count : cta_size_.at({th.place.gpu, th.place.cta});
                if (b.arrived.size() >= needed) {
                  mem.barrier(b.arrived);
                  b.arrived.clear();
                  ++b.generation;
                  sim_.wrote(&b.generation);
                } else {
                  sim_.park(&b.generation, b.generation);
                }
                break;
              }
              case Op::Move: r[in.dest] = value(in.a); break;
              case Op::Add:  // wrapping, as the GPU's add does
                r[in.dest] = wrap(static_cast<uint64_t>(value(in.a)) + static_cast<uint64_t>(value(in.b)));
                break;
            }
            if (traced) trace << "  " << th.name << "  " << in.text << (did.empty() ? "" : "   " + did) << "\n";
          }
        },
        strategy, kMaxPoints);
    if (e.run.outcome == sim::Outcome::Completed) {
      auto lookup = [&](int thread, const std::string& name) -> int64_t {
        if (thread >= 0) {
          const auto& rr = regs[static_cast<size_t>(thread)];
          const auto it = rr.find(name);
          return it == rr.end() ? 0 : it->second;
        }
        return wrap(mem.final_value(loc.at(name)));
      };
      e.proposition = holds(*t_.condition.expr, lookup);
      std::ostringstream out;
      for (size_t k = 0; k < regs.size(); ++k)
        for (const auto& [name, v] : regs[k]) out << t_.threads[k].name << ":" << name << "=" << v << "; ";
      for (const auto& name : location_names_) out << name << "=" << wrap(mem.final_value(loc.at(name))) << "; ";
      e.outcome = out.str();
    }
    e.trace = trace.str();
    return e;
  }

 private:
  struct Barrier {
    std::vector<uint32_t> arrived;
    uint32_t generation = 0;
  };

  std::string read_from(PtxMemory::ReadFrom rf, const std::string& location) const {
    if (rf.writer == PtxMemory::kInitial) return " (the initial value of " + location + ")";
    return " (" + t_.threads[rf.writer].name + "'s store, " + std::to_string(rf.index) + " in " + location +
           "'s coherence order)";
  }

  static std::optional<uint64_t> apply(RmwOp op, uint64_t v, int64_t a, int64_t b) {
    const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    switch (op) {
      case RmwOp::Add: return v + ua;
      case RmwOp::Sub: return v - ua;
      case RmwOp::Exchange: return ua;
      case RmwOp::Cas: return v == ua ? std::optional<uint64_t>(ub) : std::nullopt;
      case RmwOp::And: return v & ua;
      case RmwOp::Or: return v | ua;
      case RmwOp::Xor: return v ^ ua;
      case RmwOp::Min: return static_cast<uint64_t>(std::min(wrap(v), a));
      case RmwOp::Max: return static_cast<uint64_t>(std::max(wrap(v), a));
    }
    return std::nullopt;
  }

  template <class Lookup>
  static bool holds(const Expr& x, const Lookup& lookup) {
    switch (x.kind) {
      case Expr::Kind::True: return true;
      case Expr::Kind::And: return holds(*x.operands[0], lookup) && holds(*x.operands[1], lookup);
      case Expr::Kind::Or: return holds(*x.operands[0], lookup) || holds(*x.operands[1], lookup);
      case Expr::Kind::Not: return !holds(*x.operands[0], lookup);
      case Expr::Kind::Equal: return lookup(x.thread, x.name) == (x.rhs_named ? lookup(x.rhs_thread, x.rhs_name) : x.value);
      case Expr::Kind::NotEqual: return lookup(x.thread, x.name) != (x.rhs_named ? lookup(x.rhs_thread, x.rhs_name) : x.value);
    }
    return false;
  }

  const LitmusTest& t_;
  MemoryMode memory_;
  sim::Simulator sim_;
  std::vector<std::string> location_names_;
  std::map<std::pair<uint32_t, uint32_t>, size_t> cta_size_;
};

}  // namespace

LitmusResult run_litmus(const LitmusTest& test, uint64_t max_executions, MemoryMode memory) {
  LitmusResult r;
  Runner runner(test, memory);
  // Unbounded: every interleaving and every read choice (a stale read counts as a
  // "preemption" of the default, the newest store, so no bound may cut it).
  sim::DfsStrategy dfs(std::numeric_limits<uint32_t>::max());
  const auto threads = static_cast<uint32_t>(test.threads.size());
  const auto q = test.condition.quantifier;
  bool any = false, all = true;
  std::set<std::string> outcomes;
  while (r.executions < max_executions && dfs.begin_run(threads)) {
    const Execution e = runner.execute(dfs, false);
    ++r.executions;
    if (e.run.outcome != sim::Outcome::Completed) {
      ++r.hung;
      continue;
    }
    outcomes.insert(e.outcome);
    any |= e.proposition;
    all &= e.proposition;
    // The deciding execution: the first reaching the state (exists, ~exists), or the
    // first breaking it (forall).
    const bool decides = q == Condition::Quantifier::Forall ? !e.proposition : e.proposition;
    if (decides && !r.has_witness) {
      r.witness = e.run.picks;
      r.has_witness = true;
    }
  }
  r.complete = dfs.exhausted();
  r.distinct_outcomes = outcomes.size();
  switch (q) {
    case Condition::Quantifier::Exists: r.holds = any; break;
    case Condition::Quantifier::NotExists: r.holds = !any; break;
    case Condition::Quantifier::Forall: r.holds = all; break;
  }
  if (r.always_hangs()) r.holds = false;  // nothing was judged
  return r;
}

std::string describe_execution(const LitmusTest& test, const std::vector<uint32_t>& picks, MemoryMode memory) {
  Runner runner(test, memory);
  sim::ReplayStrategy replay(picks, /*strict=*/true);
  replay.begin_run(static_cast<uint32_t>(test.threads.size()));
  const Execution e = runner.execute(replay, true);
  std::string out = e.trace;
  if (e.run.outcome != sim::Outcome::Completed) return out + "  " + sim::to_string(e.run.outcome) + ": " + e.run.message + "\n";
  out += "  final: " + e.outcome + "\n  the condition's proposition " + (e.proposition ? "holds" : "does not hold") + "\n";
  return out;
}

}  // namespace gpulin::litmus
