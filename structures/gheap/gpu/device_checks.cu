#include "structures/gheap/gpu/device_checks.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/operation.h"
#include "common/cuda_support.h"

namespace gpulin::stress {

namespace {

using namespace cuda_support;

// Keys an op contributes to a side: an insert's n[i] (inserted side) or a
// delete's out_n[i] (taken-out side).
__global__ void lengths(const uint32_t* fn, const uint32_t* n, const uint32_t* out_n, uint64_t ops, bool inserts,
                        uint64_t* len) {
  GPULIN_GRID_STRIDE(i, ops) len[i] = inserts ? (fn[i] == gheap::kFnIns ? n[i] : 0) : (fn[i] == gheap::kFnDel ? out_n[i] : 0);
}

// Copies each op's keys to dst + off[i]; for deletes also checks the batch.
template <class Key>
__global__ void gather_batches(const Key* src, const uint64_t* len, const uint64_t* off, uint64_t ops, uint32_t k,
                               bool deletes, Key* dst, unsigned long long* bad) {
  for (uint64_t i = blockIdx.x; i < ops; i += gridDim.x) {
    const uint64_t n = len[i];
    if (deletes && n > k) {
      if (threadIdx.x == 0) atomicAdd(bad, 1ull);
      continue;
    }
    bool unsorted = false;
    for (uint32_t j = threadIdx.x; j < n; j += blockDim.x) {
      const Key v = src[i * k + j];
      dst[off[i] + j] = v;
      if (j && src[i * k + j - 1] > v) unsorted = true;
    }
    if (__syncthreads_or(unsorted) && deletes && threadIdx.x == 0) atomicAdd(bad + 1, 1ull);
  }
}

template <class Key>
__global__ void heap_keys(gheap::HeapMemory<Key> h, uint32_t lastelem, uint32_t psize, Key* dst) {
  GPULIN_GRID_STRIDE(j, uint64_t(lastelem) * h.k + psize) {
    const uint64_t i = j / h.k;
    dst[j] = i < lastelem ? h.node(gheap::node_of(static_cast<uint32_t>(i + 1)))[j % h.k] : h.pbuffer[j - uint64_t(lastelem) * h.k];
  }
}

template <class Key>
__global__ void first_mismatch(const Key* a, const Key* b, uint64_t n, unsigned long long* at) {
  GPULIN_GRID_STRIDE(i, n) if (a[i] != b[i]) atomicMin(at, static_cast<unsigned long long>(i));
}

// The heap at rest. The first problem (by node, then kind) goes to `bad` as
// node << 4 | kind.
enum AtRest : uint32_t { kLocked = 1, kOutsideNotEmpty, kUnsortedNode, kBelowParent, kPartial };
__global__ void mark_present(uint32_t lastelem, uint8_t* present) {
  GPULIN_GRID_STRIDE(i, lastelem) present[gheap::node_of(static_cast<uint32_t>(i + 1))] = 1;
}
template <class Key>
__global__ void nodes_at_rest(gheap::HeapMemory<Key> h, const uint8_t* present, uint32_t max_node,
                              unsigned long long* bad) {
  const uint32_t k = h.k;
  for (uint64_t x = 1 + blockIdx.x; x <= h.capacity; x += gridDim.x) {
    const Key* keys = h.node(static_cast<uint32_t>(x));
    bool broken_sort = false, not_empty = false;
    for (uint32_t j = threadIdx.x; j < k; j += blockDim.x) {
      if (j && keys[j - 1] > keys[j]) broken_sort = true;
      if (!present[x] && keys[j] != gheap::KeyLimits<Key>::max_value) not_empty = true;
    }
    const bool s = __syncthreads_or(broken_sort), e = __syncthreads_or(not_empty);
    if (threadIdx.x != 0) continue;
    auto report = [&](uint32_t kind) { atomicMin(bad, static_cast<unsigned long long>(x << 4 | kind)); };
    // The root's word counts its holds above its state (gheap/config.h).
    const uint32_t state = gheap::counted_lock(static_cast<uint32_t>(x)) ? gheap::lock_state(h.state[x]) : h.state[x];
    if (state != gheap::AVAIL) report(kLocked);
    if (e) report(kOutsideNotEmpty);
    if (x <= max_node && s) report(kUnsortedNode);
    if (x >= 2 && x <= max_node && keys[0] < h.node(static_cast<uint32_t>(x / 2))[k - 1]) report(kBelowParent);
  }
}
template <class Key>
__global__ void partial_at_rest(gheap::HeapMemory<Key> h, uint32_t psize, bool has_root, unsigned long long* bad) {
  bool broken = psize >= h.k;
  for (uint32_t j = threadIdx.x; j < psize && j < h.k; j += blockDim.x) {
    if (j && h.pbuffer[j - 1] > h.pbuffer[j]) broken = true;
    if (j == 0 && has_root && h.pbuffer[0] < h.node(1)[h.k - 1]) broken = true;
  }
  if (__syncthreads_or(broken) && threadIdx.x == 0) atomicMin(bad, static_cast<unsigned long long>(kPartial));
}

const char* at_rest_text(uint32_t kind) {
  switch (kind) {
    case kLocked: return "keeps its lock (state is not AVAIL)";
    case kOutsideNotEmpty: return "is outside the heap but holds keys";
    case kUnsortedNode: return "breaks property 2 (keys not ascending)";
    case kBelowParent: return "breaks property 1 (a key below its parent's largest)";
    case kPartial: return "breaks property 3 (partial buffer: sorted, fewer than k, >= the root)";
  }
  return "?";
}

}  // namespace

template <class Key>
struct DeviceConservation<Key>::Buffers {
  explicit Buffers(uint64_t n) : inserted(n), removed(n), bad(2) {}
  DeviceBuffer<Key> inserted, removed;
  DeviceBuffer<unsigned long long> bad;  // [0] batches over k, [1] unsorted batches
  uint64_t capacity = 0;
};

template <class Key>
DeviceConservation<Key>::DeviceConservation(uint64_t max_keys) : b_(std::make_unique<Buffers>(max_keys)) {
  b_->capacity = max_keys;
  b_->bad.fill_bytes(0);
}
template <class Key>
DeviceConservation<Key>::~DeviceConservation() = default;

template <class Key>
void DeviceConservation<Key>::add_phase(const uint32_t* fn, const uint32_t* n, const Key* keys, const Key* out,
                                        const uint32_t* out_n, uint64_t ops, uint32_t k) {
  DeviceBuffer<uint64_t> len(ops), off(ops);
  for (bool inserts : {true, false}) {
    lengths<<<grid_for(ops), 256>>>(fn, n, out_n, ops, inserts, len.get());
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, bytes, len.get(), off.get(), ops);
    DeviceBuffer<uint8_t> temp(bytes);
    cub::DeviceScan::ExclusiveSum(temp.get(), bytes, len.get(), off.get(), ops);
    const uint64_t total = ops ? read_at(off.get() + ops - 1) + read_at(len.get() + ops - 1) : 0;
    uint64_t& side = inserts ? inserted_ : deleted_;
    if (side + total > b_->capacity) throw std::runtime_error("stress: more keys than the conservation buffers hold");
    // Offsets are relative to the side's fill so far.
    gather_batches<<<static_cast<unsigned>(std::clamp<uint64_t>(ops, 1, 1 << 16)), 256>>>(
        inserts ? keys : out, len.get(), off.get(), ops, k, !inserts, (inserts ? b_->inserted.get() : b_->removed.get()) + side,
        b_->bad.get());
    check(cudaGetLastError(), "gather");
    check(cudaDeviceSynchronize(), "gather");
    side += total;
  }
}

