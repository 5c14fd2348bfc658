// gpulin render: a history as a self-contained HTML timeline (render/page.h), its
// linearization points and verdict from the checkers (render/timeline.h).
#include <fmt/core.h>

#include <optional>

#include "histories/binary_format.h"
#include "tools/commands.h"
#include "tools/render_page.h"

namespace gpulin::cli {

namespace {

struct RenderArgs {
  std::string file, out, title, note;
  std::optional<uint64_t> from, to;
  double search_seconds = 20;
};

int run_render(const RenderArgs& a) {
  if (a.from && a.to && *a.from > *a.to) {
    fmt::print(stderr, "gpulin render: --from {} is after --to {}\n", *a.from, *a.to);
    return int(kBadInput);
  }
  try {
    const History h = read_history_any(a.file);
    fmt::print("{}\n", write_timeline_page(h, a.out, a.title.empty() ? a.file : a.title, a.from, a.to, a.search_seconds, a.note));
  } catch (const FormatError& e) {
    fmt::print(stderr, "gpulin render: {}\n", e.what());
    return int(kBadInput);
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "gpulin render: {}\n", e.what());
    return int(kBadInput);
  }
  return int(kPass);
}

}  // namespace

void add_render(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<RenderArgs>();
  CLI::App* sub = app.add_subcommand("render", "draw a history as a self-contained HTML timeline");
  sub->add_option("history", a->file, "history (JSON Lines or binary)")->required();
  sub->add_option("-o,--out", a->out, "the page to write")->required();
  sub->add_option("--title", a->title, "the page's title (default: the history's file name)");
  sub->add_option("--note", a->note, "a line shown above the verdict (what else found the run failing)");
  sub->add_option("--from", a->from, "draw only what overlaps [from, to] (tickets); the checks see everything");
  sub->add_option("--to", a->to, "see --from");
  sub->add_option("--search-seconds", a->search_seconds, "the search's time budget (no lp_rule, or a window to explain)");
  sub->callback([a, &run] { run = [a] { return run_render(*a); }; });
}

}  // namespace gpulin::cli
