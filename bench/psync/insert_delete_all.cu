#include "bench/psync/insert_delete_all.h"

#include <cub/device/device_segmented_radix_sort.cuh>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <vector>

#include "common/cuda_support.h"
#include "structures/psync/gpu/psync_launch.h"
#include "structures/psync/controller.h"
#include "structures/psync/device_psync_heap.h"

namespace gpulin::psync_bench {

namespace {

using cuda_support::check;
using cuda_support::DeviceBuffer;

__global__ void table1_keys(uint32_t* keys, uint64_t n, int shape, uint64_t seed) {
  GPULIN_GRID_STRIDE(i, n) {
    if (shape == 1) { keys[i] = static_cast<uint32_t>(i); continue; }
    if (shape == 2) { keys[i] = static_cast<uint32_t>(n - 1 - i); continue; }
    uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    keys[i] = static_cast<uint32_t>((z ^ (z >> 31)) >> 33);
  }
}

}  // namespace

InsertDeleteAllRun insert_delete_all(uint64_t n, uint32_t r, const std::string& workload, uint64_t seed) {
  const int shape = workload == "ascend" ? 1 : workload == "descend" ? 2 : 0;
  DeviceBuffer<uint32_t> keys(n);
  table1_keys<<<cuda_support::grid_for(n), 256>>>(keys.get(), n, shape, seed);
  check(cudaGetLastError(), "table1 keys");
  return insert_delete_all(keys.get(), n, r);
}

InsertDeleteAllRun insert_delete_all(const uint32_t* keys, uint64_t n, uint32_t r) {
  const auto max_nodes = static_cast<uint32_t>(n / r + 2);
  const uint64_t cycles = (n + r - 1) / r;
  DeviceBuffer<uint32_t> sorted(n);  // the check's copy of the keys inserted
  std::vector<int> offsets(cycles + 1);
  for (uint64_t c = 0; c <= cycles; ++c) offsets[c] = static_cast<int>(std::min<uint64_t>(c * r, n));
  DeviceBuffer<int> d_offsets(offsets);
  psync::DevicePsyncHeap heap(r, max_nodes, n, n);
  const psync::View<uint32_t>& h = heap.view();
  size_t temp_bytes = 0;
  cub::DeviceSegmentedRadixSort::SortKeys(nullptr, temp_bytes, keys, h.new_keys, static_cast<int>(n),
                                          static_cast<int>(cycles), d_offsets.get(), d_offsets.get() + 1);
  DeviceBuffer<uint8_t> temp(temp_bytes);
  check(cudaDeviceSynchronize(), "table1 keys");

  InsertDeleteAllRun run;
  psync::Controller ctl(r, max_nodes);
  cudaStream_t s = nullptr;
  auto steps = [&] {
    check(psync::launch_psync_step(h, ctl.step(), s), "psync step 2");
    check(psync::launch_psync_step(h, ctl.step(), s), "psync step 3");
  };
  cuda_support::GpuTimer insert_timer, delete_timer;
  insert_timer.start(s);
  check(cub::DeviceSegmentedRadixSort::SortKeys(temp.get(), temp_bytes, keys, h.new_keys, static_cast<int>(n),
                                                static_cast<int>(cycles), d_offsets.get(), d_offsets.get() + 1, 0, 32, s),
        "segmented sort");
  int64_t op = 0;
  for (uint64_t c = 0; c < cycles; ++c, ++op) {
    psync::CyclePlan plan = ctl.begin_cycle(static_cast<uint32_t>(offsets[c + 1] - offsets[c]), op, 0);
    plan.root.new_offset = static_cast<uint64_t>(offsets[c]);
    check(psync::launch_psync_root(h, plan.root, s), "psync root");
    steps();
  }
  run.insert_seconds = insert_timer.stop("table1 inserts", s);
  delete_timer.start(s);
  uint64_t out = 0;
  while (out < n) {
    psync::CyclePlan plan = ctl.begin_cycle(0, op++, r);
    plan.root.out_offset = out;
    check(psync::launch_psync_root(h, plan.root, s), "psync root");
    for (const psync::RefillTask& t : plan.refills) check(psync::launch_psync_refill(h, t, s), "psync refill");
    steps();
    if (plan.root.out_count == 0) break;
    out += plan.root.out_count;
  }
  run.delete_seconds = delete_timer.stop("table1 deletes", s);
  // Sorted, and exactly the keys inserted.
  check(cudaMemcpy(sorted.get(), keys, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice), "table1 check copy");
  thrust::sort(thrust::device, sorted.get(), sorted.get() + n);
  if (out != n)
    run.failure = "handed out " + std::to_string(out) + " keys of " + std::to_string(n);
  else if (!thrust::equal(thrust::device, sorted.get(), sorted.get() + n, h.out))
    run.failure = "the keys handed out are not the keys inserted, in order";
  check(cudaDeviceSynchronize(), "table1 check");
  return run;
}

}  // namespace gpulin::psync_bench