template <class Key>
std::vector<std::string> DeviceConservation<Key>::finish(const gheap::HeapMemory<Key>& heap) {
  std::vector<std::string> failures;
  const uint64_t bad_k = read_at(b_->bad.get()), bad_sorted = read_at(b_->bad.get() + 1);
  if (bad_k) failures.push_back(std::to_string(bad_k) + " deletes returned more than k keys");
  if (bad_sorted) failures.push_back(std::to_string(bad_sorted) + " deletes returned an unsorted batch");
  const uint32_t lastelem = read_at(heap.lastelem), psize = read_at(heap.psize);
  const uint64_t rest = uint64_t(lastelem) * heap.k + std::min(psize, heap.k);
  uint64_t out = deleted_ + rest;
  if (out > b_->capacity) {
    failures.push_back("keys not conserved: " + std::to_string(inserted_) + " inserted, " + std::to_string(out) +
                       " deleted or left in the heap");
    return failures;
  }
  heap_keys<<<grid_for(rest), 256>>>(heap, lastelem, std::min(psize, heap.k), b_->removed.get() + deleted_);
  if (out != inserted_) {
    failures.push_back("keys not conserved: " + std::to_string(inserted_) + " inserted, " + std::to_string(out) +
                       " deleted or left in the heap");
    return failures;
  }
  DeviceBuffer<Key> a(out), b(out);
  size_t bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, bytes, b_->inserted.get(), a.get(), out);
  DeviceBuffer<uint8_t> temp(bytes);
  cub::DeviceRadixSort::SortKeys(temp.get(), bytes, b_->inserted.get(), a.get(), out);
  cub::DeviceRadixSort::SortKeys(temp.get(), bytes, b_->removed.get(), b.get(), out);
  DeviceBuffer<unsigned long long> at(1);
  at.fill_bytes(0xff);
  first_mismatch<<<grid_for(out), 256>>>(a.get(), b.get(), out, at.get());
  check(cudaGetLastError(), "compare");
  const unsigned long long i = read_at(at.get());
  if (i != ~0ull)
    failures.push_back("keys not conserved: after sorting both sides, position " + std::to_string(i) + " holds inserted key " +
                       std::to_string(read_at(a.get() + i)) + " but key out " + std::to_string(read_at(b.get() + i)));
  return failures;
}

