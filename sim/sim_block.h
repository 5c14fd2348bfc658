// The shared state of one simulated thread block whose warps are actors (the
// warp-role contract of structures/exec/context.h): its shared memory's transaction
// barriers (mbarriers) and its block-wide barrier. Each warp's SimContext calls
// in here at its scheduling points; a wait that cannot proceed parks the fiber on
// the barrier's phase word, so a wait nobody completes ends the run as a deadlock.
//
// Barriers follow the hardware (PTX ISA, mbarrier): a phase completes when its
// expected arrivals have arrived and its transaction count (bytes announced by
// expect_bytes, minus bytes delivered by bulk copies) is zero; wait(parity) passes
// once the phase of that parity completed, i.e. while the current phase's parity
// differs. Breaches of the bulk copy engine's rules, and arrivals on a barrier never
// initialised, are faults of the run. Under the ptx memory mode an arrival releases
// and a wait that passes acquires (the phase's arrivals' views), and the block
// barrier joins the views of the warps it releases.
//
// The block's shared memory, viewed through the context (private_view), is checked
// for races between the block's threads under every memory mode: the same barriers
// order the lanes' clocks (sim/private_memory/lane_clocks.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/memory/access_site.h"
#include "sim/memory/ptx_memory.h"
#include "sim/private_memory/lane_clocks.h"
#include "sim/private_memory/private_ptr.h"
#include "sim/simulator.h"

namespace gpulin::sim {

class SimBlock {
 public:
  // `smem`: the block's shared memory (barriers are 8-byte words inside it);
  // `warps`: every warp of the block (the block barrier waits for all of them).
  SimBlock(Simulator& sim, unsigned char* smem, size_t smem_bytes, uint32_t warps);

  // No scheduling point in these: the calling context passes it first.
  void init_barrier(uint64_t* bar, uint32_t count);
  void expect_bytes(uint64_t* bar, uint32_t n);
  void bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar);
  void arrive(uint64_t* bar);
  // An arrival in two halves, for a warp's lanes (for_each_lane): the lane's clock
  // is released at the arrival, the count taken after the warp's step.
  void release_lane(uint64_t* bar);
  void count_arrival(uint64_t* bar);
  // Parks the calling fiber until the phase of `parity` completed.
  void wait(uint64_t* bar, uint32_t parity);
  // Parks until every warp of the block arrived (__syncthreads).
  void block_sync();

  // The lanes' clocks, and [base, base + n) of the block's shared memory as a
  // checked pointer (the first view starts the clocks).
  LaneClocks& lanes() { return lanes_; }
  template <class T>
  PrivatePtr<T> private_view(T* base, size_t n) {
    if (!in_smem(base, n * sizeof(T))) sim_.fault("private_view: not inside the block's shared memory");
    if (!smem_region_) {
      lanes_.enable();
      smem_region_ = std::make_unique<PrivateRegion>(lanes_, reinterpret_cast<std::byte*>(smem_), smem_bytes_ / 4);
    }
    return PrivatePtr<T>(smem_region_.get(), base);
  }
  // Runs when every warp arrived at a block_sync, before any of them goes on: a
  // moment when the actors are all at the barrier (the P-Sync heap's invariant
  // check between steps).
  void set_sync_hook(std::function<void()> hook) { sync_hook_ = std::move(hook); }

  uint64_t bulk_bytes() const { return bulk_bytes_; }
  uint64_t bulk_copies() const { return bulk_copies_; }

 private:
  struct Barrier {
    bool initialised = false;
    uint32_t count = 0, arrivals = 0;
    int64_t pending = 0;  // transaction count: announced minus delivered bytes
    uint32_t phase = 0;   // completed phases; fibers park on this word
    // Under the ptx memory mode: the views the current phase's arrivals released,
    // and what a wait that sees the last completed phase acquires.
    memory::View arrived_view, completed_view;
    // The same for the lanes' clocks (empty until the shared memory is viewed).
    LaneClock arrived_clock, completed_clock;
  };
  Barrier& at(const uint64_t* bar);
  void maybe_complete(Barrier& b);
  bool in_smem(const void* p, size_t n) const;

  Simulator& sim_;
  unsigned char* smem_;
  size_t smem_bytes_;
  uint32_t warps_;
  std::vector<Barrier> bars_;  // one per 8-byte word of shared memory, never resized
  uint32_t sync_arrived_ = 0, sync_generation_ = 0;
  std::vector<uint32_t> sync_actors_;  // the actors at the block barrier now (ptx: they join views)
  std::function<void()> sync_hook_;
  uint64_t bulk_bytes_ = 0, bulk_copies_ = 0;
  LaneClocks lanes_;
  std::unique_ptr<PrivateRegion> smem_region_;
  uint32_t id_;  // the run's SimBlock number (Simulator::next_block_id)
};

}  // namespace gpulin::sim
