// gpulin replay --schedule STRING: one simulated run exactly as recorded; prints
// its history and its judgement.
#include <fmt/core.h>

#include "histories/jsonl_writer.h"
#include "sim/strategies/replay_strategy.h"
#include "tools/commands.h"
#include "tools/explore/heap_run.h"
#include "tools/explore/merge_run.h"

namespace gpulin::cli {

namespace {

// A merge schedule: the run's output beside std::merge's on stdout, its judgement on
// stderr.
int replay_merge(const std::string& schedule, uint64_t max_points) {
  explore::MergeReplayInput in;
  try {
    in = explore::parse_merge_replay_string(schedule);
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpulin replay: {}\n", e.what());
    return int(kBadInput);
  }
  sim::ReplayStrategy replay(in.picks, /*strict=*/true);
  explore::MergeExecution e;
  try {
    e = explore::execute_merge(in.config, in.program, replay, max_points);
  } catch (const std::exception& err) {
    fmt::print(stderr, "gpulin replay: {}\n", err.what());
    return int(kBadInput);
  }
  const size_t n = in.program.size();
  for (size_t k = 0; k < n; ++k)
    fmt::print("{} {:#x}  expected {} {:#x}\n", e.keys[k], e.tags[k], e.expected_keys[k], e.expected_tags[k]);
  const explore::Judgement j = explore::judge_merge(e);
  fmt::print(stderr, "run: {} ({} scheduling points); verdict: {}{}{}\n", sim::to_string(e.run.outcome), e.run.points,
             explore::to_string(j.failure), j.message.empty() ? "" : ": ", j.message);
  return explore::is_bug(j.failure) ? int(kViolation) : int(kPass);
}

}  // namespace

void add_replay(CLI::App& app, std::function<int()>& run) {
  auto schedule = std::make_shared<std::string>();
  auto max_points = std::make_shared<uint64_t>(200'000);
  CLI::App* sub = app.add_subcommand("replay", "re-run one schedule and print its history");
  sub->add_option("--schedule", *schedule, "CONFIG|PROGRAM|PICKS as explore printed it (heap or merge)")->required();
  sub->add_option("--max-points", *max_points, "scheduling points before a livelock is reported");
  sub->callback([schedule, max_points, &run] {
    run = [schedule, max_points] {
      if (explore::is_merge_replay(*schedule)) return replay_merge(*schedule, *max_points);
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
