// The self-contained timeline page of gpulin render: one HTML file, no network, the
// history and its Timeline embedded as JSON, drawn on a canvas (one lane per actor,
// operations as bars from invocation to response, lock holds nested in them,
// linearization points as marks joined in order; the state after a point on hover,
// an operation's details on click; the failing window and the longest linearizable
// prefix marked).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "histories/history.h"
#include "render/timeline.h"

namespace gpulin::render {

// Something of the run beside its history, drawn over the timeline (gpulin replay
// --render of a run under ptx): a stale read, from the store it read to the load,
// or a data race, from the earlier access to the later. Ops are history op ids (-1:
// outside any operation); times are tickets, an access made between tickets t and
// t + 1 at t + 0.5.
struct RunMark {
  bool race = false;
  int64_t from_op = -1, to_op = -1;
  double from_t = 0, to_t = 0;
  std::string text;
};

struct PageOptions {
  std::string title;
  std::string note;  // shown above the checker's message (what else found this run failing)
  // Only what overlaps [from, to] (tickets) is drawn; the checks ran on everything.
  std::optional<uint64_t> from, to;
  std::vector<RunMark> marks;
};

// The page's data: {"title", "note", "model", "rule", "verdict", "method", "message", "notes",
// "actors": [id], "ops": [[id, lane, f, args, res|null, inv, ret|-1]], "holds": [[op,
// node, acq, rel|-1]], "points": [[op, t, state]], "window": [op], "prefix": [op],
// "failing": op|-1, "fail_t": where the rule's replay fails|-1, "marks": [[race 0|1, op|-1, t, op|-1, t,
// text]] (both ops drawn ones), "total_ops", "t0"} - op references index "ops", times are
// tickets less t0 (so they stay exact in JavaScript's doubles).
std::string page_json(const History& h, const Timeline& tl, const PageOptions& o);

// The whole page, with page_json embedded.
std::string timeline_page(const History& h, const Timeline& tl, const PageOptions& o);

}  // namespace gpulin::render
