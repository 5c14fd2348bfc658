// Turns events as a source produced them (any order, each inv/ret with its
// payload) into a checked History. Every producer that is not a History already
// (the JSONL reader, the binary reader, the importers) ends here, so sorting,
// the rules of rules.h and the building of the operation table happen in one place.
//
// The layout avoids copies because a GPU history can hold millions of
// operations: events go straight into History::events, an inv's f and args
// straight into the Operation that will end up in History::ops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/history.h"

namespace gpulin {

struct RawHistory {
  std::vector<Event> events;       // in any order
  std::vector<uint32_t> slot;      // per event: inv -> index into calls, ret -> index into results
  std::vector<Operation> calls;    // per inv: f and args (assemble sets the rest)
  std::vector<Value> results;      // per ret: res

  void add_inv(const Event& e, std::string f, Value args) {
    events.push_back(e);
    slot.push_back(static_cast<uint32_t>(calls.size()));
    calls.emplace_back();
    calls.back().f = std::move(f);
    calls.back().args = std::move(args);
  }
  void add_ret(const Event& e, Value res) {
    events.push_back(e);
    slot.push_back(static_cast<uint32_t>(results.size()));
    results.push_back(std::move(res));
  }
  void add_other(const Event& e) {  // acq, rel, lp
    events.push_back(e);
    slot.push_back(0);
  }
};

// Sorts events by t, their slots alongside (both readers' assembly step). Recorders
// and the writer emit t order already, so the common case is one linear check.
void sort_events_by_t(std::vector<Event>& events, std::vector<uint32_t>& slot);

// Checks the header (line `header_line`) and the events, and builds the History:
// events sorted by t, ops sorted by inv_t. Throws FormatError naming `source`.
History assemble_history(std::string source, Header header, uint32_t header_line, RawHistory raw);

}  // namespace gpulin
