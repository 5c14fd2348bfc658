// The cost of one grid-wide hand-off, the unit PARDIJKSTRA's rounds are made of
// (gpulin_bench_sssp --profile): two blocks on two multiprocessors pass a count
// back and forth through global memory with the bucket heap's own signal and wait
// (structures/bucket_heap/schedule.h: a store of the count, a wait until the other
// block's count reaches it), on the CUDA context its levels run on.
#pragma once

#include <cstdint>

namespace gpulin::sssp {

// Seconds per hand-off (half a round trip), over `round_trips` round trips of two
// blocks of `threads` threads, timed by CUDA events. Throws std::runtime_error on a
// CUDA error.
double handoff_seconds(uint32_t round_trips, uint32_t threads);

}  // namespace gpulin::sssp
