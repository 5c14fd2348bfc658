#include "structures/gheap/sim/heap_run.h"

#include <stdexcept>

#include "sim/schedule_string.h"
#include "sim/sim_context.h"
#include "structures/gheap/operation.h"
#include "histories/rules.h"
#include "structures/gheap/sim/heap_at_rest.h"

namespace gpulin::explore {

namespace {

// The header of every history a runner of `c` makes. No "schedule" field: a run's
// replay string costs as much as judging a history the explorer has seen before;
// the histories that leave the explorer (failures, gpulin replay) are named with
// set_schedule_field.
Header history_header(const HeapConfig& c) {
  Header header;
  header.model = "pq-batch";
  header.params = Value::object({{"k", Value::integer(c.k)}});
  header.lp_rule = lp_rule_for(c.flavor, c.variant);
  header.extra.emplace_back("source", "\"gpulin explore\"");
  return header;
}

}  // namespace

HeapRunner::HeapRunner(const HeapConfig& config)
    : config_(config), recorder_({"ins", "del"}), header_(history_header(config)) {}

std::optional<std::string> HeapRunner::quiescent_check() const {
  return check_heap_at_rest(heap_->image(), config_.mutant);
}

Execution HeapRunner::execute(const Program& program, sim::Strategy& strategy, uint64_t max_points, History reuse) {
  size_t inserts = 0;
  for (const auto& ops : program.actors)
    for (const auto& op : ops) inserts += op.insert;
  // The heap of exactly this program's size, as a replay of it makes: its size is
  // part of the run (the quiescent checks look at every node).
  if (!heap_)
    heap_.emplace(config_.k, static_cast<uint32_t>(inserts + 1));
  else
    heap_->reshape(config_.k, static_cast<uint32_t>(inserts + 1));
  recorder_.clear();
  const auto memory = heap_->memory();
  const uint32_t k = config_.k;

  Execution e;
  sim_.set_memory_mode(config_.memory);
  using sim::memory::range_of;
  sim_.set_shared_regions({range_of(memory.state, memory.capacity + uint64_t{1}),
                           range_of(memory.keys, (memory.capacity + uint64_t{1}) * k), range_of(memory.lastelem, 1),
                           range_of(memory.psize, 1), range_of(memory.pbuffer, k)});
  const sim::SimContext::Orders orders = config_.mutant == gheap::Mutant::RelaxedLocks ? sim::SimContext::Orders::Dropped
                                         : config_.mutant == gheap::Mutant::RelaxedLocksFenced
                                             ? sim::SimContext::Orders::DroppedFenced
                                             : sim::SimContext::Orders::AsWritten;
  sim_.set_quiescent_hook([this, &e] {
    if (e.invariant_failure) return;
    e.invariant_failure = quiescent_check();
    if (e.invariant_failure) sim_.fault("invariant: " + *e.invariant_failure);
  });
  const uint32_t actors = static_cast<uint32_t>(program.actors.size());
  if (kept_.size() < actors) kept_.resize(actors);
  e.run = sim_.run(
      actors,
      [&](uint32_t a) {
        sim::SimContext x(sim_, a, &recorder_, config_.threads, kept_[a]);
        // The block's shared memory, its threads' accesses checked per barrier phase.
        const auto s = gheap::make_scratch(x.private_array<uint32_t>(gheap::kScratchKeysPerK * k), k);
        x.set_orders(orders);
        int64_t op_id = static_cast<int64_t>(a) << 20;
        // The run's heap as a compile-time policy (every mutant is instantiated here,
        // in the simulator's driver, and nowhere on the GPU).
        gheap::with_policy(config_.flavor, config_.variant, config_.mutant, [&](auto policy) {
          const auto view = gheap::view_as<decltype(policy)>(memory);
          for (const HeapOp& op : program.actors[a]) {
            x.begin_op(op_id++);
            gheap::run_operation(x, view, s, op.insert ? gheap::kFnIns : gheap::kFnDel, op.keys.data(),
                                 static_cast<uint32_t>(op.keys.size()));
            x.end_op();
          }
        });
      },
      strategy, max_points);
  sim_.set_quiescent_hook(nullptr);
  if (e.run.outcome == sim::Outcome::Completed && !e.invariant_failure) {
    e.invariant_failure = quiescent_check();  // the final state, even with no quiescent point seen
  }
  e.history = recorder_.to_history(header_, "<simulated run>", std::move(reuse));
  return e;
}

Judgement judge(const Execution& e, const JudgeOptions& options) {
  Judgement j;
  // A fault raised by the invariant's own check is the invariant's failure.
  if (e.run.outcome == sim::Outcome::Fault && e.invariant_failure)
    return {Failure::Invariant, *e.invariant_failure, false};
  if (auto stopped = judge_stopped_run(e.run)) return *stopped;
  if (e.invariant_failure) return {Failure::Invariant, *e.invariant_failure, false};
  try {
    return judge_history(e.history, options);
  } catch (const FormatError& err) {
    // The structure broke the lock protocol the format requires (a release of a
    // node it does not hold): a bug of the structure, not of the input.
    return {Failure::Fault, std::string("lock protocol: ") + err.what(), false};
  }
}

std::string replay_string(const HeapConfig& c, const Program& p, const std::vector<uint32_t>& picks) {
  return encode_config(c) + "|" + encode_program(p) + "|" + sim::encode_picks(picks);
}

ReplayInput parse_replay_string(const std::string& s) {
  const size_t a = s.find('|');
  const size_t b = a == std::string::npos ? a : s.find('|', a + 1);
  if (b == std::string::npos) throw std::invalid_argument("schedule: want CONFIG|PROGRAM|PICKS");
  ReplayInput in;
  in.config = decode_config(s.substr(0, a));
  in.program = decode_program(s.substr(a + 1, b - a - 1));
  in.picks = sim::decode_picks(s.substr(b + 1));
  if (in.program.actors.empty() || in.program.actors.size() > sim::kMaxActors)
    throw std::invalid_argument("schedule: 1 to 64 actors");
  for (const auto& ops : in.program.actors)
    for (const auto& op : ops)
      if (op.insert && (op.keys.empty() || op.keys.size() > in.config.k))
        throw std::invalid_argument("schedule: an insert needs 1 to k keys");
  return in;
}

}  // namespace gpulin::explore
