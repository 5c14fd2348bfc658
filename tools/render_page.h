// Writing a history's timeline page (render/page.h) for the commands that take
// --render FILE (render, check, explore, replay).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "histories/history.h"
#include "render/page.h"
#include "sim/memory/model_memory.h"

namespace gpulin::cli {

// Checks h for the page and writes it to `path`; returns a one-line summary. The
// page's stepper replays `schedule`, by default the one h's header carries.
// Throws FormatError where h does not fit its model, std::runtime_error where the
// file cannot be written.
std::string write_timeline_page(const History& h, const std::string& path, const std::string& title,
                                std::optional<uint64_t> from = {}, std::optional<uint64_t> to = {},
                                double search_seconds = 20, const std::string& note = "",
                                std::vector<render::RunMark> marks = {},
                                const std::optional<std::string>& schedule = {});

// The page of a simulated run that records no history (the merge, judged by its
// output): an empty timeline, the run's verdict and message, and the stepper of
// `schedule`. Returns a one-line summary; throws std::runtime_error where the file
// cannot be written.
std::string write_run_page(const std::string& path, const std::string& title, const std::string& schedule, bool failed,
                           const std::string& message);

// A ptx run's stale reads and race as the page draws them: an access made after
// event ticket t (t events recorded) at t + 0.5.
std::vector<render::RunMark> page_marks(const std::vector<sim::memory::ModelMemory::Mark>& marks);

}  // namespace gpulin::cli
