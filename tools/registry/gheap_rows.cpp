// The concurrent generalized heap (Chen et al.): TD-INS/TD-DEL and BU-INS/TD-DEL,
// each in its paper and fixed variant (tools/explore/heap_*).
#include <fmt/core.h>

#include "sim/strategies/replay_strategy.h"
#include "tools/explore/heap_run.h"
#include "tools/registry/registry.h"
#include "tools/registry/stress_args.h"

namespace gpulin::registry {

namespace {

explore::ExploreOptions heap_options(explore::ExploreOptions o, const Selection& s) {
  o.config.flavor = *explore::parse_structure(s.structure);
  o.config.variant = *explore::parse_variant(s.variant);
  o.config.mutant = *explore::parse_mutant(s.mutant);
  o.config.k = s.u32("k");
  o.config.threads = s.u32("threads");
  o.shape.actors = s.u32("actors");
  o.shape.ops = s.u32("ops");
  o.shape.partial_percent = s.u32("partial");
  o.shape.insert_percent = s.u32("inserts");
  o.shape.key_range = s.u32("keys");
  return o;
}

Replayed replay_heap(const std::string& schedule, uint64_t max_points) {
  const explore::ReplayInput in = explore::parse_replay_string(schedule);
  explore::HeapRunner runner(in.config);
  sim::ReplayStrategy replay(in.picks, /*strict=*/true);
  replay.begin_run(static_cast<uint32_t>(in.program.actors.size()));
  explore::Execution e = runner.execute(in.program, replay, max_points);
  explore::set_schedule_field(e.history, explore::replay_string(in.config, in.program, e.run.picks));
  const explore::Judgement j = explore::judge(e, explore::JudgeOptions{});
  return replayed(std::move(e), j);
}

StructureRow heap_row(gheap::Flavor flavor) {
  StructureRow row;
  row.name = explore::structure_name(flavor);
  row.summary = flavor == gheap::Flavor::TopDown
                    ? "generalized heap, TD-INS/TD-DEL: batches of k keys a node, a thread block an operation"
                    : "generalized heap, BU-INS/TD-DEL: inserts climb from the last node, deletes sink from the root";
  row.source = "Chen et al., concurrent generalized heap (shared/papers), Figures 2-5";
  row.variants = {"fixed", "paper"};
  for (gheap::Mutant m : explore::kAllMutants)
    if (explore::mutant_applies(m, flavor)) row.mutants.push_back(explore::mutant_name(m));
  row.model = "pq-batch";
  row.lp_rules = flavor == gheap::Flavor::TopDown ? std::vector<std::string>{"root-release"}
                                                  : std::vector<std::string>{"root-release (fixed)", "last-lock (paper)"};
  row.params = {{"actors", "actors (thread blocks)", "4", 1, 64},
                {"ops", "operations per actor", "8", 0, 100000},
                {"k", "node capacity", "4", 1, 1024},
                {"partial", "percent of inserts that are partial batches", "30", 0, 100},
                {"inserts", "percent of operations that are inserts", "60", 0, 100},
                {"keys", "keys are drawn from [0, N)", "64", 1, 0xfffffffeu},
                {"threads", "lanes per simulated block (the merge-path split)", "2", 1, 1024}};
  row.explore = [](const explore::ExploreOptions& o, const Selection& s) {
    return explore::run_explore(heap_options(o, s));
  };
  row.title = [](const Selection& s) {
    return fmt::format("{} {} k={} actors={} ops={}", s.structure, s.variant, s.num("k"), s.num("actors"),
                       s.num("ops"));
  };
  const std::string prefix = row.name + ":";
  row.owns_replay = [prefix](const std::string& schedule) { return schedule.rfind(prefix, 0) == 0; };
  row.replay = replay_heap;
  row.survey = {{"fixed", {}, 10000, true}, {"paper", {}, 10000, false}};
  row.stress = cli::stress_heap;
  row.multi_gpu = true;  // one heap a GPU
  return row;
}

}  // namespace

void add_gheap_rows(Registry& r) {
  r.add(heap_row(gheap::Flavor::TopDown));
  r.add(heap_row(gheap::Flavor::BottomUp));
}

}  // namespace gpulin::registry
