// The concurrent generalized heap (Chen et al.): TD-INS/TD-DEL and BU-INS/TD-DEL,
// each in its paper and fixed variant (sim/ and gpu/ beside this file).
#include <fmt/core.h>

#include "sim/strategies/replay_strategy.h"
#include "structures/gheap/sim/heap_explore.h"
#include "tools/registry/registry.h"
#include "structures/gheap/gpu/heap_stress_command.h"
#include "tools/registry/stress_args.h"

namespace gpulin::drawings {
extern const char gheap_draw_js[];  // draw.js (structures/CMakeLists.txt, gpulin_embed_drawing)
}

namespace gpulin::registry {

namespace {

explore::HeapConfig heap_config(const Selection& s) {
  explore::HeapConfig c;
  c.flavor = *explore::parse_structure(s.structure);
  c.variant = *explore::parse_variant(s.variant);
  c.mutant = *explore::parse_mutant(s.mutant);
  c.k = s.u32("k");
  c.threads = s.u32("threads");
  c.memory = s.memory;
  return c;
}

explore::WorkloadShape heap_shape(const Selection& s) {
  explore::WorkloadShape shape;
  shape.actors = s.u32("actors");
  shape.ops = s.u32("ops");
  shape.partial_percent = s.u32("partial");
  shape.insert_percent = s.u32("inserts");
  shape.key_range = s.u32("keys");
  return shape;
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
    return explore::run_heap_explore(o, heap_config(s), heap_shape(s));
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
  row.stress_params = cli::heap_stress_params();
  row.multi_gpu = true;  // one heap a GPU
  // The stepper: the runner's regions (heap_run.cpp) and the node capacity.
  row.draw_js = drawings::gheap_draw_js;
  row.state_layout = [](const std::string& schedule) {
    return fmt::format(R"({{"regions":["state","keys","lastelem","psize","pbuffer"],"k":{}}})",
                       explore::parse_replay_string(schedule).config.k);
  };
  return row;
}

}  // namespace

void add_gheap_rows(Registry& r) {
  r.add(heap_row(gheap::Flavor::TopDown));
  r.add(heap_row(gheap::Flavor::BottomUp));
}

}  // namespace gpulin::registry
