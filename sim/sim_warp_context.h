// The warp-role execution context of the simulator (structures/exec/context.h,
// "warp-role contexts"): one fiber per warp. A warp step - the lanes of one
// for_each_lane, one after the other, or one barrier operation outside it - is
// followed or preceded by one scheduling point, so a warp's lanes advance together
// between points; arrivals made by the lanes take effect after the step's point.
// The block's shared state (barriers, block barrier) is a SimBlock shared by the
// block's warp contexts; waits park the fiber there.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sim/sim_block.h"
#include "sim/simulator.h"

namespace gpulin::sim {

class SimWarpContext {
 public:
  SimWarpContext(Simulator& sim, SimBlock& block, uint64_t block_id, uint64_t blocks, uint32_t warp)
      : sim_(sim), blk_(block), block_(block_id), blocks_(blocks), warp_(warp) {}

  uint32_t warp() const { return warp_; }
  uint64_t block() const { return block_; }
  uint64_t blocks() const { return blocks_; }
  bool first_thread() const { return warp_ == 0; }  // warp 0's fiber stands for thread 0
  bool leader() const { return true; }              // a fiber is one thread outside for_each_lane

  // Per-thread values across warp steps: 32 lanes' arrays, indexed by the consumer
  // thread's lane (a warp context owns only its own lanes).
  template <class T, uint32_t N>
  struct Regs {
    std::vector<T> v = std::vector<T>(32 * N);
    T* of(uint32_t t) { return v.data() + (t % 32) * N; }
  };

  template <class F>
  void for_each_lane(F&& f) {
    in_lanes_ = true;
    for (uint32_t lane = 0; lane < 32; ++lane) f(lane);
    in_lanes_ = false;
    sim_.point();
    for (uint64_t* bar : lane_arrivals_) blk_.arrive(bar);
    lane_arrivals_.clear();
  }
  void warp_sync() {}
  void copy16(void* dst, const void* src) {
    if (reinterpret_cast<uintptr_t>(dst) % 16 != 0 || reinterpret_cast<uintptr_t>(src) % 16 != 0)
      sim_.fault("copy16: misaligned vector access");
    std::memcpy(dst, src, 16);
  }

  // Lane collectives: the warp's registers only, so no scheduling point. Outside
  // for_each_lane (warp-uniform code), as on the GPU every lane must take part.
  template <class F>
  uint32_t ballot(F&& pred) {
    outside_lanes("ballot");
    uint32_t mask = 0;
    for (uint32_t lane = 0; lane < 32; ++lane)
      if (pred(lane)) mask |= 1u << lane;
    return mask;
  }
  template <class F>
  auto shuffle(F&& value_of, uint32_t src_lane) {
    outside_lanes("shuffle");
    return value_of(src_lane % 32);
  }

  void block_sync() {
    outside_lanes("block_sync");
    sim_.point();
    blk_.block_sync();
  }
  void publish_barrier_init() {}

  void init_barrier(uint64_t* bar, uint32_t count) {
    sim_.point();
    blk_.init_barrier(bar, count);
  }
  void expect_bytes(uint64_t* bar, uint32_t n) {
    sim_.point();
    blk_.expect_bytes(bar, n);
  }
  void bulk_load(void* dst, const void* src, uint32_t n, uint64_t* bar) {
    sim_.point();
    blk_.bulk_load(dst, src, n, bar);
  }
  void arrive(uint64_t* bar) {
    if (in_lanes_) {
      lane_arrivals_.push_back(bar);
      return;
    }
    sim_.point();
    blk_.arrive(bar);
  }
  void wait(uint64_t* bar, uint32_t parity) {
    outside_lanes("wait");
    sim_.point();
    blk_.wait(bar, parity);
  }

 private:
  // A wait inside for_each_lane would be a divergent wait: on the GPU a lane
  // waiting for its own warp's later arrival hangs.
  void outside_lanes(const char* what) {
    if (in_lanes_) sim_.fault(std::string(what) + " inside for_each_lane");
  }

  Simulator& sim_;
  SimBlock& blk_;
  uint64_t block_, blocks_;
  uint32_t warp_;
  bool in_lanes_ = false;
  std::vector<uint64_t*> lane_arrivals_;
};

}  // namespace gpulin::sim
