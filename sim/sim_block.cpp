#include "sim/sim_block.h"

#include <algorithm>
#include <string>

#include "sim/memory/model_memory.h"

namespace gpulin::sim {

SimBlock::SimBlock(Simulator& sim, unsigned char* smem, size_t smem_bytes, uint32_t warps)
    : sim_(sim), smem_(smem), smem_bytes_(smem_bytes), warps_(warps), bars_(smem_bytes / 8), lanes_(sim, warps),
      id_(sim.next_block_id()) {}

bool SimBlock::in_smem(const void* p, size_t n) const {
  const auto* b = static_cast<const unsigned char*>(p);
  return b >= smem_ && b + n <= smem_ + smem_bytes_;
}

SimBlock::Barrier& SimBlock::at(const uint64_t* bar) {
  const auto off = reinterpret_cast<const unsigned char*>(bar) - smem_;
  if (!in_smem(bar, 8) || off % 8 != 0) sim_.fault("mbarrier outside shared memory or misaligned");
  // Every barrier operation changes the barrier's state: in a log of events, all of
  // them depend on one another (ids 1.. : the block barrier is 0).
  sim_.touch_object((uint64_t{id_} + 1) << 32 | (static_cast<uint64_t>(off) / 8 + 1), true);
  return bars_[static_cast<size_t>(off) / 8];
}

void SimBlock::init_barrier(uint64_t* bar, uint32_t count) {
  Barrier& b = at(bar);
  b = Barrier{};
  b.initialised = true;
  b.count = count;
}

void SimBlock::maybe_complete(Barrier& b) {
  if (b.arrivals < b.count || b.pending != 0) return;
  b.arrivals = 0;
  b.completed_view = std::move(b.arrived_view);
  b.arrived_view.clear();
  b.completed_clock = std::move(b.arrived_clock);
  b.arrived_clock.clear();
  ++b.phase;
  sim_.wrote(&b.phase);  // wakes the fibers parked on this phase
}

void SimBlock::expect_bytes(uint64_t* bar, uint32_t n) {
  Barrier& b = at(bar);
  if (!b.initialised) sim_.fault("expect_tx on an uninitialised mbarrier");
  b.pending += n;
}

// The copy engine's rules (PTX cp.async.bulk): 16-byte aligned source and
// destination, a whole number of 16-byte units, the destination in shared memory.
// The bytes land at once, the earliest moment the engine could write them, so a
// stage refilled before its readers finished shows up as a wrong result.
void SimBlock::bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar) {
  if (reinterpret_cast<uintptr_t>(dst) % 16 != 0 || reinterpret_cast<uintptr_t>(src) % 16 != 0)
    sim_.fault("bulk copy: misaligned source or destination");
  if (n == 0 || n % 16 != 0) sim_.fault("bulk copy: size " + std::to_string(n) + " is not a multiple of 16");
  if (!in_smem(dst, n)) sim_.fault("bulk copy: destination outside shared memory");
  Barrier& b = at(bar);
  if (!b.initialised) sim_.fault("bulk copy completing on an uninitialised mbarrier");
  memory::unguarded_copy(dst, src, n);  // src: global words the model may guard
  bulk_bytes_ += n;
  ++bulk_copies_;
  b.pending -= n;
  maybe_complete(b);
}

void SimBlock::arrive(uint64_t* bar) {
  release_lane(bar);
  count_arrival(bar);
}

void SimBlock::release_lane(uint64_t* bar) {
  Barrier& b = at(bar);
  if (!b.initialised) sim_.fault("arrival on an uninitialised mbarrier");
  lanes_.release(sim_.current(), b.arrived_clock);
}

void SimBlock::count_arrival(uint64_t* bar) {
  Barrier& b = at(bar);
  if (!b.initialised) sim_.fault("arrival on an uninitialised mbarrier");
  ++b.arrivals;
  if (auto* m = sim_.memory()) memory::join_views(b.arrived_view, m->view(sim_.current()));
  maybe_complete(b);
}

void SimBlock::wait(uint64_t* bar, uint32_t parity) {
  Barrier& b = at(bar);
  if (!b.initialised) sim_.fault("wait on an uninitialised mbarrier");
  while ((b.phase & 1u) == (parity & 1u)) sim_.park(&b.phase, b.phase, /*logged=*/true);
  if (auto* m = sim_.memory()) m->take_in(sim_.current(), b.completed_view);
  lanes_.acquire_warp(sim_.current(), b.completed_clock);
}

void SimBlock::block_sync() {
  sim_.touch_object((uint64_t{id_} + 1) << 32, true);
  sync_actors_.push_back(sim_.current());
  if (++sync_arrived_ == warps_) {
    sync_arrived_ = 0;
    if (auto* m = sim_.memory()) m->barrier(sync_actors_);
    sync_actors_.clear();
    lanes_.block_barrier();
    if (sync_hook_) {
      const memory::LiftedGuard lifted = sim_.lift_guard();  // the hook reads the structure directly
      sync_hook_();
    }
    ++sync_generation_;
    sim_.wrote(&sync_generation_);
    return;
  }
  const uint32_t seen = sync_generation_;
  while (sync_generation_ == seen) sim_.park(&sync_generation_, seen, /*logged=*/true);
}

}  // namespace gpulin::sim
