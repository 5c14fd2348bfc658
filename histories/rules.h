// The structural rules of history-format.md, written once. The JSONL reader, the
// binary reader, the importers and validate_history (for histories built in code)
// all go through these functions, so a file and an in-memory history are judged
// alike. What is NOT checked here: whether f/args/res fit the model's operations
// (that is the sequential models' business, in verify/).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "histories/history.h"

namespace gpulin {

// The names of the models a history may name (histories/model_catalog.h), in its order.
std::vector<std::string> known_models();

// Header rules: version 1, a known model, params an object holding the model's
// required parameters (pq-batch: k >= 1, psync-pq: r >= 1), lp_rule empty or one
// of root-release | last-lock | explicit, extra keys unique and not standard ones.
// Throws FormatError(file, line, ...).
void check_header(const Header& h, const std::string& file, uint32_t line);

// One operation as the event rules see it: indices into the checked event array.
struct OpSpan {
  static constexpr uint32_t kNone = UINT32_MAX;
  int64_t id = 0;
  int64_t actor = 0;
  uint32_t inv_event = kNone;
  uint32_t ret_event = kNone;  // kNone: pending
};

// Event rules, on events sorted by t (the caller sorts): unique t; every op has
// exactly one inv; at most one ret; every other event strictly between inv and
// ret; the event's actor is its inv's actor; acq/rel per (op, node) alternate
// starting with acq; no ret at t = 2^64 - 1 (kPending, which marks "no ret" in
// Operation::ret_t); ops of one actor do not overlap (a pending op overlaps all
// that start after it). Errors name the line of the event where the problem
// shows (Event::line, 0 for events built in code). Returns the operations in
// inv order.
std::vector<OpSpan> check_events(std::span<const Event> events, const std::string& file);

// Every rule above on an in-memory history, plus its consistency: events sorted
// by t, ops sorted by inv_t and matching the events' inv/ret (ids, actors, times),
// args an array, res present exactly when there is a ret. Throws FormatError with
// h.source and the offending event's line (0 when built in code).
void validate_history(const History& h);

}  // namespace gpulin
