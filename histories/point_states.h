// A simulated run's shared words at every scheduling point, kept small enough for a
// page of 10 000 points: keyframes (every word) every `keyframe_every` states and,
// for each state, the words that changed since the one before. Filled by a
// PointObserver (sim/point_observer.h); the stepper of gpulin render's page draws
// it (docs/architecture.md, "The stepper"). A record of a run, as a history is: plain
// data in the bottom layer, which the simulator writes and the report layer reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulin {

struct PointStates {
  // The words (32-bit) of each region the runner declared, in order: its shared
  // regions, then its named ones (Simulator::set_shared_regions, set_named_regions).
  std::vector<uint32_t> region_words;
  uint32_t keyframe_every = 256;
  std::vector<std::vector<uint32_t>> keyframes;  // the words of states 0, K, 2K, ...
  // State p's changes against state p - 1 are the (word, value) pairs
  // changes[2 * change_end[p - 1] .. 2 * change_end[p]) (change_end[0] = 0).
  std::vector<uint32_t> change_end;
  std::vector<uint32_t> changes;
  // Per state: the actor that reached the point (the last state, the run's end:
  // the last actor that ran) and the history events recorded by then.
  std::vector<uint32_t> actor;
  std::vector<uint64_t> events;
  std::string outcome;  // how the run ended (sim::to_string), "" while it runs

  size_t size() const { return actor.size(); }
  // The words of state p, from its keyframe and the changes after it.
  std::vector<uint32_t> words_at(size_t p) const {
    const size_t k = p / keyframe_every;
    std::vector<uint32_t> w = keyframes.at(k);
    for (size_t q = k * keyframe_every + 1; q <= p; ++q)
      for (uint32_t i = change_end[q - 1]; i < change_end[q]; ++i) w[changes[2 * i]] = changes[2 * i + 1];
    return w;
  }
};

// FNV-1a (32-bit) over the words' little-endian bytes: the digest gpulin replay
// --state-at prints and the page's stepper writes for its tests.
inline uint32_t words_digest(const std::vector<uint32_t>& words) {
  uint32_t h = 2166136261u;
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) h = (h ^ ((w >> (8 * b)) & 0xffu)) * 16777619u;
  return h;
}

}  // namespace gpulin
