#include "verify/search_checker.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>

#include "verify/model_registry.h"
#include "verify/search/partition_search.h"

namespace gpulin {
namespace {

// Partitions take turns of kSlice steps, up to kActive of them at a time, as
// Porcupine runs them in parallel: one violation anywhere ends the check, and a
// partition that would take long does not hide it. Budgets are checked between
// slices, so a slice is also how far a budget can be overrun: under a time limit
// slices are shorter, since a step on a large model state can take microseconds.
constexpr uint64_t kSlice = 20'000;
constexpr uint64_t kTimedSlice = 1'000;
constexpr size_t kActive = 16;

using Clock = std::chrono::steady_clock;

std::string ids_text(const std::vector<int64_t>& ids) {
  std::string s = "[";
  for (size_t i = 0; i < ids.size(); ++i) {
    s += i ? "," : "";
    s += std::to_string(ids[i]);
  }
  return s + "]";
}

void report_violation(const History& h, const PartitionSearch& search, SearchResult& r) {
  r.verdict = Verdict::NotLinearizable;
  for (uint32_t i : search.best) r.longest_prefix.push_back(h.ops[search.ops()[i]].id);
  for (uint32_t i : search.stuck) r.stuck_ops.push_back(h.ops[search.ops()[i]].id);
  r.state_after_prefix = search.best_state;
  r.message = "not linearizable: the longest linearizable sequence found has " +
              std::to_string(r.longest_prefix.size()) + " op(s) " + ids_text(r.longest_prefix) + ", reaching state " +
              r.state_after_prefix + "; after it none of the ops " + ids_text(r.stuck_ops) +
              " can be linearized, and op " + std::to_string(r.stuck_ops.front()) + " had responded by then";
}

std::string seconds_text(double s) {
  std::ostringstream o;
  o << s;
  return o.str();
}

// The message of an Undecided result: which budget ran out, how big it was, and
// how to raise it (the `gpulin check` flag, where there is one). `by_states`:
// the Steps budget that ran out was max_states, not max_steps.
std::string undecided_message(const SearchOptions& opt, BudgetExhausted b, bool by_states) {
  const std::string out = "undecided: the search ran out of its ";
  switch (b) {
    case BudgetExhausted::Steps:
      if (by_states) return out + "state budget (" + std::to_string(opt.max_states) + " configurations)";
      return out + "step budget (" + std::to_string(opt.max_steps) + " steps; raise it with --budget)";
    case BudgetExhausted::Memory:
      return out + "memory budget (" + std::to_string(opt.max_memory_bytes) + " bytes; raise it with --memory)";
    case BudgetExhausted::Time:
      return out + "time budget (" + seconds_text(opt.max_seconds) + " s; raise it with --seconds)";
    case BudgetExhausted::None:
      break;
  }
  return "undecided";
}

// One check: the partitions' searches taking turns under budgets shared by all
// of them.
class Check {
 public:
  Check(const History& h, const Model& model, const SearchOptions& opt, std::vector<std::vector<size_t>> groups)
      : h_(h), model_(model), opt_(opt), groups_(std::move(groups)), start_(Clock::now()),
        initial_(opt.initial_state ? *opt.initial_state : model.initial_state()) {
    r_.partitions = groups_.size();
  }

  SearchResult run() {
    while (next_group_ < groups_.size() || !active_.empty()) {
      start_partitions();
      for (size_t i = 0; i < active_.size();) {
        const uint64_t before = active_[i]->steps();
        const std::optional<Verdict> v = active_[i]->advance(allowance());
        r_.steps += active_[i]->steps() - before;
        if (v == Verdict::NotLinearizable) return violation(i);
        if (v) {
          if (opt_.keep_linearizations) {
            std::vector<int64_t>& ids = r_.linearizations.emplace_back();
            for (uint32_t k : active_[i]->best) ids.push_back(h_.ops[active_[i]->ops()[k]].id);
          }
          retire(i);
        } else {
          // Only a search with work left can be out of budget: one that ends on
          // the budget's last step is decided.
          const BudgetExhausted out = out_of_steps_or_time();
          if (out != BudgetExhausted::None) return give_up(out);
          ++i;
        }
        enforce_memory();
      }
    }
    return finish();
  }

