// gpulin replay --schedule STRING: one simulated run exactly as recorded; prints
// its history (or, for the merge, its output) and its judgement. The registered
// structure whose replay strings it is re-runs it (tools/registry/).
#include <fmt/core.h>

#include "histories/jsonl_writer.h"
#include "sim/memory/memory_mode.h"
#include "tools/commands.h"
#include "tools/explore/replay_fields.h"
#include "tools/registry/registry.h"
#include "tools/registry/replay_states.h"
#include "tools/render_page.h"

namespace gpulin::cli {

namespace {

int replay_bad_input(const std::string& message) {
  fmt::print(stderr, "gpulin replay: {}\n", message);
  return int(kBadInput);
}

// --state-at P: a fresh replay stopped at state P (sim/point_observer.h), its words'
// digest printed as the page's stepper writes it (tests/render/browser_test.sh
// compares the two).
int print_state_at(const registry::StructureRow& row, const std::string& schedule, uint64_t max_points, uint64_t p) {
  PointStates s;
  try {
    s = registry::replay_states(row, schedule, max_points, p);
  } catch (const std::exception& e) {
    return replay_bad_input(e.what());
  }
  const std::vector<uint32_t> words = s.words_at(p);
  fmt::print("state {}: digest {:08x}, {} words, actor {}, {} events\n", p, words_digest(words), words.size(),
             s.actor[p], s.events[p]);
  return int(kPass);
}

int replay(std::string schedule, uint64_t max_points, const std::string& render, const std::string& memory,
           std::optional<uint64_t> state_at) {
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
  if (state_at) return print_state_at(*row, schedule, max_points, *state_at);
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
                                                          {}, {}, 20, "", page_marks(r.run.marks), schedule));
      } catch (const std::exception& e) {
        fmt::print(stderr, "gpulin replay: no page: {}\n", e.what());
      }
    }
  } else {
    fmt::print("{}", r.output);
    if (!render.empty()) {
      try {
        fmt::print(stderr, "page: {}\n",
                   write_run_page(render, "gpulin replay: " + row->name, schedule, explore::is_bug(r.judgement.failure),
                                  r.judgement.message));
      } catch (const std::exception& e) {
        fmt::print(stderr, "gpulin replay: no page: {}\n", e.what());
      }
    }
  }
  fmt::print(stderr, "run: {} ({} scheduling points); verdict: {}{}{}\n", sim::to_string(r.run.outcome), r.run.points,
             explore::to_string(r.judgement.failure), r.judgement.message.empty() ? "" : ": ", r.judgement.message);
  return explore::is_bug(r.judgement.failure) ? int(kViolation) : int(kPass);
}

}  // namespace

void add_replay(CLI::App& app, std::function<int()>& run) {
  auto schedule = std::make_shared<std::string>();
  auto max_points = std::make_shared<uint64_t>(registry::kReplayPoints);
  auto render = std::make_shared<std::string>();
  auto memory = std::make_shared<std::string>();
  auto state_at = std::make_shared<std::optional<uint64_t>>();
  CLI::App* sub = app.add_subcommand("replay", "re-run one schedule and print its history");
  sub->add_option("--schedule", *schedule, "CONFIG|PROGRAM|PICKS as explore printed it")->required();
  sub->add_option("--max-points", *max_points, "scheduling points before a livelock is reported");
  sub->add_option("--render", *render, "also write the history's timeline page here (gpulin render)");
  sub->add_option("--memory", *memory,
                  "replay under this memory instead of the string's (sc: a ptx run's interleaving with every load "
                  "reading the newest store; ptx or ptx-racy: an sc run, every load reading the newest store; "
                  "ptx-racy: a ptx run past its data race)")
      ->check(CLI::IsMember(sim::memory::memory_mode_names()));
  sub->add_option("--state-at", *state_at,
                  "print instead the digest of the structure's shared words at this scheduling point (0: the first; "
                  "the page's stepper shows the same states), from a replay stopped there");
  sub->callback([schedule, max_points, render, memory, state_at, &run] {
    run = [schedule, max_points, render, memory, state_at] {
      return replay(*schedule, *max_points, *render, *memory, *state_at);
    };
  });
}

}  // namespace gpulin::cli
