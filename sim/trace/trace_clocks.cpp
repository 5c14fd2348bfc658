#include "sim/trace/trace_clocks.h"

#include <algorithm>
#include <unordered_map>

#include "common/seed_mix.h"

namespace gpulin::sim {

namespace {
constexpr uint32_t kNone = ~0u;

// A word's last write and the reads since (each actor's last: an actor's reads are
// ordered by its program order, so its last covers the others).
struct WordState {
  uint32_t last_write = kNone;
  std::vector<std::pair<uint32_t, uint32_t>> reads;  // (actor, event)
};

// Each actor's last event with each record flag.
struct RecordState {
  std::vector<uint32_t> last[4];
  explicit RecordState(uint32_t actors) {
    for (auto& l : last) l.assign(actors, kNone);
  }
};
constexpr uint8_t kFlags[4] = {kOpens, kCloses, kLp, kSerial};
}  // namespace

TraceClocks::TraceClocks(const EventLog& log, uint32_t actors, bool want_races) : actors_(actors) {
  const auto& events = log.events();
  const auto& accesses = log.accesses();
  const size_t n = events.size();
  clocks_.assign(n * actors, 0);
  local_.resize(n);
  actor_.resize(n);
  std::vector<uint32_t> last_of(actors, kNone), count_of(actors, 0);
  std::unordered_map<uintptr_t, WordState> words;
  RecordState recs(actors);
  std::vector<uint32_t> preds;
  for (uint32_t k = 0; k < n; ++k) {
    const EventLog::Event& e = events[k];
    const uint32_t p = e.actor;
    actor_[k] = p;
    local_[k] = count_of[p]++;
    // The events k depends on directly (besides its actor's previous one).
    preds.clear();
    for (uint32_t a = e.first; a < e.last; ++a) {
      WordState& w = words[accesses[a].word];
      if (w.last_write != kNone) preds.push_back(w.last_write);
      if (accesses[a].write)
        for (const auto& r : w.reads) preds.push_back(r.second);
    }
    for (int f = 0; f < 4; ++f)
      for (int g = 0; g < 4; ++g)
        if ((e.records & kFlags[f]) && records_dependent(kFlags[f], kFlags[g]))
          for (uint32_t q = 0; q < actors; ++q)
            if (q != p && recs.last[g][q] != kNone) preds.push_back(recs.last[g][q]);
    std::sort(preds.begin(), preds.end(), std::greater<>());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    // Later predecessors first: an earlier one already covered by a later one's
    // clock is ordered through it, not a race.
    uint32_t* c = clocks_.data() + size_t(k) * actors;
    if (last_of[p] != kNone) std::copy_n(clock(last_of[p]), actors, c);
    for (uint32_t j : preds) {
      if (actor_[j] == p) continue;
      if (want_races && c[actor_[j]] <= local_[j]) races_.emplace_back(j, k);
      const uint32_t* cj = clock(j);
      for (uint32_t q = 0; q < actors; ++q) c[q] = std::max(c[q], cj[q]);
    }
    c[p] = local_[k] + 1;
    last_of[p] = k;
    // The word states and records after k.
    for (uint32_t a = e.first; a < e.last; ++a) {
      WordState& w = words[accesses[a].word];
      if (accesses[a].write) {
        w.last_write = k;
        w.reads.clear();
      } else {
        auto it = std::find_if(w.reads.begin(), w.reads.end(), [p](const auto& r) { return r.first == p; });
        if (it == w.reads.end()) w.reads.emplace_back(p, k);
        else it->second = k;
      }
    }
    for (int f = 0; f < 4; ++f)
      if (e.records & kFlags[f]) recs.last[f][p] = k;
    // The trace's identity: an order-free sum over events of each one's actor,
    // place, clock, records and chosen values (not its words' addresses, which
    // another run of the program may place elsewhere: with the same clocks, the
    // same program reads the same values and so touches the same words).
    uint64_t h = splitmix64(p * 0x9e3779b97f4a7c15ULL + local_[k]);
    for (uint32_t q = 0; q < actors; ++q) h = splitmix64(h ^ (c[q] + 0x51ULL * q));
    h = splitmix64(h ^ (uint64_t(e.last - e.first) << 16) ^ e.records ^ (e.choices << 24));
    fingerprint_ += h;
  }
  // Races in the order of their later event, then of their earlier one.
  std::sort(races_.begin(), races_.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first < b.first;
  });
}

}  // namespace gpulin::sim
