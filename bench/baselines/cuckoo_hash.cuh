// The static GPU hash table the slab hash is measured against (issue 10; slab hash
// paper §VI-A compares with CUDPP's cuckoo hash): cuckoo hashing on the GPU in the
// style of Alcantara et al., "Real-time parallel hashing on the GPU" (TOG 28(5),
// 2009) in the single-table form of CUDPP and Alcantara's thesis ("Efficient hash
// tables on the GPU", 2011):
//
//   - one table of 64-bit entries, key in the high word and value in the low word,
//     so that one atomic moves a whole pair; EMPTY = all ones;
//   - H = 4 hash functions h_i(k) = ((a_i k + b_i) mod p) mod size, p = 2^32 - 5,
//     a_i and b_i random (drawn again on every restart);
//   - bulk build: one thread per input pair; it atomicExch-es its entry into
//     h_0(k) and, while it gets an occupied entry back, carries the evicted pair to
//     that key's next location (h_{i+1} after h_i, h_0 after h_3) - an eviction
//     chain of at most max_chain exchanges (default 7 lg n, as Alcantara);
//   - a chain that runs out puts its pair into a stash of 101 slots (as CUDPP),
//     one CAS at a hashed slot; a slot holding another key fails the build, which is
//     restarted with new hash functions, at most max_restarts times (with the
//     default bound, builds of 2^16..2^18 pairs succeed up to load ~0.9 and fail
//     from ~0.95: a CPU model of this kernel; raise max_chain for higher loads);
//   - bulk search: one thread per query probes h_0 .. h_3 in order, stopping at the
//     key or at an EMPTY slot, then the stash when the table did not answer and
//     the build used the stash; it writes the value or EMPTY.
//
// Keys are 32-bit and must not be EMPTY (0xFFFFFFFF): a build that meets one
// reports InvalidKey. Values are any 32 bits, but a stored value 0xFFFFFFFF reads
// back as "absent". Duplicate keys in one build: one of the key's values wins -
// every search of that key returns that same value until the next build; which of
// the duplicates' values it is depends on the threads' timing. (A thread that
// evicts an entry with the key it just wrote drops the evicted copy, so copies do
// not pile up at a key's four locations; a few copies may remain, each in a slot
// the search reaches only after the winning one, costing space but never a wrong
// answer.)
//
// Plain C++ (no kernels here): include it from .cpp or .cu files and link
// gpulin_cuckoo_baseline. Memory and streams follow the CUDA runtime: device
// pointers, stream-ordered work, no synchronisation except the one the restart
// decision needs (see build()).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <random>

#include "common/host_device.h"

namespace gpulin::baselines {

// The pieces both the kernels and the host (tests) compute the same way.
namespace cuckoo {

inline constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;     // no key may be this
inline constexpr uint32_t kNotFound = 0xFFFFFFFFu;     // a search's "absent"
inline constexpr uint64_t kEmptyEntry = ~uint64_t{0};  // (kEmptyKey, kNotFound)
inline constexpr uint32_t kNumHashes = 4;
inline constexpr uint32_t kStashSize = 101;        // CUDPP's stash size
inline constexpr uint64_t kPrime = 4294967291ull;  // 2^32 - 5, the largest 32-bit prime

GPULIN_HD inline uint64_t make_entry(uint32_t key, uint32_t value) { return (uint64_t{key} << 32) | value; }
GPULIN_HD inline uint32_t entry_key(uint64_t e) { return static_cast<uint32_t>(e >> 32); }
GPULIN_HD inline uint32_t entry_value(uint64_t e) { return static_cast<uint32_t>(e); }

// x mod p for any 64-bit x without a 64-bit division (slow on the GPU): since
// 2^32 = 5 (mod p), x = hi 2^32 + lo = 5 hi + lo. Folding twice leaves less than
// 2^32 + 25 < 2p, so one conditional subtraction finishes.
GPULIN_HD inline uint32_t mod_prime(uint64_t x) {
  uint64_t t = (x >> 32) * 5 + (x & 0xFFFFFFFFull);  // < 6 * 2^32
  t = (t >> 32) * 5 + (t & 0xFFFFFFFFull);           // < 2^32 + 25
  return static_cast<uint32_t>(t >= kPrime ? t - kPrime : t);
}

// ((a k + b) mod p) mod range: the universal family Alcantara uses. With a, b < p
// and k < 2^32, a k + b < 2^64: no overflow.
struct HashFunction {
  uint32_t a = 1, b = 0;
  GPULIN_HD uint32_t operator()(uint32_t key, uint32_t range) const { return mod_prime(uint64_t{a} * key + b) % range; }
};

// One build's functions, passed to the kernels by value (they land in the
// constant bank).
struct HashFunctions {
  HashFunction h[kNumHashes];
  HashFunction stash;
  uint32_t size = 1;  // slots in the table proper; the stash follows them

