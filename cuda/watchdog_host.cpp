#include "cuda/watchdog_host.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>

#include "common/cuda_support.h"

namespace gpulin::cuda_exec {

using cuda_support::check;

DeviceWatchdog::DeviceWatchdog(uint32_t actors, uint64_t spin_bound) {
  ref_.spin_bound = spin_bound;
  ref_.wait_cap = std::max<uint32_t>(actors, 1);
  check(cudaMalloc(&ref_.stop, 2 * sizeof(uint32_t)), "watchdog words");
  ref_.wait_count = ref_.stop + 1;
  check(cudaMemset(ref_.stop, 0, 2 * sizeof(uint32_t)), "watchdog words");
  check(cudaMalloc(&ref_.waits, size_t(ref_.wait_cap) * sizeof(WatchdogWait)), "watchdog waits");
}

DeviceWatchdog::~DeviceWatchdog() {
  cudaFree(ref_.stop);
  cudaFree(ref_.waits);
}

WatchdogReport DeviceWatchdog::read() const {
  WatchdogReport r;
  r.spin_bound = ref_.spin_bound;
  uint32_t words[2] = {};
  check(cudaMemcpy(words, ref_.stop, sizeof words, cudaMemcpyDeviceToHost), "watchdog: read back");
  r.stopped = words[0] != 0;
  if (!r.stopped) return r;
  r.stopped_by = words[0] - 1;
  const uint32_t kept = std::min(words[1], ref_.wait_cap);
  r.waits_lost = words[1] - kept;
  r.waits.resize(kept);
  if (kept)
    check(cudaMemcpy(r.waits.data(), ref_.waits, kept * sizeof(WatchdogWait), cudaMemcpyDeviceToHost),
          "watchdog: read back");
  return r;
}

std::string id_ranges(std::vector<uint32_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string s;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += j == i ? fmt::format("{}", ids[i]) : fmt::format("{}-{}", ids[i], ids[j]);
    i = j + 1;
  }
  return s;
}

std::string describe(const WatchdogReport& r, const WordNamer& name_word, const std::string& actor_noun,
                     const ValueNamer& name_value) {
  if (!r.stopped) return "the watchdog did not stop the run";
  auto word = [&](uint64_t a) {
    std::string n = name_word ? name_word(a) : std::string();
    return n.empty() ? fmt::format("the word at 0x{:x}", a) : n;
  };
  auto value = [&](uint64_t a, uint32_t v) {
    std::string n = name_value ? name_value(a, v) : std::string();
    return n.empty() ? std::to_string(v) : n;
  };
  std::string s;
  const auto first = std::find_if(r.waits.begin(), r.waits.end(),
                                  [&](const WatchdogWait& w) { return w.actor == r.stopped_by && w.why != kStopWasWaiting; });
  if (first != r.waits.end() && first->why == kStopSpinBound)
    s = fmt::format("GPU watchdog: {} {} waited on {} (value {}) past the spin bound of {} re-reads and stopped the run",
                    actor_noun, r.stopped_by, word(first->word), value(first->word, first->seen), r.spin_bound);
  else if (first != r.waits.end())
    s = fmt::format("GPU watchdog: {} {} failed (the device printed why) and stopped the run", actor_noun, r.stopped_by);
  else
    s = fmt::format("GPU watchdog: {} {} stopped the run (its record was lost)", actor_noun, r.stopped_by);
  // The others, grouped by what they waited on.
  std::map<std::pair<uint64_t, uint32_t>, std::vector<uint32_t>> waiting;
  std::vector<uint32_t> failed;
  const WatchdogWait* own = first == r.waits.end() ? nullptr : &*first;
  for (const WatchdogWait& w : r.waits) {
    if (&w == own) continue;
    if (w.why == kStopFailed)
      failed.push_back(w.actor);
    else
      waiting[{w.word, w.seen}].push_back(w.actor);
  }
  uint64_t n_waiting = 0;
  for (const auto& [key, ids] : waiting) n_waiting += ids.size();
  s += fmt::format("; {} other {}{} waiting when it stopped", n_waiting, actor_noun, n_waiting == 1 ? " was" : "s were");
  for (const auto& [key, ids] : waiting)
    s += fmt::format("; on {} (value {}): {}{} {}", word(key.first), value(key.first, key.second), actor_noun, ids.size() == 1 ? "" : "s",
                     id_ranges(ids));
  if (!failed.empty()) s += fmt::format("; failed too: {}s {}", actor_noun, id_ranges(failed));
  if (r.waits_lost) s += fmt::format("; {} more waits not kept (no room)", r.waits_lost);
  return s;
}

}  // namespace gpulin::cuda_exec
