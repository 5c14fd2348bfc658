// The authors' heap run and checked (original_bgpq.h), written once over its Heap
// class: original_bgpq_td.cu and original_bgpq_bu.cu each include one of its two
// heap.cuh into a namespace of their own and instantiate this with it.
#pragma once

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <string>

#include "bench/gheap/original_bgpq.h"
#include "common/cuda_support.h"

namespace gpulin::gheap_bench::bgpq {

constexpr uint32_t kBatch = 1024;   // its k, as its benchmarks use it
constexpr uint32_t kNoKey = 0xFFFFFFFFu;

// Its synthetic benchmark's kernels (synthetic/sort.cu): block b inserts batches b,
// b + grid, ...; then every block deletes batches until the heap is empty.
template <class Heap>
__global__ void insert_kernel(Heap* heap, uint32_t* items, uint64_t n) {
  for (uint64_t i = blockIdx.x; i < n / kBatch; i += gridDim.x) {
    heap->insertion(items + i * kBatch, kBatch, 0);
    __syncthreads();
  }
}
template <class Heap>
__global__ void delete_kernel(Heap* heap, uint32_t* items, uint64_t n) {
  int size = 0;
  for (uint64_t i = blockIdx.x; i < n / kBatch; i += gridDim.x) {
    if (heap->deleteRoot(items, size)) {
      __syncthreads();
      heap->deleteUpdate(0);
    }
    __syncthreads();
  }
}

// One copy a translation unit (each flavor's includes this header).
namespace {
// Deleted batches (HEAP_SORT: appended in deletion order) not ascending.
__global__ void count_unsorted_batches(const uint32_t* out, uint64_t n, unsigned long long* bad) {
  GPULIN_GRID_STRIDE(i, n) if (i % kBatch != 0 && out[i - 1] > out[i]) atomicAdd(bad, 1ull);
}
__global__ void count_different(const uint32_t* a, const uint32_t* b, uint64_t n, unsigned long long* bad) {
  GPULIN_GRID_STRIDE(i, n) if (a[i] != b[i]) atomicAdd(bad, 1ull);
}
}  // namespace

template <class Heap>
BgpqRun run(const uint32_t* keys, uint64_t n, uint32_t blocks, uint32_t threads) {
  using namespace cuda_support;
  BgpqRun r;
  try {
    if (n % kBatch || n / kBatch > (1u << 30)) throw std::invalid_argument("N must be a multiple of 1024");
    // Room for every batch twice over (its benchmark's margin), nodes filled with its
    // "no key" by its constructor.
    Heap host_heap(static_cast<int>(2 * (n / kBatch + 1)), kBatch, kNoKey);
    DeviceBuffer<Heap> heap(1);
    check(cudaMemcpy(heap.get(), &host_heap, sizeof(Heap), cudaMemcpyHostToDevice), "authors' heap");
    DeviceBuffer<uint32_t> items(n), sorted_in(n), sorted_out(n);
    check(cudaMemcpy(items.get(), keys, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice), "authors' keys");
    // Its shared memory per block (synthetic/sort.cu).
    const size_t smem = kBatch * 3 * sizeof(int) + (threads + 1) * sizeof(int) + 2 * kBatch * sizeof(int);
    check(cudaFuncSetAttribute(insert_kernel<Heap>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)),
          "authors' insert smem");
    check(cudaFuncSetAttribute(delete_kernel<Heap>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)),
          "authors' delete smem");
    check(cudaDeviceSynchronize(), "authors' heap set-up");
    GpuTimer insert, remove;
    insert.start();
    insert_kernel<Heap><<<blocks, threads, smem>>>(heap.get(), items.get(), n);
    insert.record_stop();
    r.insert_s = insert.stop("authors' inserts");
    remove.start();
    delete_kernel<Heap><<<blocks, threads, smem>>>(heap.get(), items.get(), n);
    remove.record_stop();
    r.delete_s = remove.stop("authors' deletes");

    // The checks, untimed.
    int deleted = 0;
    check(cudaMemcpy(&deleted, host_heap.deleteCount, sizeof(int), cudaMemcpyDeviceToHost), "authors' count");
    if (static_cast<uint64_t>(deleted) != n) {
      r.fail = std::to_string(deleted) + " keys deleted of " + std::to_string(n);
      return r;
    }
    if (!host_heap.isEmpty()) {
      r.fail = "the heap is not empty after the deletes";
      return r;
    }
    DeviceBuffer<unsigned long long> bad(1);
    bad.fill_bytes(0);
    count_unsorted_batches<<<grid_for(n), 256>>>(items.get(), n, bad.get());
    if (const unsigned long long b = read_at(bad.get())) {
      r.fail = std::to_string(b) + " keys out of order within their deleted batch";
      return r;
    }
    CubTemp temp;
    for (auto [in, out] : {std::pair{keys, sorted_in.get()}, std::pair{static_cast<const uint32_t*>(items.get()),
                                                                       sorted_out.get()}}) {
      size_t bytes = 0;
      check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n), "sort");
      check(cub::DeviceRadixSort::SortKeys(temp.get(bytes), bytes, in, out, n), "sort");
    }
    count_different<<<grid_for(n), 256>>>(sorted_in.get(), sorted_out.get(), n, bad.get());
    if (const unsigned long long b = read_at(bad.get()))
      r.fail = std::to_string(b) + " places where the sorted deleted keys differ from the inserted ones";
  } catch (const std::exception& e) {
    r.fail = e.what();
    (void)cudaGetLastError();
  }
  return r;
}

}  // namespace gpulin::gheap_bench::bgpq
