#include "tools/render_page.h"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

#include "render/page.h"

namespace gpulin::cli {

std::string write_timeline_page(const History& h, const std::string& path, const std::string& title,
                                std::optional<uint64_t> from, std::optional<uint64_t> to, double search_seconds,
                                const std::string& note, std::vector<render::RunMark> marks) {
  render::TimelineOptions o;
  o.search_seconds = search_seconds;
  const render::Timeline tl = render::build_timeline(h, o);
  std::ofstream out(path, std::ios::binary);
  out << render::timeline_page(h, tl, render::PageOptions{title, note, from, to, std::move(marks)});
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
  return fmt::format("{}: {} ({}); {} operations, {} points{}", path, to_string(tl.verdict), tl.method, h.ops.size(),
                     tl.points.size(),
                     tl.window.empty() ? "" : fmt::format(", a failing window of {} operations", tl.window.size()));
}

std::vector<render::RunMark> page_marks(const std::vector<sim::memory::ModelMemory::Mark>& marks) {
  std::vector<render::RunMark> out;
  for (const sim::memory::ModelMemory::Mark& m : marks)
    out.push_back({m.race, m.earlier.tag.op, m.later.tag.op, static_cast<double>(m.earlier.tag.when) + 0.5,
                   static_cast<double>(m.later.tag.when) + 0.5, sim::memory::ModelMemory::describe(m)});
  return out;
}

}  // namespace gpulin::cli
