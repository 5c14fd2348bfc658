// The fields of an event line (history-format.md, Events), written once for the
// readers that parse event lines (jsonl_reader.cpp, key_history_reader.cpp): which
// fields exist, which an event of each kind must carry (which are also all it may
// carry), and the kind named by `e`.
#pragma once

#include <string_view>

#include "histories/history.h"

namespace gpulin::event_fields {

// Event fields, by bit. kBase is required on every event.
enum Field : int { kT, kE, kOp, kActor, kNode, kF, kArgs, kRes, kFieldCount };
inline constexpr const char* kFieldName[kFieldCount] = {"t", "e", "op", "actor", "node", "f", "args", "res"};
constexpr unsigned bit(Field f) { return 1u << f; }
inline constexpr unsigned kBase = bit(kT) | bit(kE) | bit(kOp) | bit(kActor);

inline bool kind_of(std::string_view e, EventKind& kind) {
  if (e == "inv") kind = EventKind::Inv;
  else if (e == "ret") kind = EventKind::Ret;
  else if (e == "acq") kind = EventKind::Acq;
  else if (e == "rel") kind = EventKind::Rel;
  else if (e == "lp") kind = EventKind::Lp;
  else return false;
  return true;
}

// The fields an event of this kind must carry, which are also all it may carry.
inline unsigned fields_of(EventKind k) {
  switch (k) {
    case EventKind::Inv: return kBase | bit(kF) | bit(kArgs);
    case EventKind::Ret: return kBase | bit(kRes);
    case EventKind::Acq:
    case EventKind::Rel: return kBase | bit(kNode);
    case EventKind::Lp: return kBase;
  }
  return kBase;
}

}  // namespace gpulin::event_fields
