#include "verify/search_checker.h"

#include <algorithm>
#include <memory>

#include "verify/model_registry.h"
#include "verify/search/partition_search.h"

namespace gpulin {
namespace {

// Partitions take turns of kSlice steps, up to kActive of them at a time, as
// Porcupine runs them in parallel: one violation anywhere ends the check, and a
// partition that would take long does not hide it.
constexpr uint64_t kSlice = 20'000;
constexpr size_t kActive = 16;

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

}  // namespace

SearchResult check_search(const History& h, const SearchOptions& opt) {
  const Model& model = model_for(h);
  model.validate_ops(h);
  const State initial = opt.initial_state ? *opt.initial_state : model.initial_state();
  std::vector<std::vector<size_t>> groups;
  if (opt.partition) {
    groups = model.partition(h);
  } else {
    groups.emplace_back(h.ops.size());
    for (size_t i = 0; i < h.ops.size(); ++i) groups[0][i] = i;
  }

  SearchResult r;
  r.partitions = groups.size();
  bool undecided = false;
  std::vector<std::unique_ptr<PartitionSearch>> active;
  size_t next_group = 0;
  auto retire = [&](size_t i) {
    r.states_explored += active[i]->explored();
    active.erase(active.begin() + static_cast<ptrdiff_t>(i));
  };
  while (next_group < groups.size() || !active.empty()) {
    while (active.size() < kActive && next_group < groups.size())
      active.push_back(
          std::make_unique<PartitionSearch>(h, model, std::move(groups[next_group++]), initial, opt.max_states));
    for (size_t i = 0; i < active.size();) {
      const std::optional<Verdict> v = active[i]->advance(kSlice);
      if (!v) {
        ++i;
        continue;
      }
      if (*v == Verdict::NotLinearizable) {
        report_violation(h, *active[i], r);
        for (const auto& s : active) r.states_explored += s->explored();
        return r;
      }
      undecided |= *v == Verdict::Undecided;
      retire(i);
    }
    // Over the memory budget, the largest search in flight gives up.
    size_t bytes = 0, largest = 0;
    for (size_t i = 0; i < active.size(); ++i) {
      bytes += active[i]->bytes();
      if (active[i]->bytes() > active[largest]->bytes()) largest = i;
    }
    if (opt.max_memory_bytes && bytes > opt.max_memory_bytes) {
      undecided = true;
      retire(largest);
    }
  }
  r.verdict = undecided ? Verdict::Undecided : Verdict::Linearizable;
  r.message = undecided ? "undecided: the search ran out of its budget after " + std::to_string(r.states_explored) +
                              " states"
                        : "linearizable";
  return r;
}

}  // namespace gpulin
