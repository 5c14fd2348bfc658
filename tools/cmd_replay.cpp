// gpulin replay --schedule STRING: one simulated run exactly as recorded; prints
// its history (or, for the merge, its output) and its judgement. The registered
// structure whose replay strings it is re-runs it (tools/registry/).
#include <fmt/core.h>

#include "histories/jsonl_writer.h"
#include "sim/memory/memory_mode.h"
#include "tools/commands.h"
#include "tools/explore/replay_fields.h"
#include "tools/registry/registry.h"
#include "tools/render_page.h"

namespace gpulin::cli {

namespace {

int replay_bad_input(const std::string& message) {
  fmt::print(stderr, "gpulin replay: {}\n", message);
  return int(kBadInput);
}

int replay(std::string schedule, uint64_t max_points, const std::string& render, const std::string& memory) {
  if (!memory.empty()) {
    try {
      schedule = explore::with_memory_mode(schedule, *sim::memory::parse_memory_mode(memory));
    } catch (const std::exception& e) {
      return replay_bad_input(e.what());
    }
  }
  const registry::StructureRow* row = registry::structures().owner_of_replay(schedule);
  if (!row)
    return replay_bad_input(fmt::format("'{}' is no structure's replay string (CONFIG|PROGRAM|PICKS, CONFIG starting with one "
                                 "of {})",
                                 schedule.substr(0, 40), registry::joined(registry::structures().names())));
  registry::Replayed r;
  try {
    r = row->replay(schedule, max_points);
  } catch (const std::exception& e) {
    return replay_bad_input(e.what());  // a malformed string, or picks that do not fit the program (a strict replay)
  }
  if (r.history) {
    fmt::print("{}", history_to_jsonl(*r.history));
    if (!render.empty()) {
      try {
        fmt::print(stderr, "page: {}\n", write_timeline_page(*r.history, render, "gpulin replay: " + r.history->source,
                                                          {}, {}, 20, "", page_marks(r.run.marks)));
      } catch (const std::exception& e) {
        fmt::print(stderr, "gpulin replay: no page: {}\n", e.what());
      }
    }
  } else {
    fmt::print("{}", r.output);
    if (!render.empty()) fmt::print(stderr, "gpulin replay: a {} replay has no history to render\n", row->name);
  }
  fmt::print(stderr, "run: {} ({} scheduling points); verdict: {}{}{}\n", sim::to_string(r.run.outcome), r.run.points,
             explore::to_string(r.judgement.failure), r.judgement.message.empty() ? "" : ": ", r.judgement.message);
  return explore::is_bug(r.judgement.failure) ? int(kViolation) : int(kPass);
}

}  // namespace

void add_replay(CLI::App& app, std::function<int()>& run) {
  auto schedule = std::make_shared<std::string>();
  auto max_points = std::make_shared<uint64_t>(200'000);
  auto render = std::make_shared<std::string>();
  auto memory = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("replay", "re-run one schedule and print its history");
  sub->add_option("--schedule", *schedule, "CONFIG|PROGRAM|PICKS as explore printed it")->required();
  sub->add_option("--max-points", *max_points, "scheduling points before a livelock is reported");
  sub->add_option("--render", *render, "also write the history's timeline page here (gpulin render)");
  sub->add_option("--memory", *memory,
                  "replay under this memory instead of the string's (sc: a ptx run's interleaving with every load "
                  "reading the newest store; ptx or ptx-racy: an sc run, every load reading the newest store; "
                  "ptx-racy: a ptx run past its data race)")
      ->check(CLI::IsMember(sim::memory::memory_mode_names()));
  sub->callback([schedule, max_points, render, memory, &run] {
    run = [schedule, max_points, render, memory] { return replay(*schedule, *max_points, *render, *memory); };
  });
}

}  // namespace gpulin::cli
