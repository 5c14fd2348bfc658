#include "tools/page_stepper.h"

#include <simdjson.h>

#include "tools/registry/registry.h"
#include "tools/registry/replay_states.h"

namespace gpulin::cli {

std::optional<std::string> schedule_of(const History& h) {
  for (const auto& [key, value] : h.header.extra) {
    if (key != "schedule") continue;
    simdjson::dom::parser parser;
    std::string_view s;
    if (parser.parse(value).get_string().get(s) == simdjson::SUCCESS) return std::string(s);
  }
  return std::nullopt;
}

void add_stepper(const std::optional<std::string>& schedule, render::PageOptions& o) {
  if (!schedule) {
    o.no_stepper = "No stepper: the history carries no simulator schedule (a GPU or imported history has no states to step through).";
    return;
  }
  const registry::StructureRow* row = registry::structures().owner_of_replay(*schedule);
  if (!row) {
    o.no_stepper = "No stepper: no registered structure owns the history's schedule.";
    return;
  }
  if (row->draw_js.empty() || !row->state_layout) {
    o.no_stepper = "No stepper: " + row->name + " registers no drawing of its state.";
    return;
  }
  try {
    render::Stepper s;
    s.draw_js = row->draw_js;
    s.layout_json = row->state_layout(*schedule);
    s.states = registry::replay_states(*row, *schedule, registry::kReplayPoints);
    o.stepper = std::move(s);
  } catch (const std::exception& e) {
    o.no_stepper = std::string("No stepper: the schedule's replay failed: ") + e.what();
  }
}

}  // namespace gpulin::cli