template <class Key>
std::optional<std::string> check_device_heap_at_rest(const gheap::HeapMemory<Key>& heap) {
  const uint32_t lastelem = read_at(heap.lastelem), psize = read_at(heap.psize);
  DeviceBuffer<uint8_t> present(uint64_t(heap.capacity) + 1);
  present.fill_bytes(0);
  mark_present<<<grid_for(lastelem), 256>>>(lastelem, present.get());
  // The deepest present node bounds the snapshot, as on the host.
  uint32_t max_node = 0;
  if (lastelem) {  // every level above the last is full; the last level's nodes are the candidates
    const uint32_t level = gheap::floor_log2(lastelem);
    const uint32_t first = 1u << level;
    for (uint32_t n = first; n <= lastelem; ++n) max_node = std::max(max_node, gheap::node_of(n));
    if (level > 0) max_node = std::max(max_node, (1u << level) - 1);
  }
  DeviceBuffer<unsigned long long> bad(1);
  bad.fill_bytes(0xff);
  nodes_at_rest<<<static_cast<unsigned>(std::clamp<uint64_t>(heap.capacity, 1, 1 << 16)), 256>>>(heap, present.get(), max_node,
                                                                                            bad.get());
  partial_at_rest<<<1, 256>>>(heap, psize, lastelem > 0, bad.get());
  check(cudaGetLastError(), "at rest");
  const unsigned long long w = read_at(bad.get());
  if (w == ~0ull) return std::nullopt;
  const uint32_t kind = static_cast<uint32_t>(w & 15);
  if (kind == kPartial) return std::string("the partial buffer ") + at_rest_text(kind);
  return "node " + std::to_string(w >> 4) + " " + at_rest_text(kind);
}

template class DeviceConservation<uint32_t>;
template class DeviceConservation<uint64_t>;
template std::optional<std::string> check_device_heap_at_rest(const gheap::HeapMemory<uint32_t>&);
template std::optional<std::string> check_device_heap_at_rest(const gheap::HeapMemory<uint64_t>&);

}  // namespace gpulin::stress
