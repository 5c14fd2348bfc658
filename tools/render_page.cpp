#include "tools/render_page.h"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

#include "render/page.h"
#include "tools/page_stepper.h"

namespace gpulin::cli {

namespace {

void write_page_file(const std::string& path, const std::string& page) {
  std::ofstream out(path, std::ios::binary);
  out << page;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

std::string write_timeline_page(const History& h, const std::string& path, const std::string& title,
                                std::optional<uint64_t> from, std::optional<uint64_t> to, double search_seconds,
                                const std::string& note, std::vector<render::RunMark> marks,
                                const std::optional<std::string>& schedule) {
  render::TimelineOptions o;
  o.search_seconds = search_seconds;
  const render::Timeline tl = render::build_timeline(h, o);
  render::PageOptions page;
  page.title = title;
  page.note = note;
  page.from = from;
  page.to = to;
  page.marks = std::move(marks);
  add_stepper(schedule ? schedule : schedule_of(h), page);
  write_page_file(path, render::timeline_page(h, tl, page));
  return fmt::format("{}: {} ({}); {} operations, {} points{}{}", path, to_string(tl.verdict), tl.method, h.ops.size(),
                     tl.points.size(),
                     page.stepper ? fmt::format(", a stepper of {} scheduling points", page.stepper->states.size()) : "",
                     tl.window.empty() ? "" : fmt::format(", a failing window of {} operations", tl.window.size()));
}

std::string write_run_page(const std::string& path, const std::string& title, const std::string& schedule, bool failed,
                           const std::string& message) {
  const History h;
  render::Timeline tl;
  tl.verdict = failed ? Verdict::NotLinearizable : Verdict::Linearizable;
  tl.method = "the run's output checked";
  tl.message = message;
  tl.notes = "This run records no history: the timeline is empty; the stepper below steps through the run.";
  render::PageOptions page;
  page.title = title;
  page.verdict_text = failed ? "wrong output" : "output as expected";
  add_stepper(schedule, page);
  write_page_file(path, render::timeline_page(h, tl, page));
  return fmt::format("{}: {} scheduling points{}", path, page.stepper ? page.stepper->states.size() : 0,
                     page.stepper ? "" : " (" + page.no_stepper + ")");
}

std::vector<render::RunMark> page_marks(const std::vector<sim::memory::ModelMemory::Mark>& marks) {
  std::vector<render::RunMark> out;
  for (const sim::memory::ModelMemory::Mark& m : marks)
    out.push_back({m.race, m.earlier.tag.op, m.later.tag.op, static_cast<double>(m.earlier.tag.when) + 0.5,
                   static_cast<double>(m.later.tag.when) + 0.5, sim::memory::ModelMemory::describe(m)});
  return out;
}

}  // namespace gpulin::cli
