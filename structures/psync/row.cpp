// The P-Sync parallel heap (He, Agarwal, Prasad): a controller and an actor a
// level, barrier-synchronised delete-insert cycles (sim/ and gpu/ beside this file).
#include <fmt/core.h>

#include "structures/psync/sim/psync_explore.h"
#include "tools/registry/registry.h"
#include "structures/psync/gpu/psync_stress_command.h"
#include "tools/registry/stress_args.h"

namespace gpulin::drawings {
extern const char psync_draw_js[];  // draw.js (structures/CMakeLists.txt, gpulin_embed_drawing)
}

namespace gpulin::registry {

namespace {

Replayed replay_psync_row(const std::string& schedule, uint64_t max_points) {
  explore::PsyncExecution e = explore::replay_psync(explore::parse_psync_replay_string(schedule), max_points);
  explore::set_schedule_field(e.history, schedule);  // the page's stepper replays it (gpulin render)
  const explore::Judgement j = explore::judge_psync(e, explore::JudgeOptions{});
  return replayed(std::move(e), j);
}

}  // namespace

void add_psync_rows(Registry& r) {
  StructureRow row;
  row.name = "psync";
  row.summary = "P-Sync parallel heap: nodes of r keys, pipelined delete-insert cycles, one update process a level";
  row.source = "He, Agarwal, Prasad, the P-Sync heap (shared/papers)";
  row.mutants = explore::psync_mutant_names();
  row.model = "psync-pq";
  row.lp_rules = {"explicit"};
  row.params = {{"r", "node capacity r", "2", 1, 64},
                {"cycles", "delete-insert cycles a program runs", "16", 1, 4096},
                {"keys", "keys are drawn from [0, N)", "100", 1, 0xfffffffeu},
                {"threads", "threads of a simulated step block (barrier-phase races)", "2", 1, 1024}};
  row.explore = [](const explore::ExploreOptions& o, const Selection& s) {
    explore::PsyncConfig c;
    c.memory = s.memory;
    c.mutant = *explore::parse_psync_mutant(s.mutant);
    c.r = s.u32("r");
    c.cycles = s.u32("cycles");
    c.keys = s.u32("keys");
    c.threads = s.u32("threads");
    return explore::run_psync_explore(o, c);
  };
  row.title = [](const Selection& s) {
    return fmt::format("psync r={} cycles={} keys<{}", s.num("r"), s.num("cycles"), s.num("keys"));
  };
  row.owns_replay = explore::is_psync_replay;
  row.replay = replay_psync_row;
  // The stepper: the heap's shared regions, then its named ones (HostPsyncHeap) and
  // the controller's plan (psync_run.cpp, SimRun::publish_plan).
  row.draw_js = drawings::psync_draw_js;
  row.state_layout = [](const std::string& schedule) {
    return fmt::format(
        R"({{"regions":["nodes","insert_buffers","delete_table","new_keys","out","scratch","plan"],"r":{},"plan_step_words":{}}})",
        explore::parse_psync_replay_string(schedule).config.r, explore::kPsyncPlanStepWords);
  };
  row.survey = {{"", {}, 10000, true}};
  row.stress = cli::stress_psync;
  row.stress_params = cli::psync_stress_params();
  r.add(std::move(row));
}

}  // namespace gpulin::registry
