// The ticker of recording by a published clock (histories/key_clock_records.h,
// KeyClockMode::kPublished): block 0 of a recorded launch runs it while the other
// blocks run the operations (published_clock_context.cuh).
//
// Its first warp reads every multiprocessor's clock (relaxed loads, then an acquire
// fence: what it read now happens before what follows), and where one has moved
// since its last look, bumps G with a release fetch_add and logs a sighting
// (multiprocessor, value, G's old value) per moved clock. It stops once the clocks
// hold every ret of every launch so far: tick_state[kTickRetsDone] (the previous
// launches', left by their tickers) plus this launch's rounds. Its last look comes
// after the last ret, so every ret is published before the launch ends, and the next
// launch's invs load a larger G.
//
// No worker waits on the ticker, and the ticker waits only for rets the workers
// make anyway, so it cannot deadlock whichever block the GPU runs first. A full log
// sets tick_state[kTickOverflow]: the host refuses such a history rather than order
// operations by a sighting it lost.
#pragma once

#include "cuda/cuda_context.cuh"
#include "histories/key_clock_records.h"

namespace gpulin::cuda_exec {

// Every thread of block 0 calls it; `rounds`: this launch's warp rounds (each ends
// with one ret).
__device__ inline void run_published_ticker(const KeyClockRecorderRef& rec, uint64_t rounds) {
  if (threadIdx.x >= 32) return;
  const uint32_t lane = threadIdx.x;
  constexpr uint32_t kPerLane = kPublishedMaxSms / 32;
  uint32_t last[kPerLane];  // the values this lane saw at its last look
  uint64_t done = device_ref<uint32_t>(rec.tick_state[kTickRetsDone]).load(cuda::memory_order_relaxed);
  const uint64_t target = done + rounds;
  for (uint32_t j = 0; j < kPerLane; ++j) last[j] = 0xFFFFFFFFu;
  for (;;) {
    uint32_t now[kPerLane];
    uint64_t sum = 0;
    for (uint32_t j = 0; j < kPerLane; ++j) {
      now[j] = device_ref<uint32_t>(rec.clocks[published_sm_clock(lane + 32 * j)]).load(cuda::memory_order_relaxed);
      sum += now[j];
    }
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    __syncwarp();  // every lane's acquire before lane 0's release (as warp rounds rely on)
    for (int o = 16; o > 0; o /= 2) sum += __shfl_xor_sync(~0u, sum, o);
    uint32_t moved = 0;
    for (uint32_t j = 0; j < kPerLane; ++j) moved += now[j] != last[j] && now[j] != 0;
    uint32_t before = moved;  // exclusive prefix of the lanes' sightings
    for (int o = 1; o < 32; o *= 2) {
      const uint32_t v = __shfl_up_sync(~0u, before, o);
      if (lane >= static_cast<uint32_t>(o)) before += v;
    }
    before -= moved;
    const uint32_t total = __shfl_sync(~0u, before + moved, 31);
    if (total) {
      uint32_t g = 0, base = 0;
      if (lane == 0) {
        g = device_ref<uint32_t>(rec.clocks[0]).fetch_add(1u, cuda::memory_order_release);
        base = rec.tick_state[kTickUsed];
        rec.tick_state[kTickUsed] = base + total <= rec.tick_cap ? base + total : rec.tick_cap;
        if (base + total > rec.tick_cap) rec.tick_state[kTickOverflow] = 1;
      }
      g = __shfl_sync(~0u, g, 0);
      base = __shfl_sync(~0u, base, 0);
      uint32_t at = base + before;
      for (uint32_t j = 0; j < kPerLane; ++j) {
        if (now[j] == last[j] || now[j] == 0) continue;
        if (at < rec.tick_cap) rec.ticks[at] = PublishedTick{lane + 32 * j, now[j], g, 0};
        ++at;
        last[j] = now[j];
      }
    }
    if (sum >= target) {
      if (lane == 0) rec.tick_state[kTickRetsDone] = static_cast<uint32_t>(sum);
      return;
    }
  }
}

}  // namespace gpulin::cuda_exec
