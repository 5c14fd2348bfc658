// The GPU watchdog's shared words: what a kernel's execution context
// (cuda/cuda_context.cuh) needs to stop a run that cannot finish instead of hanging
// the GPU or trapping. Plain C++, so host code (cuda/watchdog_host.h) and kernels
// share the layout.
//
// Every wait on the GPU (CudaContext::wait_while_equals) re-reads its word at most
// `spin_bound` times. Past the bound the actor records what it waited on, sets
// `stop` and exits; an actor waiting anywhere sees `stop` within one back-off,
// records its wait too and exits; an actor between operations sees it before its
// next one (CudaContext::stopped). The kernel then ends normally: its recorder holds
// a partial history (the cut-off operations pending), and the host reads which
// word each actor was waiting on (DeviceWatchdog::read).
#pragma once

#include <cstdint>

namespace gpulin::cuda_exec {

// Why an actor stopped.
enum : uint32_t {
  kStopSpinBound = 1,   // its wait passed the spin bound: it stopped the run
  kStopWasWaiting = 2,  // it was waiting when the run was stopped
  kStopFailed = 3,      // the structure called x.fail (an impossible state); the device printed why
};

struct WatchdogWait {
  uint64_t word = 0;   // the address waited on (device memory), 0 for kStopFailed
  uint32_t actor = 0;  // block index, or grid-wide warp index
  uint32_t seen = 0;   // the value it kept seeing
  uint32_t why = 0;    // kStop*
  uint32_t pad = 0;
};

// 2^24 re-reads, each a round trip to L2 plus any back-off: seconds, far beyond any
// wait of a correct run (the heap's root lock under 128 blocks waits milliseconds,
// a level block's turn a round).
inline constexpr uint64_t kDefaultSpinBound = uint64_t{1} << 24;

// With `stop` null there is no watchdog: a wait past the bound traps with a message
// (the kernel's process loses its CUDA context, but the GPU does not hang).
struct WatchdogRef {
  uint32_t* stop = nullptr;        // 0 while running; 1 + the actor that stopped it
  uint32_t* wait_count = nullptr;  // waits recorded (counts past wait_cap: none lost silently)
  WatchdogWait* waits = nullptr;   // [wait_cap]
  uint32_t wait_cap = 0;
  uint64_t spin_bound = kDefaultSpinBound;
  // How a waiter that holds nothing others queue behind (the heap's root, a level
  // block's turn) sleeps between attempts: backoff_first_ns, doubling up to
  // backoff_max_ns (0 and 0: it spins, the default). A holder's waits never sleep.
  // gpulin_bench_gheap --backoff sweeps them (bench/results/gheap-backoff-h200.txt).
  uint32_t backoff_first_ns = 0;
  uint32_t backoff_max_ns = 0;
};

}  // namespace gpulin::cuda_exec
