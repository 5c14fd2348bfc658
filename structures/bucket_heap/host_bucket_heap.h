// The parallel bucket heap's memory in host vectors, for the simulator: `levels`
// levels of parameter d, empty, every p_i unset, each level's scratch.
#pragma once

#include <cstdint>
#include <vector>

#include "structures/bucket_heap/view.h"

namespace gpulin::bucket_heap {

struct HostBucketHeap {
  std::vector<Element> buckets, signals, signals_b, scratch;
  std::vector<uint32_t> bucket_n, signal_n, signal_n_b, done;
  std::vector<uint64_t> threshold, scratch_base;
  View view;
  HostBucketHeap(uint32_t d, uint32_t levels)
      : buckets(bucket_base(d, levels)), signals(signal_base(d, levels)), signals_b(signal_base(d, levels)),
        bucket_n(levels, 0), signal_n(levels, 0), signal_n_b(levels, 0), done(levels, 0), threshold(levels, kNoThreshold) {
    uint64_t total = 0;
    for (uint32_t i = 0; i < levels; ++i) scratch_base.push_back(total), total += scratch_for_level(d, i);
    scratch.assign(total, 0);
    view = View{d, levels, buckets.data(), signals.data(), bucket_n.data(), signal_n.data(), threshold.data(),
                done.data(), scratch.data(), scratch_base.data(), signals_b.data(), signal_n_b.data()};
  }
};

}  // namespace gpulin::bucket_heap