  // Draws a_i in [1, p) and b_i in [0, p).
  static HashFunctions draw(std::mt19937_64& rng, uint32_t size) {
    std::uniform_int_distribution<uint64_t> a(1, kPrime - 1), b(0, kPrime - 1);
    HashFunctions f;
    for (HashFunction& g : f.h) g = {static_cast<uint32_t>(a(rng)), static_cast<uint32_t>(b(rng))};
    f.stash = {static_cast<uint32_t>(a(rng)), static_cast<uint32_t>(b(rng))};
    f.size = size;
    return f;
  }
  GPULIN_HD uint32_t location(uint32_t i, uint32_t key) const { return h[i](key, size); }
  GPULIN_HD uint32_t stash_slot(uint32_t key) const { return stash(key, kStashSize); }
};

// What a build attempt leaves for the host to read (one copy per attempt).
struct BuildFlags {
  uint32_t failed = 0;       // a pair found its stash slot taken by another key
  uint32_t invalid_key = 0;  // a key was kEmptyKey
  uint32_t stash_count = 0;  // pairs in the stash
};

}  // namespace cuckoo

enum class CuckooStatus {  // in to_string's order
  Ok,
  Failed,       // every attempt failed: max_restarts restarts and still a pair without a slot
  InvalidKey,   // a key equal to kEmptyKey; not retried
  BadArgument,  // load factor outside (0, 1], too many pairs, null pointers
  CudaError,    // see CuckooBuildResult::cuda_error
  NotBuilt,     // search before a successful build
};

const char* to_string(CuckooStatus s);

struct CuckooConfig {
  double load_factor = 0.8;    // n / table size; the table has ceil(n / load_factor) slots
  uint32_t max_restarts = 10;  // attempts after the first, each with new functions
  uint32_t max_chain = 0;      // exchanges per thread before the stash; 0: 7 ceil(lg n), at least 16
  uint64_t seed = 1;           // the functions' generator; later builds continue its sequence
};

struct CuckooBuildResult {
  CuckooStatus status = CuckooStatus::NotBuilt;
  uint32_t restarts = 0;     // attempts - 1 (max_restarts when it Failed)
  uint32_t stash_count = 0;  // pairs in the stash after the last attempt
  uint32_t table_size = 0;   // slots, stash not counted
  uint32_t max_chain = 0;    // the bound the attempts ran with
  cudaError_t cuda_error = cudaSuccess;
};

class CuckooHashTable {
 public:
  explicit CuckooHashTable(CuckooConfig config = {});
  ~CuckooHashTable();
  CuckooHashTable(const CuckooHashTable&) = delete;
  CuckooHashTable& operator=(const CuckooHashTable&) = delete;

  // Builds the table from n pairs (device pointers, ready in `stream`'s order),
  // replacing whatever it held. The table grows (cudaMalloc) when it must and is
  // never shrunk. Each attempt clears the table and runs the build kernel on
  // `stream`; then the host waits for `stream` (cudaStreamSynchronize) to read the
  // attempt's failure flags - the only synchronisation, which a restart decision
  // cannot do without. So build() returns with the table complete.
  CuckooBuildResult build(const uint32_t* d_keys, const uint32_t* d_vals, size_t n, cudaStream_t stream = 0);

  // One thread per query: d_results[i] = the value of d_queries[i], or kNotFound.
  // Stream-ordered, no synchronisation; returns launch errors as CudaError and
  // NotBuilt (launching nothing) unless the last build succeeded.
  CuckooStatus search(const uint32_t* d_queries, uint32_t* d_results, size_t n, cudaStream_t stream = 0) const;

  bool built() const { return built_; }
  uint32_t table_size() const { return functions_.size; }
  // Device memory the built table occupies, stash included (memory utilisation =
  // 8 n / bytes()).
  size_t bytes() const { return (size_t{functions_.size} + cuckoo::kStashSize) * sizeof(uint64_t); }
  const cuckoo::HashFunctions& functions() const { return functions_; }

 private:
  CuckooConfig config_;
  std::mt19937_64 rng_;
  cuckoo::HashFunctions functions_;
  uint64_t* d_table_ = nullptr;  // functions_.size slots, then the stash
  size_t capacity_ = 0;          // entries allocated
  cuckoo::BuildFlags* d_flags_ = nullptr;
  cuckoo::BuildFlags* h_flags_ = nullptr;  // pinned: the per-attempt read-back
  bool built_ = false;
  bool stash_used_ = false;
};

}  // namespace gpulin::baselines
