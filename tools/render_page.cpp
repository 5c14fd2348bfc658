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

}  // namespace gpulin::cli
