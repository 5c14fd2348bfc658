// The cuckoo hash baseline's kernels and host side (scheme: cuckoo_hash.cuh).
#include "bench/baselines/cuckoo_hash.cuh"

#include <cuda/atomic>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>

namespace gpulin::baselines {
namespace cuckoo {
namespace {

constexpr uint32_t kBlock = 256;

using DeviceRef64 = cuda::atomic_ref<uint64_t, cuda::thread_scope_device>;
using DeviceRef32 = cuda::atomic_ref<uint32_t, cuda::thread_scope_device>;
constexpr auto kRelaxed = cuda::std::memory_order_relaxed;

uint32_t blocks_for(size_t n) { return static_cast<uint32_t>((n + kBlock - 1) / kBlock); }

__device__ size_t thread_index() { return size_t{blockIdx.x} * blockDim.x + threadIdx.x; }

// Where an evicted `key` goes after `loc`: the location of the function after the
// first one that maps `key` to `loc`, h_0 after h_3 (CUDPP's rule: the functions
// are tried round-robin). The first match, because two functions may agree on a
// key and the slot does not say which one placed it.
__device__ uint32_t next_location(const HashFunctions& f, uint32_t key, uint32_t loc) {
  const uint32_t first = f.location(0, key);
  uint32_t at = first;
  for (uint32_t i = 1; i < kNumHashes; ++i) {
    const uint32_t next = f.location(i, key);
    if (at == loc) return next;
    at = next;
  }
  return first;
}

// One thread per pair. Every access to the table is a relaxed device-scope atomic:
// the exchanges need only atomicity (the kernel boundary orders the build before
// any search), never a fence.
__global__ void __launch_bounds__(kBlock)
    build_kernel(const uint32_t* keys, const uint32_t* vals, size_t n, HashFunctions f, uint32_t max_chain,
                 uint64_t* table, BuildFlags* flags) {
  const size_t i = thread_index();
  if (i >= n) return;
  const uint32_t key = keys[i];
  if (key == kEmptyKey) {  // it would read as an empty slot: refuse the build
    DeviceRef32(flags->invalid_key).store(1, kRelaxed);
    return;
  }
  uint64_t entry = make_entry(key, vals[i]);
  uint32_t loc = f.location(0, key);
  for (uint32_t step = 1;; ++step) {
    const uint64_t old = DeviceRef64(table[loc]).exchange(entry, kRelaxed);
    // Done when the slot was empty, and also when it held the key we just wrote:
    // that copy is dropped, so duplicates collapse instead of piling up at their
    // key's four slots (one value wins, see the header).
    if (entry_key(old) == kEmptyKey || entry_key(old) == entry_key(entry)) return;
    entry = old;
    if (step == max_chain) break;
    loc = next_location(f, entry_key(entry), loc);
  }
  // The chain ran out: one CAS into the pair's stash slot (CUDPP). Another key
  // there fails this attempt; the same key there is a duplicate, dropped.
  uint64_t seen = kEmptyEntry;
  DeviceRef64(table[f.size + f.stash_slot(entry_key(entry))]).compare_exchange_strong(seen, entry, kRelaxed);
  if (seen == kEmptyEntry) {
    DeviceRef32(flags->stash_count).fetch_add(1, kRelaxed);
  } else if (entry_key(seen) != entry_key(entry)) {
    DeviceRef32(flags->failed).store(1, kRelaxed);
  }
}

// One thread per query. The probes stop at the first EMPTY: a pair reaches the
// location of h_{i+1} only by being evicted from that of h_i (the first function
// mapping its key there), and a filled slot never empties again (an exchange
// always writes a pair), so every copy of a key in the table lies before the
// first EMPTY of the key's probe sequence. The stash has no such order (a chain
// can run out right after an eviction), so it is probed whenever the table did
// not answer - and only when the build used it.
__global__ void __launch_bounds__(kBlock)
    search_kernel(const uint32_t* queries, uint32_t* results, size_t n, const uint64_t* __restrict__ table,
                  HashFunctions f, bool stash_used) {
  const size_t i = thread_index();
  if (i >= n) return;
  const uint32_t q = queries[i];
  uint32_t result = kNotFound;
  if (q != kEmptyKey) {
    bool found = false, stop = false;
    for (uint32_t h = 0; h < kNumHashes && !stop; ++h) {
      const uint64_t e = table[f.location(h, q)];
      found = entry_key(e) == q;
      stop = found || entry_key(e) == kEmptyKey;
      if (found) result = entry_value(e);
    }
    if (!found && stash_used) {
      const uint64_t e = table[f.size + f.stash_slot(q)];
      if (entry_key(e) == q) result = entry_value(e);
    }
  }
  results[i] = result;
}

}  // namespace
}  // namespace cuckoo

const char* to_string(CuckooStatus s) {
  static constexpr const char* kNames[] = {"ok", "failed", "invalid key", "bad argument", "CUDA error", "not built"};
  const auto i = static_cast<size_t>(s);
  return i < std::size(kNames) ? kNames[i] : "?";
}

CuckooHashTable::CuckooHashTable(CuckooConfig config) : config_(config), rng_(config.seed) {}

CuckooHashTable::~CuckooHashTable() {  // a table that never built touches no device
  if (d_table_) cudaFree(d_table_);
  if (d_flags_) cudaFree(d_flags_);
  if (h_flags_) cudaFreeHost(h_flags_);
}

CuckooBuildResult CuckooHashTable::build(const uint32_t* d_keys, const uint32_t* d_vals, size_t n,
                                         cudaStream_t stream) {
  using namespace cuckoo;
  built_ = false;
  stash_used_ = false;
  CuckooBuildResult r;
  const double lf = config_.load_factor;
  const double slots = std::ceil(static_cast<double>(n) / lf);
  // A table larger than p would have slots no function reaches.
  if (!(lf > 0 && lf <= 1) || slots > static_cast<double>(kPrime) || (n > 0 && (!d_keys || !d_vals))) {
    r.status = CuckooStatus::BadArgument;
    return r;
  }
  const uint32_t size = std::max<uint32_t>(1, static_cast<uint32_t>(slots));
  r.table_size = size;
  // 7 lg n exchanges (Alcantara); the floor keeps tiny builds from stashing at once.
  r.max_chain = config_.max_chain
                    ? config_.max_chain
                    : std::max<uint32_t>(16, 7 * static_cast<uint32_t>(std::bit_width(std::max<size_t>(n, 1) - 1)));
  const auto fail = [&](cudaError_t e) {
    r.status = CuckooStatus::CudaError;
    r.cuda_error = e;
    return r;
  };
  const size_t entries = size_t{size} + kStashSize;
  if (capacity_ < entries) {
    cudaFree(d_table_);
    d_table_ = nullptr;
    capacity_ = 0;
    if (cudaError_t e = cudaMalloc(&d_table_, entries * sizeof(uint64_t)); e != cudaSuccess) return fail(e);
    capacity_ = entries;
  }
  if (!d_flags_) {
    if (cudaError_t e = cudaMalloc(&d_flags_, sizeof(BuildFlags)); e != cudaSuccess) return fail(e);
  }
  if (!h_flags_) {
    if (cudaError_t e = cudaMallocHost(&h_flags_, sizeof(BuildFlags)); e != cudaSuccess) return fail(e);
  }
  for (uint32_t attempt = 0; attempt <= config_.max_restarts; ++attempt) {
    functions_ = HashFunctions::draw(rng_, size);
    r.restarts = attempt;
    cudaError_t e = cudaMemsetAsync(d_table_, 0xFF, entries * sizeof(uint64_t), stream);  // all kEmptyEntry
    if (e == cudaSuccess) e = cudaMemsetAsync(d_flags_, 0, sizeof(BuildFlags), stream);
    if (e == cudaSuccess && n > 0) {
      build_kernel<<<blocks_for(n), kBlock, 0, stream>>>(d_keys, d_vals, n, functions_, r.max_chain, d_table_,
                                                         d_flags_);
      e = cudaGetLastError();
    }
    // The one synchronisation: whether to restart depends on the attempt's flags.
    if (e == cudaSuccess) e = cudaMemcpyAsync(h_flags_, d_flags_, sizeof(BuildFlags), cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) return fail(e);
    r.stash_count = h_flags_->stash_count;
    if (h_flags_->invalid_key) {
      r.status = CuckooStatus::InvalidKey;
      return r;
    }
    if (!h_flags_->failed) {
      built_ = true;
      stash_used_ = r.stash_count > 0;
      r.status = CuckooStatus::Ok;
      return r;
    }
  }
  r.status = CuckooStatus::Failed;
  return r;
}

CuckooStatus CuckooHashTable::search(const uint32_t* d_queries, uint32_t* d_results, size_t n,
                                     cudaStream_t stream) const {
  if (!built_) return CuckooStatus::NotBuilt;
  if (n == 0) return CuckooStatus::Ok;
  if (!d_queries || !d_results) return CuckooStatus::BadArgument;
  cuckoo::search_kernel<<<cuckoo::blocks_for(n), cuckoo::kBlock, 0, stream>>>(d_queries, d_results, n, d_table_,
                                                                              functions_, stash_used_);
  return cudaGetLastError() == cudaSuccess ? CuckooStatus::Ok : CuckooStatus::CudaError;
}

}  // namespace gpulin::baselines
