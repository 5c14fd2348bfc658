// The parallel heap's memory on the GPU (the layout of psync_view.h): nodes for up
// to max_nodes, the insert buffers and delete table its processes need, the new
// keys and the output (`new_keys` and `out_keys` of them: one cycle's place, a ring,
// or one place per cycle of a run) and
// scratch for every actor that does not fit in shared memory.
#pragma once

#include <cstdint>
#include <vector>

#include "common/cuda_support.h"
#include "structures/psync/controller.h"
#include "structures/psync/psync_view.h"

namespace gpulin::psync {

class DevicePsyncHeap {
 public:
  // Throws std::runtime_error (with CUDA's message) when the memory is not there.
  DevicePsyncHeap(uint32_t r, uint32_t max_nodes, uint64_t new_keys, uint64_t out_keys)
      : nodes_(uint64_t{max_nodes} * r),
        buffers_(uint64_t{insert_slots_for(max_nodes)} * r),
        table_(delete_slots_for(max_nodes)),
        new_keys_(new_keys),
        out_(out_keys),
        scratch_(r > 1024 ? uint64_t{1 + levels_of(max_nodes)} * kScratchPerR * r : 0) {
    table_.fill_bytes(0);
    view_.r = r;
    view_.max_nodes = max_nodes;
    view_.nodes = nodes_.get();
    view_.insert_buffers = buffers_.get();
    view_.delete_table = table_.get();
    view_.new_keys = new_keys_.get();
    view_.out = out_.get();
    view_.scratch = scratch_.get();
  }
  const View<uint32_t>& view() const { return view_; }
  uint32_t* new_keys() const { return new_keys_.get(); }
  std::vector<uint32_t> out(uint64_t n) const { return cuda_support::download(out_.get(), n); }

  // The first `n` slots of the nodes (host copy), for the checks at rest.
  std::vector<uint32_t> nodes(uint64_t n) const { return cuda_support::download(nodes_.get(), n); }
  // Keys sorted ascending laid out in node order are a parallel heap: the initial
  // content of a benchmark (the controller starts from them: Controller::start_full).
  void upload_sorted(const std::vector<uint32_t>& keys) {
    cuda_support::check(cudaMemcpy(nodes_.get(), keys.data(), keys.size() * sizeof(uint32_t), cudaMemcpyHostToDevice),
                        "psync heap: initial keys");
  }
  uint64_t bytes() const {
    return (nodes_.size() + buffers_.size() + new_keys_.size() + out_.size() + scratch_.size()) * sizeof(uint32_t) +
           table_.size() * sizeof(uint32_t);
  }

 private:
  cuda_support::DeviceBuffer<uint32_t> nodes_, buffers_, table_, new_keys_, out_, scratch_;
  View<uint32_t> view_;
};

}  // namespace gpulin::psync
