// The parallel bucket heap's memory on the GPU (view.h's layout) for `levels`
// levels of parameter d, empty, with each level's scratch. Header-only host code
// over cuda_support (no nvcc needed).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/cuda_support.h"
#include "structures/bucket_heap/view.h"

namespace gpulin::bucket_heap {

class DeviceBucketHeap {
 public:
  DeviceBucketHeap(uint32_t d, uint32_t levels)
      : buckets_(bucket_base(d, levels)), signals_(signal_base(d, levels)), signals_b_(signal_base(d, levels)),
        bucket_n_(levels), signal_n_(levels), signal_n_b_(levels), done_(levels), threshold_(levels) {
    std::vector<uint64_t> base;
    uint64_t total = 0;
    for (uint32_t i = 0; i < levels; ++i) base.push_back(total), total += scratch_for_level(d, i);
    scratch_.resize(total);
    scratch_base_ = std::make_unique<cuda_support::DeviceBuffer<uint64_t>>(base);
    reset();
    view_ = View{d, levels, buckets_.get(), signals_.get(), bucket_n_.get(), signal_n_.get(), threshold_.get(),
                 done_.get(), scratch_.get(), scratch_base_->get(), signals_b_.get(), signal_n_b_.get()};
  }
  // Empty, every p_i unset, no RESOLVE done.
  void reset() {
    bucket_n_.fill_bytes(0);
    signal_n_.fill_bytes(0);
    signal_n_b_.fill_bytes(0);
    done_.fill_bytes(0);
    threshold_.fill_bytes(0xff);  // kNoThreshold
  }
  const View& view() const { return view_; }
  // The GPU watchdog's name for a word a level waited on (cuda/watchdog_host.h):
  // the levels signal through their RESOLVE counts (schedule.h). Empty: not ours.
  std::string word_name(uint64_t address) const {
    const uint64_t done = reinterpret_cast<uint64_t>(view_.done);
    if (address < done || address >= done + 4ull * view_.levels) return {};
    return "level " + std::to_string((address - done) / 4) + "'s RESOLVE count";
  }

 private:
  cuda_support::DeviceBuffer<Element> buckets_, signals_, signals_b_;
  cuda_support::DeviceBuffer<uint32_t> bucket_n_, signal_n_, signal_n_b_, done_;
  cuda_support::DeviceBuffer<uint64_t> threshold_;
  cuda_support::DeviceBuffer<Element> scratch_;
  std::unique_ptr<cuda_support::DeviceBuffer<uint64_t>> scratch_base_;
  View view_;
};

}  // namespace gpulin::bucket_heap
