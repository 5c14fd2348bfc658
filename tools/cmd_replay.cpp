// gpulin replay --schedule STRING: one simulated run exactly as recorded; prints
// its history and its judgement.
#include <fmt/core.h>

#include "histories/jsonl_writer.h"
#include "tools/render_page.h"
#include "sim/strategies/replay_strategy.h"
#include "tools/commands.h"
#include "tools/explore/bucket_explore.h"
#include "tools/explore/heap_run.h"
#include "tools/explore/merge_run.h"
#include "tools/explore/psync_explore.h"
#include "tools/explore/slab_explore.h"

namespace gpulin::cli {

namespace {

int bad_input(const std::exception& e) {
  fmt::print(stderr, "gpulin replay: {}\n", e.what());
  return int(kBadInput);
}

// The run's outcome and judgement on stderr; the exit code they give.
int verdict(const sim::RunResult& run, const explore::Judgement& j) {
  fmt::print(stderr, "run: {} ({} scheduling points); verdict: {}{}{}\n", sim::to_string(run.outcome), run.points,
             explore::to_string(j.failure), j.message.empty() ? "" : ": ", j.message);
  return explore::is_bug(j.failure) ? int(kViolation) : int(kPass);
}

// The replayed history on stdout; with --render also its page (the path on stderr).
void emit(const History& h, const std::string& render) {
  fmt::print("{}", history_to_jsonl(h));
  if (render.empty()) return;
  try {
    fmt::print(stderr, "page: {}\n", write_timeline_page(h, render, "gpulin replay: " + h.source));
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpulin replay: no page: {}\n", e.what());
  }
}

// A slab hash schedule: its history on stdout, its judgement on stderr.
int replay_slab(const std::string& schedule, uint64_t max_points, const std::string& render) {
  explore::SlabExecution e;
  try {
    e = explore::replay_slab(explore::parse_slab_replay_string(schedule), max_points);
  } catch (const std::exception& err) {
    return bad_input(err);
  }
  emit(e.history, render);
  return verdict(e.run, explore::judge_slab(e, explore::JudgeOptions{}));
}

// A parallel heap schedule: its history on stdout, its judgement on stderr.
int replay_psync(const std::string& schedule, uint64_t max_points, const std::string& render) {
  explore::PsyncExecution e;
  try {
    e = explore::replay_psync(explore::parse_psync_replay_string(schedule), max_points);
  } catch (const std::exception& err) {
    return bad_input(err);
  }
  emit(e.history, render);
  return verdict(e.run, explore::judge_psync(e, explore::JudgeOptions{}));
}

// A bucket heap schedule: its history on stdout, its judgement on stderr.
int replay_bucket(const std::string& schedule, uint64_t max_points, const std::string& render) {
  explore::BucketExecution e;
  try {
    e = explore::replay_bucket(explore::parse_bucket_replay_string(schedule), max_points);
  } catch (const std::exception& err) {
    return bad_input(err);
  }
  emit(e.history, render);
  return verdict(e.run, explore::judge_bucket(e, explore::JudgeOptions{}));
}

// A merge schedule: the run's output beside std::merge's on stdout, its judgement on
// stderr.
int replay_merge(const std::string& schedule, uint64_t max_points) {
  explore::MergeReplayInput in;
  try {
    in = explore::parse_merge_replay_string(schedule);
  } catch (const std::exception& err) {
    return bad_input(err);
  }
  sim::ReplayStrategy replay(in.picks, /*strict=*/true);
  explore::MergeExecution e;
  try {
    e = explore::execute_merge(in.config, in.program, replay, max_points);
  } catch (const std::exception& err) {
    return bad_input(err);
  }
  const size_t n = in.program.size();
  for (size_t k = 0; k < n; ++k)
    fmt::print("{} {:#x}  expected {} {:#x}\n", e.keys[k], e.tags[k], e.expected_keys[k], e.expected_tags[k]);
  return verdict(e.run, explore::judge_merge(e));
}

}  // namespace

void add_replay(CLI::App& app, std::function<int()>& run) {
  auto schedule = std::make_shared<std::string>();
  auto max_points = std::make_shared<uint64_t>(200'000);
  auto render = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("replay", "re-run one schedule and print its history");
  sub->add_option("--schedule", *schedule, "CONFIG|PROGRAM|PICKS as explore printed it (heap, merge, slab, psync or bucket-heap)")->required();
  sub->add_option("--max-points", *max_points, "scheduling points before a livelock is reported");
  sub->add_option("--render", *render, "also write the history's timeline page here (gpulin render)");
  sub->callback([schedule, max_points, render, &run] {
    run = [schedule, max_points, render] {
      if (explore::is_merge_replay(*schedule)) {
        if (!render->empty()) fmt::print(stderr, "gpulin replay: a merge replay has no history to render\n");
        return replay_merge(*schedule, *max_points);
      }
      if (explore::is_slab_replay(*schedule)) return replay_slab(*schedule, *max_points, *render);
      if (explore::is_psync_replay(*schedule)) return replay_psync(*schedule, *max_points, *render);
      if (explore::is_bucket_replay(*schedule)) return replay_bucket(*schedule, *max_points, *render);
      explore::ReplayInput in;
      try {
        in = explore::parse_replay_string(*schedule);
      } catch (const std::exception& err) {
        return bad_input(err);
      }
      explore::HeapRunner runner(in.config);
      sim::ReplayStrategy replay(in.picks, /*strict=*/true);
      replay.begin_run(static_cast<uint32_t>(in.program.actors.size()));
      explore::Execution e;
      try {
        e = runner.execute(in.program, replay, *max_points);
      } catch (const std::exception& err) {
        return bad_input(err);  // the picks do not fit the program (a strict replay)
      }
      explore::set_schedule_field(e.history, explore::replay_string(in.config, in.program, e.run.picks));
      emit(e.history, *render);
      return verdict(e.run, explore::judge(e, explore::JudgeOptions{}));
    };
  });
}

}  // namespace gpulin::cli
