#include "sim/trace/event_log.h"

namespace gpulin::sim {

bool records_dependent(uint8_t a, uint8_t b) {
  return ((a & kOpens) && (b & kCloses)) || ((a & kCloses) && (b & kOpens)) || ((a & kLp) && (b & kLp)) ||
         ((a & kSerial) && (b & kSerial));
}

bool dependent(const Footprint& a, const Footprint& b) {
  if (records_dependent(a.records, b.records)) return true;
  for (const WordAccess& x : a.accesses)
    for (const WordAccess& y : b.accesses)
      if (x.word == y.word && (x.write || y.write)) return true;
  return false;
}

Footprint EventLog::footprint(size_t event) const {
  const Event& e = events_[event];
  Footprint f;
  f.accesses.assign(accesses_.begin() + e.first, accesses_.begin() + e.last);
  f.records = e.records;
  return f;
}

bool EventLog::depends(const Footprint& f, size_t event) const {
  const Event& e = events_[event];
  if (records_dependent(f.records, e.records)) return true;
  for (uint32_t i = e.first; i < e.last; ++i)
    for (const WordAccess& x : f.accesses)
      if (x.word == accesses_[i].word && (x.write || accesses_[i].write)) return true;
  return false;
}

bool EventLog::depends(size_t a, size_t b) const {
  const Event& x = events_[a];
  const Event& y = events_[b];
  if (records_dependent(x.records, y.records)) return true;
  for (uint32_t i = x.first; i < x.last; ++i)
    for (uint32_t j = y.first; j < y.last; ++j)
      if (accesses_[i].word == accesses_[j].word && (accesses_[i].write || accesses_[j].write)) return true;
  return false;
}

}  // namespace gpulin::sim
