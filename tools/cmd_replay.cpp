// gpulin replay --schedule STRING: one simulated run exactly as recorded; prints
// its history and its judgement.
#include <fmt/core.h>

#include "histories/jsonl_writer.h"
#include "sim/strategies/replay_strategy.h"
#include "tools/commands.h"
#include "tools/explore/heap_run.h"

namespace gpulin::cli {

void add_replay(CLI::App& app, std::function<int()>& run) {
  auto schedule = std::make_shared<std::string>();
  auto max_points = std::make_shared<uint64_t>(200'000);
  CLI::App* sub = app.add_subcommand("replay", "re-run one schedule and print its history");
  sub->add_option("--schedule", *schedule, "CONFIG|PROGRAM|PICKS as explore printed it")->required();
  sub->add_option("--max-points", *max_points, "scheduling points before a livelock is reported");
  sub->callback([schedule, max_points, &run] {
    run = [schedule, max_points] {
      explore::ReplayInput in;
      try {
        in = explore::parse_replay_string(*schedule);
      } catch (const std::exception& e) {
        fmt::print(stderr, "gpulin replay: {}\n", e.what());
        return int(kBadInput);
      }
      explore::HeapRunner runner(in.config);
      sim::ReplayStrategy replay(in.picks, /*strict=*/true);
      replay.begin_run(static_cast<uint32_t>(in.program.actors.size()));
      const explore::Execution e = runner.execute(in.program, replay, *max_points);
      fmt::print("{}", history_to_jsonl(e.history));
      const explore::Judgement j = explore::judge(e, explore::JudgeOptions{});
      fmt::print(stderr, "run: {} ({} scheduling points); verdict: {}{}{}\n", sim::to_string(e.run.outcome),
                 e.run.points, explore::to_string(j.failure), j.message.empty() ? "" : ": ", j.message);
      return explore::is_bug(j.failure) ? int(kViolation) : int(kPass);
    };
  });
}

}  // namespace gpulin::cli