 private:
  void start_partitions() {
    while (active_.size() < kActive && next_group_ < groups_.size())
      active_.push_back(std::make_unique<PartitionSearch>(h_, model_, std::move(groups_[next_group_++]), initial_));
  }

  uint64_t states() const {
    uint64_t n = retired_states_;
    for (const auto& s : active_) n += s->explored();
    return n;
  }

  // The step, state and time budgets, which end the whole check.
  BudgetExhausted out_of_steps_or_time() const {
    if (opt_.max_steps && r_.steps >= opt_.max_steps) return BudgetExhausted::Steps;
    if (opt_.max_states && states() > opt_.max_states) return BudgetExhausted::Steps;
    if (opt_.max_seconds > 0 && std::chrono::duration<double>(Clock::now() - start_).count() >= opt_.max_seconds)
      return BudgetExhausted::Time;
    return BudgetExhausted::None;
  }

  // Steps the next slice may take: no more than the step budget has left, and
  // (each step adding at most one configuration) than the state budget has left
  // plus one, so that running out of states is noticed after the slice.
  uint64_t allowance() const {
    uint64_t n = opt_.max_seconds > 0 ? kTimedSlice : kSlice;
    if (opt_.max_steps) n = std::min(n, opt_.max_steps - r_.steps);
    if (opt_.max_states) n = std::min(n, opt_.max_states + 1 - std::min(opt_.max_states, states()));
    return n;
  }

  // Over the memory budget, the largest search in flight gives up; the others
  // go on, since one of them may still show a violation.
  void enforce_memory() {
    if (!opt_.max_memory_bytes || active_.empty()) return;
    size_t bytes = 0, largest = 0;
    for (size_t i = 0; i < active_.size(); ++i) {
      bytes += active_[i]->bytes();
      if (active_[i]->bytes() > active_[largest]->bytes()) largest = i;
    }
    if (bytes <= opt_.max_memory_bytes) return;
    if (first_out_ == BudgetExhausted::None) first_out_ = BudgetExhausted::Memory;
    retire(largest);
  }

  void retire(size_t i) {
    retired_states_ += active_[i]->explored();
    active_.erase(active_.begin() + static_cast<ptrdiff_t>(i));
  }

  SearchResult violation(size_t i) {
    report_violation(h_, *active_[i], r_);
    r_.states_explored = states();
    return std::move(r_);
  }

  SearchResult give_up(BudgetExhausted out) {
    if (first_out_ == BudgetExhausted::None) first_out_ = out;
    return finish();
  }

  SearchResult finish() {
    r_.states_explored = states();
    r_.budget = first_out_;
    r_.verdict = first_out_ == BudgetExhausted::None ? Verdict::Linearizable : Verdict::Undecided;
    const bool by_states = opt_.max_states && !(opt_.max_steps && r_.steps >= opt_.max_steps);
    r_.message =
        first_out_ == BudgetExhausted::None ? "linearizable" : undecided_message(opt_, first_out_, by_states);
    return std::move(r_);
  }

  const History& h_;
  const Model& model_;
  const SearchOptions& opt_;
  std::vector<std::vector<size_t>> groups_;
  const Clock::time_point start_;
  const State initial_;
  SearchResult r_;
  std::vector<std::unique_ptr<PartitionSearch>> active_;
  size_t next_group_ = 0;
  uint64_t retired_states_ = 0;
  BudgetExhausted first_out_ = BudgetExhausted::None;  // the first budget that ran out
};

}  // namespace

const char* to_string(BudgetExhausted b) {
  switch (b) {
    case BudgetExhausted::None: return "none";
    case BudgetExhausted::Steps: return "steps";
    case BudgetExhausted::Memory: return "memory";
    case BudgetExhausted::Time: return "time";
  }
  return "?";
}

SearchResult check_search(const History& h, const SearchOptions& opt) {
  const Model& model = model_for(h);
  model.validate_ops(h);
  std::vector<std::vector<size_t>> groups;
  if (opt.partition) {
    groups = model.partition(h);
  } else {
    groups.emplace_back(h.ops.size());
    for (size_t i = 0; i < h.ops.size(); ++i) groups[0][i] = i;
  }
  return Check(h, model, opt, std::move(groups)).run();
}

}  // namespace gpulin
