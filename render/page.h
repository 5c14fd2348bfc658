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
#include "histories/point_states.h"
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

// The stepper beside the timeline (docs/architecture.md, "The stepper"): a
// simulated run's shared words at each scheduling point and the structure's
// drawing of them (its registry row's draw_js and state layout).
struct Stepper {
  std::string draw_js;      // a JavaScript function (S) => SVG markup
  std::string layout_json;  // a JSON object: "regions" (names) and what the drawing needs
  PointStates states;
};

struct PageOptions {
  std::string title;
  std::string note;  // shown above the checker's message (what else found this run failing)
  // Only what overlaps [from, to] (tickets) is drawn; the checks ran on everything.
  std::optional<uint64_t> from, to;
  std::vector<RunMark> marks;
  std::optional<Stepper> stepper;
  std::string no_stepper;  // without one: why (one line on the page)
  // Shown in place of the linearizability verdict: a run whose output is checked
  // against a reference, with no history and no model (the merge: "wrong output").
  std::string verdict_text;
};

// The page's data: {"title", "note", "model", "rule", "verdict", "method", "message", "notes",
// "actors": [id], "ops": [[id, lane, f, args, res|null, inv, ret|-1]], "holds": [[op,
// node, acq, rel|-1]], "points": [[op, t, state]], "window": [op], "prefix": [op],
// "failing": op|-1, "fail_t": where the rule's replay fails|-1, "marks": [[race 0|1, op|-1, t, op|-1, t,
// text]] (both ops drawn ones), "total_ops", "t0", "stepper": null or stepper_json's object,
// "no_stepper": why not} - op references index "ops", times are
// tickets less t0 (so they stay exact in JavaScript's doubles).
std::string page_json(const History& h, const Timeline& tl, const PageOptions& o);

// The stepper's data: {"draw": source, "layout": {...}, "regions": [words], "every": K,
// "keys": [[words]] (states 0, K, 2K, ...; a run of n equal words as -n, v), "nchg": [changes of state p against p - 1,
// p >= 1], "chg": [word, value, ...], "actor": [per state], "ev": [history events
// recorded by each state, less the state before's], "outcome"}: decoded lazily by
// the page, a state from its keyframe and the changes after it.
std::string stepper_json(const Stepper& s);

// The whole page, with page_json embedded.
std::string timeline_page(const History& h, const Timeline& tl, const PageOptions& o);

}  // namespace gpulin::render
