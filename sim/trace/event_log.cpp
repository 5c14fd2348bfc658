#include "sim/trace/event_log.h"

#include <algorithm>

namespace gpulin::sim {

bool records_dependent(uint8_t a, uint8_t b) {
  return ((a & kOpens) && (b & kCloses)) || ((a & kCloses) && (b & kOpens)) || ((a & kLp) && (b & kLp)) ||
         ((a & kSerial) && (b & kSerial));
}

namespace {
// Two steps conflict: dependent records, or a word both touch that one writes.
bool conflict(uint8_t ra, const WordAccess* a, size_t na, uint8_t rb, const WordAccess* b, size_t nb) {
  if (records_dependent(ra, rb)) return true;
  for (size_t i = 0; i < na; ++i)
    for (size_t j = 0; j < nb; ++j)
      if (a[i].word == b[j].word && (a[i].write || b[j].write)) return true;
  return false;
}
}  // namespace

Footprint EventLog::footprint(size_t event) const {
  const Event& e = events_[event];
  Footprint f;
  f.accesses.assign(accesses_.begin() + e.first, accesses_.begin() + e.last);
  f.records = e.records;
  return f;
}

bool EventLog::matches(const Footprint& f, size_t event) const {
  const Event& e = events_[event];
  return f.records == e.records && f.accesses.size() == e.last - e.first &&
         std::equal(f.accesses.begin(), f.accesses.end(), accesses_.begin() + e.first,
                    [](const WordAccess& x, const WordAccess& y) { return x.word == y.word && x.write == y.write; });
}

bool EventLog::depends(const Footprint& f, size_t event) const {
  const Event& e = events_[event];
  return conflict(f.records, f.accesses.data(), f.accesses.size(), e.records, accesses_.data() + e.first,
                  e.last - e.first);
}

bool EventLog::is_await(size_t event) const {
  const Event& e = events_[event];
  return e.retry && e.records == 0 && e.choices == 0 &&
         std::none_of(accesses_.begin() + e.first, accesses_.begin() + e.last, [](const WordAccess& a) { return a.write; });
}

bool EventLog::depends(size_t a, size_t b) const {
  const Event& x = events_[a];
  const Event& y = events_[b];
  return conflict(x.records, accesses_.data() + x.first, x.last - x.first, y.records, accesses_.data() + y.first,
                  y.last - y.first);
}

}  // namespace gpulin::sim
