// The parallel bucket heap (Brodal-style, as used by parallel Dijkstra): levels as
// actors, BULKUPDATE and EXTRACTMIN (sim/ and gpu/ beside this file).
#include <fmt/core.h>

#include "structures/bucket_heap/sim/bucket_explore.h"
#include "tools/registry/registry.h"
#include "structures/bucket_heap/gpu/bucket_stress_command.h"
#include "tools/registry/stress_args.h"

namespace gpulin::drawings {
extern const char bucket_heap_draw_js[];  // draw.js (structures/CMakeLists.txt, gpulin_embed_drawing)
}

namespace gpulin::registry {

namespace {

Replayed replay_bucket_row(const std::string& schedule, uint64_t max_points) {
  explore::BucketExecution e = explore::replay_bucket(explore::parse_bucket_replay_string(schedule), max_points);
  explore::set_schedule_field(e.history, schedule);  // the page's stepper replays it (gpulin render)
  const explore::Judgement j = explore::judge_bucket(e, explore::JudgeOptions{});
  return replayed(std::move(e), j);
}

}  // namespace

void add_bucket_rows(Registry& r) {
  StructureRow row;
  row.name = "bucket-heap";
  row.summary = "parallel bucket heap: levels of buckets, a process a level, signals between levels";
  row.source = "the parallel bucket heap and PARDIJKSTRA (shared/papers)";
  row.variants = {"fixed", "paper", "lazy", "pipelined"};
  row.mutants = explore::bucket_mutant_names();
  row.model = "bucket-pq";
  row.lp_rules = {"explicit"};
  row.params = {{"d", "d, the most updates one BULKUPDATE takes", "2", 1, 64},
                {"ops", "operations of the program", "40", 0, 100000},
                {"threads", "threads of a simulated level block (barrier-phase races)", "2", 1, 1024}};
  row.explore = [](const explore::ExploreOptions& o, const Selection& s) {
    explore::BucketConfig c;
    c.memory = s.memory;
    c.mutant = *explore::parse_bucket_mutant(s.mutant);
    explore::set_bucket_variant(c, s.variant);
    c.d = s.u32("d");
    c.ops = s.u32("ops");
    c.threads = s.u32("threads");
    return explore::run_bucket_explore(o, c);
  };
  row.title = [](const Selection& s) {
    return fmt::format("bucket-heap {} d={} ops={}", s.variant, s.num("d"), s.num("ops"));
  };
  row.owns_replay = explore::is_bucket_replay;
  row.replay = replay_bucket_row;
  // The stepper: the levels' regions (bucket_run.cpp) and the heap's d.
  row.draw_js = drawings::bucket_heap_draw_js;
  row.state_layout = [](const std::string& schedule) {
    return fmt::format(R"({{"regions":["buckets","signals","bucket_n","signal_n","done","threshold","signals_b","signal_n_b"],"d":{},"del":{}}})",
                       explore::parse_bucket_replay_string(schedule).config.d, bucket_heap::kDel);
  };
  row.survey = {{"fixed", {}, 10000, true}, {"paper", {}, 10000, false}, {"lazy", {}, 10000, true},
                {"pipelined", {}, 10000, true}};
  row.stress = cli::stress_bucket;
  row.stress_params = cli::bucket_stress_params();
  r.add(std::move(row));
}

}  // namespace gpulin::registry
