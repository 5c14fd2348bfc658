#include "sim/trace/trace_clocks.h"

#include <algorithm>

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

// The words a run touched, each with its state: open addressing over a table kept
// from run to run (a thread's runs reuse it; a generation number empties it).
class WordTable {
 public:
  void reset() {
    ++generation_;
    used_ = 0;
    if (slots_.empty()) grow(1024);
  }
  WordState& at(uintptr_t word) {
    if (2 * (used_ + 1) > slots_.size()) grow(2 * slots_.size());
    size_t i = hash(word) & (slots_.size() - 1);
    while (slots_[i].generation == generation_ && slots_[i].word != word) i = (i + 1) & (slots_.size() - 1);
    Slot& s = slots_[i];
    if (s.generation != generation_) {
      s = {word, generation_, static_cast<uint32_t>(used_)};
      if (states_.size() <= used_) states_.emplace_back();
      states_[used_].last_write = kNone;
      states_[used_].reads.clear();
      ++used_;
    }
    return states_[s.state];
  }

 private:
  struct Slot {
    uintptr_t word = 0;
    uint32_t generation = 0;
    uint32_t state = 0;
  };
  static size_t hash(uintptr_t w) { return static_cast<size_t>((w >> 2) * 0x9e3779b97f4a7c15ULL >> 17); }
  void grow(size_t n) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(n, Slot{});
    for (const Slot& s : old)
      if (s.generation == generation_) {
        size_t i = hash(s.word) & (n - 1);
        while (slots_[i].generation == generation_) i = (i + 1) & (n - 1);
        slots_[i] = s;
      }
  }
  std::vector<Slot> slots_;
  std::vector<WordState> states_;
  size_t used_ = 0;
  uint32_t generation_ = 0;
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

void TraceClocks::compute(const EventLog& log, uint32_t actors, bool want_races) {
  actors_ = actors;
  races_.clear();
  fingerprint_ = 0;
  const auto& events = log.events();
  const auto& accesses = log.accesses();
  const size_t n = events.size();
  clocks_.assign(n * actors, 0);
  local_.resize(n);
  actor_.resize(n);
  std::vector<uint32_t> last_of(actors, kNone), count_of(actors, 0);
  thread_local WordTable words;
  words.reset();
  RecordState recs(actors);
  std::vector<uint32_t> preds;
  for (uint32_t k = 0; k < n; ++k) {
    const EventLog::Event& e = events[k];
    const uint32_t p = e.actor;
    actor_[k] = p;
    // An event that touched nothing (an actor's start, a resumption after parking)
    // is stuttering: it takes its place and clock from its actor's next visible
    // event, and is not part of the trace's identity.
    // An await (EventLog::is_await) is not a step of the trace either, and nothing
    // after it is ordered through it: a run without it is a run of the program. It
    // gets a clock all the same, from the writes it read, for its races: which
    // actor could have gone first, before the write that made it wait.
    const bool await = log.is_await(k);
    const bool visible = !await && (e.last > e.first || e.records || e.choices);
    local_[k] = visible ? count_of[p]++ : count_of[p];
    // The events k depends on directly (besides its actor's previous one).
    preds.clear();
    for (uint32_t a = e.first; a < e.last; ++a) {
      WordState& w = words.at(accesses[a].word);
      if (w.last_write != kNone) preds.push_back(w.last_write);
      if (accesses[a].write)
        for (const auto& r : w.reads) preds.push_back(r.second);
    }
    for (int f = 0; f < 4 && e.records; ++f)
      for (int g = 0; g < 4; ++g)
        if ((e.records & kFlags[f]) && records_dependent(kFlags[f], kFlags[g]))
          for (uint32_t q = 0; q < actors; ++q)
            if (q != p && recs.last[g][q] != kNone) preds.push_back(recs.last[g][q]);
    if (want_races && preds.size() > 1) {
      std::sort(preds.begin(), preds.end(), std::greater<>());
      preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    }
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
    c[p] = visible ? local_[k] + 1 : local_[k];
    if (await) continue;
    last_of[p] = k;
    // The word states and records after k.
    for (uint32_t a = e.first; a < e.last; ++a) {
      WordState& w = words.at(accesses[a].word);
      if (accesses[a].write) {
        w.last_write = k;
        w.reads.clear();
      } else {
        auto it = std::find_if(w.reads.begin(), w.reads.end(), [p](const auto& r) { return r.first == p; });
        if (it == w.reads.end()) w.reads.emplace_back(p, k);
        else it->second = k;
      }
    }
    for (int f = 0; f < 4 && e.records; ++f)
      if (e.records & kFlags[f]) recs.last[f][p] = k;
    // The trace's identity: an order-free sum over events of each one's actor,
    // place, clock, records and chosen values (not its words' addresses, which
    // another run of the program may place elsewhere: with the same clocks, the
    // same program reads the same values and so touches the same words).
    if (!visible) continue;
    uint64_t h = p * 0x9e3779b97f4a7c15ULL + local_[k];
    for (uint32_t q = 0; q < actors; ++q) h = (h ^ c[q]) * 0x100000001b3ULL + q;
    h = splitmix64(h ^ (uint64_t(e.last - e.first) << 16) ^ e.records ^ (e.choices << 24));
    fingerprint_ += h;
  }
  // Races in the order of their later event, then of their earlier one.
  std::sort(races_.begin(), races_.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first < b.first;
  });
}

}  // namespace gpulin::sim
