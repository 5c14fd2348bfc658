#include "verify/testing/generate_published_recording.h"

#include <algorithm>
#include <random>

namespace gpulin {

namespace {

// The slab hash's operation codes and names (structures/slab_hash/slab_hash_view.h),
// repeated here: a checker's test data never includes a structure.
constexpr uint32_t kUpdate = 0, kDelete = 1, kSearch = 2;

struct Round {
  uint32_t sm = 0;
  uint32_t inv = 0;
  bool started = false;
  std::vector<uint32_t> ops;  // op ids, in the order they take effect
  size_t done = 0;            // ops that took effect
};

}  // namespace

PublishedRecording generate_published_recording(const PublishedRecordingOptions& o) {
  std::mt19937_64 rng(o.seed);
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  auto pick = [&](uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng); };
  PublishedRecording out;
  out.fn_names = o.map ? std::vector<std::string>{"replace", "delete", "search", "searchall", "deleteall"}
                       : std::vector<std::string>{"insert", "delete", "contains", "searchall", "deleteall"};
  out.records.resize(o.ops);
  out.calls.resize(o.ops);
  std::vector<uint32_t> state(o.keys + 1, 0);  // a key's value; 0: absent (a set's present value is 1)
  std::vector<uint32_t> clock(o.sms, 0), seen(o.sms, 0);
  uint32_t g = 0, next_value = 1;
  auto sight = [&](uint32_t sm) {
    out.ticks.push_back({sm, clock[sm], g, 0});
    seen[sm] = clock[sm];
    ++g;
  };
  const uint32_t per_launch = (o.ops + o.launches - 1) / std::max(o.launches, 1u);
  for (uint32_t launch = 0, first = 0; first < o.ops; ++launch, first += per_launch) {
    const uint32_t last = std::min(o.ops, first + per_launch);
    std::vector<Round> rounds;
    for (uint32_t op = first; op < last; op += o.round) {
      Round r;
      r.sm = static_cast<uint32_t>(pick(o.sms));
      for (uint32_t i = op; i < std::min(last, op + o.round); ++i) r.ops.push_back(i);
      rounds.push_back(r);
    }
    size_t next_round = 0;
    std::vector<size_t> open;
    while (next_round < rounds.size() || !open.empty()) {
      const uint32_t step = static_cast<uint32_t>(pick(4));
      if ((step == 0 || open.empty()) && next_round < rounds.size() && open.size() < o.open_rounds) {
        Round& r = rounds[next_round];
        r.started = true, r.inv = g;  // the round's inv: a load of G
        open.push_back(next_round++);
      } else if (step == 1 && !open.empty()) {  // an operation of an open round takes effect
        Round& r = rounds[open[pick(open.size())]];
        if (r.done == r.ops.size()) continue;
        const uint32_t op = r.ops[r.done++];
        const uint32_t key = 1 + static_cast<uint32_t>(pick(o.keys));
        const uint32_t fn = static_cast<uint32_t>(pick(3));
        uint32_t value = 0, res = 0;
        bool has_res = false, res_null = true;
        if (fn == kUpdate) {
          value = o.map ? next_value++ : 0;
          state[key] = o.map ? value : 1;
        } else if (fn == kDelete) {
          state[key] = 0;
        } else if (o.map) {
          has_res = state[key] != 0, res_null = !has_res, res = state[key];
          if (chance(o.wrong)) {
            if (has_res) res += 1;
            else has_res = true, res_null = false, res = next_value + 7;
          }
        } else {
          has_res = true, res_null = false, res = state[key] != 0;
          if (chance(o.wrong)) res = 1 - res;
        }
        out.calls[op] = {key, value};
        out.records[op] = {0, 0, res, published_shape(o.map && fn == kUpdate ? 2 : 1, has_res, res_null, fn, r.sm, launch)};
      } else if (step == 2 && !open.empty()) {  // an open round whose ops all took effect ends
        const size_t at = pick(open.size());
        Round& r = rounds[open[at]];
        if (r.done < r.ops.size()) continue;
        const uint32_t ret = ++clock[r.sm];
        for (uint32_t op : r.ops) {
          out.records[op].inv = r.inv;
          out.records[op].ret = chance(o.pending) ? 0 : ret;
        }
        open.erase(open.begin() + static_cast<std::ptrdiff_t>(at));
      } else if (step == 3) {  // the ticker publishes a clock that moved
        const uint32_t sm = static_cast<uint32_t>(pick(o.sms));
        if (clock[sm] != seen[sm]) sight(sm);
      }
    }
    for (uint32_t sm = 0; sm < o.sms; ++sm)
      if (clock[sm] != seen[sm]) sight(sm);
  }
  return out;
}

}  // namespace gpulin
