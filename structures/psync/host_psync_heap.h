// The parallel heap's memory in host memory, for the simulator: nodes, insert
// buffers, the delete table, the cycle's new and deleted keys and every actor's
// scratch, sized for a heap of up to max_nodes nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "structures/psync/controller.h"
#include "structures/psync/psync_view.h"

namespace gpulin::psync {

template <class Key>
class HostPsyncHeap {
 public:
  HostPsyncHeap(uint32_t r, uint32_t max_nodes, uint32_t actors)
      : nodes_(static_cast<size_t>(max_nodes) * r),
        buffers_(static_cast<size_t>(insert_slots_for(max_nodes)) * r),
        table_(delete_slots_for(max_nodes), 0u),
        new_keys_(2 * r),
        out_(r),
        scratch_(static_cast<size_t>(actors) * kScratchPerR * r) {
    view_.r = r;
    view_.max_nodes = max_nodes;
    view_.nodes = nodes_.data();
    view_.insert_buffers = buffers_.data();
    view_.delete_table = table_.data();
    view_.new_keys = new_keys_.data();
    view_.out = out_.data();
    view_.scratch = scratch_.data();
  }
  const View<Key>& view() const { return view_; }
  // The arrays the step actors share, as (address, bytes): the nodes, the insert
  // buffers, the delete table (the step scratch is each actor's own; new keys and
  // outputs are the host's).
  std::vector<std::pair<const void*, size_t>> shared_bytes() const {
    return {{nodes_.data(), nodes_.size() * sizeof(Key)},
            {buffers_.data(), buffers_.size() * sizeof(Key)},
            {table_.data(), table_.size() * sizeof(uint32_t)}};
  }
  // The keys handed in and out and the scratch: reached through the context too, but
  // read and written by the controller between steps, so not guarded (named for a
  // log of events only: Simulator::set_named_regions).
  std::vector<std::pair<const void*, size_t>> io_bytes() const {
    return {{new_keys_.data(), new_keys_.size() * sizeof(Key)},
            {out_.data(), out_.size() * sizeof(Key)},
            {scratch_.data(), scratch_.size() * sizeof(Key)}};
  }

 private:
  std::vector<Key> nodes_, buffers_;
  std::vector<uint32_t> table_;
  std::vector<Key> new_keys_, out_, scratch_;
  View<Key> view_;
};

}  // namespace gpulin::psync
