// GPU merge path (Green, McColl, Bader): the global merge, consumer and producer
// warps of a block as actors, each output checked against std::merge
// (sim/ and gpu/ beside this file).
#include <fmt/core.h>

#include "sim/strategies/replay_strategy.h"
#include "structures/merge_path/sim/merge_explore.h"
#include "structures/merge_path/sim/merge_run.h"
#include "tools/registry/registry.h"

namespace gpulin::drawings {
extern const char merge_path_draw_js[];  // draw.js (structures/CMakeLists.txt, gpulin_embed_drawing)
}

namespace gpulin::registry {

namespace {

Replayed replay_merge_row(const std::string& schedule, uint64_t max_points) {
  const explore::MergeReplayInput in = explore::parse_merge_replay_string(schedule);
  sim::ReplayStrategy exact(in.picks, /*strict=*/true);
  const explore::MergeExecution e = explore::execute_merge(in.config, in.program, exact, max_points);
  Replayed r;
  for (size_t k = 0; k < in.program.size(); ++k)
    r.output += fmt::format("{} {:#x}  expected {} {:#x}\n", e.keys[k], e.tags[k], e.expected_keys[k], e.expected_tags[k]);
  r.judgement = explore::judge_merge(e);
  r.run = e.run;
  return r;
}

}  // namespace

void add_merge_rows(Registry& r) {
  StructureRow row;
  row.name = "merge";
  row.summary = "GPU merge path: a block's warps partition, load and merge windows of two sorted inputs";
  row.source = "Green, McColl, Bader, GPU merge path (shared/papers)";
  row.mutants = {explore::merge_mutant_name(merge_path::MergeMutant::WindowOverrun),
                 explore::merge_mutant_name(merge_path::MergeMutant::EarlyRelease),
                 explore::merge_mutant_name(merge_path::MergeMutant::NoWarpSync)};
  row.model = "";  // judged by its output against std::merge
  row.params = {{"blocks", "blocks (3 warps each)", "3", 1, explore::kMergeMaxBlocks},
                {"len", "inputs of 0 to N keys each", "64", 0, 4096}};
  row.histories = false;
  row.explore = [](const explore::ExploreOptions& o, const Selection& s) {
    explore::MergeConfig c;
    c.memory = s.memory;
    c.mutant = *explore::parse_merge_mutant(s.mutant);
    c.blocks = s.u32("blocks");
    c.max_len = s.u32("len");
    return explore::run_merge_explore(o, c);
  };
  row.title = [](const Selection& s) { return fmt::format("merge blocks<={} len<={}", s.num("blocks"), s.num("len")); };
  row.owns_replay = explore::is_merge_replay;
  row.replay = replay_merge_row;
  // The stepper: the scratch (shared), then the inputs and the output (merge_sim.h).
  row.draw_js = drawings::merge_path_draw_js;
  row.state_layout = [](const std::string& schedule) {
    const explore::MergeReplayInput in = explore::parse_merge_replay_string(schedule);
    const size_t na = in.program.a.size(), nb = in.program.b.size();
    return fmt::format(R"({{"regions":["scratch","a","b","c"],"na":{},"nb":{},"tile":{},"windows":{}}})", na, nb,
                       explore::ExploreMergePolicy::tile,
                       merge_path::window_count<explore::ExploreMergePolicy>(na, nb));
  };
  row.survey = {{"", {}, 10000, true}};
  r.add(std::move(row));
}

}  // namespace gpulin::registry
