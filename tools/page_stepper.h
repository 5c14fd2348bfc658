// The stepper of a history's page (render/page.h, Stepper): where the history came
// from the simulator (its header's "schedule", a replay string) and the structure
// that owns the string registers a drawing (StructureRow::draw_js), its replay's
// states at every scheduling point; otherwise why there is none.
#pragma once

#include <optional>
#include <string>

#include "histories/history.h"
#include "render/page.h"

namespace gpulin::cli {

// The replay string in h's header ("schedule"), if any.
std::optional<std::string> schedule_of(const History& h);

// Sets o.stepper, or o.no_stepper to one line saying why there is none.
void add_stepper(const std::optional<std::string>& schedule, render::PageOptions& o);

}  // namespace gpulin::cli
