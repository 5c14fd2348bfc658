// gpulin_bench_slab: the slab hash (structures/slab_hash through structures/slab_hash/gpu/slab_hash_launch.h,
// map mode: REPLACE / DELETE / SEARCH, SlabAlloc-light as the paper's §VI) measured
// as in the paper's §VI (../shared/papers/slab-hash.txt; issue 10, section 5), with
// its baselines in the same run:
//
//   fig4   n = 2^22 keys, memory utilization swept 0.2 .. 0.9 (Fig. 4): buckets B
//          chosen so that the expected slab count gives the utilization
//          (n * 8 bytes / (slabs * 128), slabs = B base slabs + SlabAlloc units;
//          bucket sizes Poisson(n / B)); build rate (one bulk REPLACE batch of n
//          unique random keys into an empty table) and search rates (n queries that
//          all exist; n that none exist; a batch of searches takes them two at a
//          time a warp, as the original's bulk search). Beside it the cuckoo hash baseline
//          (bench/baselines/cuckoo_hash.cuh) built at the utilization the slab hash
//          reached, with the same keys; its build time includes its restarts.
//   fig5   utilization 0.6, n = 2^18 .. the largest power of two that fits the free
//          GPU memory (cudaMemGetInfo; at most 2^30, the key domain), the SlabAlloc
//          pool sized for n (at least the paper's 1 GiB); the same rates, cuckoo too.
//   fig6   incremental insertion (Fig. 6): batches of 32k, 64k, 128k new keys up to
//          2^21 in all; the slab hash inserts each batch into the table it has
//          (B chosen for 0.65 utilization at the end), the cuckoo hash rebuilds from
//          scratch with all keys so far after every batch (load factor 0.65).
//          Cumulative time of all batches; rate = 2^21 / that time.
//   fig7a  concurrent mixes (Fig. 7a) Γ0 = (0.5, 0.5, 0, 0), Γ1 = (0.2, 0.2, 0.3,
//          0.3), Γ2 = (0.1, 0.1, 0.4, 0.4) of (insert a new key, delete a live key,
//          search a live key, search an absent key), one random operation per thread
//          (SlabOpBatch::fn), against the initial utilization of a table of 2^22
//          keys; 4 batches of 2^20 operations per run, timed together. Γ2 at 0.55
//          also with batches of 2^18 (x16), 2^22 and 2^23 (x1): the issue's anchors.
//   record the cost of recording (issue 10: at most 15 %): Γ1 at u = 0.55, 2^22 keys,
//          4 batches of 2^20 a run, unrecorded, recorded by a published clock (16-byte
//          records, no lp), by warp rounds and by key clocks
//          (histories/key_clock_records.h, one 32-byte record an operation; a warp
//          round's tickets from one clock, no lp; or its inv, lp and ret from its
//          key's clock) and recorded by events (every event's ticket from the one
//          global counter), in the same run. A recorded launch covers its
//          batch with one thread per operation (no grid-stride loop): that is part
//          of the cost measured.
//   original the original slab hash (owensgroup/SlabHash, original_slab_hash.h) beside
//          ours in the same run, same keys (from [0, 2^30): its batches keep the
//          operation in a key's top two bits), same table size: Fig. 7a's three
//          mixes at u = 0.55 (2^22 keys built, 4 batches of 2^20 a run) and builds of
//          2^22 and 2^26 keys at u = 0.55, ours and the original's alternating, each
//          row twice; each mix also run by our paper multimap ("slab:G0/multimap"),
//          whose semantics are the original's (no lookup before an insert, a
//          deleted spot EMPTY). Only in a build that has it (scripts/fetch-originals.sh).
//   alloc  SlabAlloc: one million 128-byte units, one allocation per thread: each
//          warp serves its 32 threads' requests one after another with
//          slab_hash::allocate (CudaContext<WarpScope>), as the work queue does;
//          against CUDA's device malloc(128), one per thread (the heap limit raised).
//   floor  DRAM floor: each warp reads random 128-byte lines of a 1 GiB buffer
//          (lines/s); and random 32-bit atomicCAS, one per thread (CAS/s).
//
// Every measurement checks its result, untimed, after every timed run: a build must
// leave exactly n keys in the table (the key lanes of every slab counted) and no
// allocation failure; a search of keys that exist must return each key's value, one
// of absent keys must return EMPTY; a cuckoo build must succeed (status ok); each
// concurrent batch's searches must answer as the batch's plan says (the plan keeps
// searched keys out of the same batch's deletes), and after a run the table must
// hold the live keys exactly (counted, all found, every deleted one absent); every
// SlabAlloc / malloc result must be valid and distinct (and for SlabAlloc, the
// bitmaps' set bits equal the allocations). A failed check prints FAIL with what
// was wrong instead of a rate.
//
// Timing: cudaEvent around the timed work on the default stream, one warm-up run,
// then --runs timed runs; rows give the median (min, max). Untimed set-up per run
// (table reset, initial build) is outside the events. The L2 is not flushed: a
// table of 2^22 keys (about 60 MB) is mostly L2-resident, as in the anchors.
//
//   gpulin_bench_slab [--runs N] [--only fig4,fig5,fig6,fig7a,record,original,alloc,floor] [--csv FILE]
//                     [--quick] [--threads T] [--regular-alloc] [--max-log2n L]
//                     [--utilizations U,...] [--seed S] [--watchdog-s S]
//
// CSV columns: section,gpu,n,param,method,rate,unit,runs,median,min,max (median,
// min, max: milliseconds per timed run; rate from the median; a failed row has
// "FAIL: ..." in rate). Exit codes: 0 every check passed (or no CUDA device: a
// message, nothing measured), 1 a FAIL row, 2 usage, 3 watchdog.
#include <cuda_runtime.h>

#include "histories/device_recorder.h"
#include "histories/key_clock_recorder.h"

#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdarg>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/baselines/cuckoo_hash.cuh"
#include "bench/slab_hash/original_slab_hash.h"
#include "cuda/cuda_context.cuh"
#include "structures/slab_hash/gpu/slab_hash_launch.h"
#include "structures/slab_hash/gpu/device_slab_hash.h"
#include "structures/slab_hash/slab_alloc.h"

using namespace gpulin;
using slab_hash::DeviceSlabHash;
using slab_hash::SlabHashShape;
using Clock = std::chrono::steady_clock;

namespace {

// ------------------------------------------------------------------ anchors
// The issue's numbers for an H100 with the original implementation (n = 2^22,
// utilization 0.55, table about L2-sized) and its targets (G/s).
constexpr double kAnchorBuild = 10.4, kAnchorSearchHit = 16.6, kAnchorSearchMiss = 15.7, kAnchorBulkSearch = 18.8;
constexpr double kAnchorMix2Small = 8.1, kAnchorMix2SmallHigh = 9.4;  // Γ2, 2^18-operation batches
constexpr double kAnchorMix2Large = 11.7;                             // Γ2, 2^20 .. 2^23
constexpr double kTargetBuild26 = 5.0, kTargetSearch26 = 10.0, kTargetAlloc = 5.0;
constexpr double kFloorReads = 20.0, kFloorCas = 13.0;  // DRAM: random 128-byte reads, random CAS
constexpr double kAim = 1.5;                            // the issue's aim over the original

// ------------------------------------------------------------------ errors
struct CudaFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaFailure(std::string(what) + ": " + cudaGetErrorString(e));
}
// After a failure: true when the context is lost (a trap, an illegal address).
bool context_lost() {
  (void)cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

// ------------------------------------------------------------------ keys
// Key i is a bijection of i on a key domain [0, 2^31) (so distinct indices give
// distinct keys, never EMPTY or DELETED): indices below 2^30 are the keys a section
// inserts, indices from 2^30 on are never inserted (absent queries). The original
// slab hash keeps a batch's operation in a key's top two bits, so the section
// measuring it beside ours draws both sides' keys from [0, 2^30) instead (absent
// ones from index 2^29 on).
struct KeyDomain {
  uint32_t mask;
  uint64_t absent_base;
};
constexpr KeyDomain kKeys31{0x7FFFFFFFu, uint64_t{1} << 30}, kKeys30{0x3FFFFFFFu, uint64_t{1} << 29};
constexpr uint32_t kEmpty = slab_hash::kEmptyKey;  // a search's "absent" (cuckoo: kNotFound, the same word)
static_assert(baselines::cuckoo::kNotFound == slab_hash::kEmptyKey);

__host__ __device__ inline uint32_t key_of(uint64_t index, uint32_t seed, uint32_t kMask = kKeys31.mask) {
  uint32_t x = (static_cast<uint32_t>(index) + seed * 0x9E3779B9u) & kMask;
  x ^= x >> 16;
  x = (x * 0x2C1B3C6Du) & kMask;  // odd multiplier: a bijection mod 2^31 (and 2^30)
  x ^= x >> 13;
  x = (x * 0x297A2D39u) & kMask;
  x ^= x >> 16;
  return x;
}
// Never all ones (a stored 0xFFFFFFFF would read as absent).
__host__ __device__ inline uint32_t value_of(uint32_t key) { return ((key ^ 0x5BD1E995u) * 0x9E3779B1u) & 0x7FFFFFFFu; }

__host__ __device__ inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ inline uint64_t thread_id() { return uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; }
__device__ inline uint64_t thread_count() { return uint64_t{gridDim.x} * blockDim.x; }
constexpr uint32_t kGrid = 1024, kBlock = 256;

// keys[j] = key_of(first + j), vals[j] = value_of(keys[j]) (vals may be null).
__global__ void fill_keys_kernel(uint32_t* keys, uint32_t* vals, uint64_t first, uint64_t n, uint32_t seed,
                                 uint32_t mask = kKeys31.mask) {
  for (uint64_t j = thread_id(); j < n; j += thread_count()) {
    const uint32_t k = key_of(first + j, seed, mask);
    keys[j] = k;
    if (vals) vals[j] = value_of(k);
  }
}

// Counts queries whose answer is wrong: present ones must return value_of(key),
// absent ones EMPTY.
__global__ void count_search_wrong_kernel(const uint32_t* q, const uint32_t* out, uint64_t n, bool present,
                                          unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (uint64_t j = thread_id(); j < n; j += thread_count())
    mine += out[j] != (present ? value_of(q[j]) : kEmpty);
  if (mine) atomicAdd(wrong, mine);
}

// A concurrent batch: every search must answer its planned `expect`.
__global__ void count_expect_wrong_kernel(const uint32_t* fn, const uint32_t* out, const uint32_t* expect, uint64_t n,
                                          unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (uint64_t j = thread_id(); j < n; j += thread_count())
    mine += fn[j] == slab_hash::kFnSearch && out[j] != expect[j];
  if (mine) atomicAdd(wrong, mine);
}

// Live keys in map mode: key lanes (even lanes 0-28) neither EMPTY nor DELETED.
__device__ inline bool live_key_lane(uint32_t lane, uint32_t word) {
  return lane < 30 && (lane & 1u) == 0 && word != slab_hash::kEmptyKey && word != slab_hash::kDeletedKey;
}
__global__ void count_base_keys_kernel(const uint32_t* base, uint64_t words, unsigned long long* total) {
  unsigned long long mine = 0;
  for (uint64_t w = thread_id(); w < words; w += thread_count()) mine += live_key_lane(w & 31u, base[w]);
  if (mine) atomicAdd(total, mine);
}
// Every unit of the pool (free units are all EMPTY).
template <bool Light>
__global__ void count_pool_keys_kernel(slab_hash::SlabAllocView<Light> a, uint64_t units, unsigned long long* total) {
  unsigned long long mine = 0;
  for (uint64_t w = thread_id(); w < units * 32; w += thread_count()) {
    const uint32_t lane = w & 31u;
    if (lane >= 30 || (lane & 1u)) continue;
    const uint64_t u = w >> 5;
    const uint32_t addr =
        a.address_of(static_cast<uint32_t>(u / slab_hash::kUnitsPerBlock), static_cast<uint32_t>(u % slab_hash::kUnitsPerBlock));
    mine += live_key_lane(lane, a.unit(addr)[lane]);
  }
  if (mine) atomicAdd(total, mine);
}

// SlabAlloc, one allocation per thread: each warp serves its 32 threads in turn
// (warp-uniform calls, as in the slab hash's work queue); lane l keeps the l-th unit.
template <bool Light>
__global__ void __launch_bounds__(256) slaballoc_kernel(slab_hash::SlabAllocView<Light> a, uint32_t* out, uint64_t count) {
  using X = cuda_exec::CudaContext<cuda_exec::WarpScope, false>;
  X x{cuda_exec::WarpScope{}};
  const uint64_t tid = thread_id();
  const uint64_t first = tid & ~uint64_t{31};
  slab_hash::WarpAllocator<X> wa;
  wa.group = static_cast<uint32_t>(tid / 32);
  const uint32_t lane = threadIdx.x & 31u;
  const uint32_t mine = count > first ? static_cast<uint32_t>(std::min<uint64_t>(32, count - first)) : 0u;
  for (uint32_t l = 0; l < mine; ++l) {
    const uint32_t addr = slab_hash::allocate(x, a, wa);
    if (lane == l) out[first + l] = addr;
  }
}

__global__ void malloc_kernel(unsigned long long* out, uint64_t count, uint32_t bytes) {
  const uint64_t i = thread_id();
  if (i < count) out[i] = reinterpret_cast<unsigned long long>(malloc(bytes));
}
__global__ void free_kernel(const unsigned long long* p, uint64_t count) {
  const uint64_t i = thread_id();
  if (i < count && p[i]) free(reinterpret_cast<void*>(p[i]));
}

template <class T>
__global__ void count_value_kernel(const T* a, uint64_t n, T v, unsigned long long* total) {
  unsigned long long mine = 0;
  for (uint64_t j = thread_id(); j < n; j += thread_count()) mine += a[j] == v;
  if (mine) atomicAdd(total, mine);
}
template <class T>
__global__ void count_repeats_kernel(const T* sorted, uint64_t n, unsigned long long* total) {
  unsigned long long mine = 0;
  for (uint64_t j = thread_id() + 1; j < n; j += thread_count()) mine += sorted[j] == sorted[j - 1];
  if (mine) atomicAdd(total, mine);
}

// The floor's buffer: word w holds fill_word(w), so every read is checked.
__host__ __device__ inline uint32_t fill_word(uint64_t w) { return static_cast<uint32_t>(w) * 0x9E3779B1u + 0x7F4A7C15u; }
__global__ void floor_fill_kernel(uint32_t* buf, uint64_t words) {
  for (uint64_t w = thread_id(); w < words; w += thread_count()) buf[w] = fill_word(w);
}
// Each warp reads `per_warp` random 128-byte lines (one word per lane, coalesced),
// independent of each other so that several are in flight.
__global__ void floor_read_kernel(const uint32_t* __restrict__ buf, uint64_t line_mask, uint32_t per_warp,
                                  uint32_t seed, unsigned long long* wrong) {
  const uint64_t warp = thread_id() / 32;
  const uint32_t lane = threadIdx.x & 31u;
  uint32_t bad = 0;
#pragma unroll 8
  for (uint32_t i = 0; i < per_warp; ++i) {
    const uint64_t w = (mix64(warp * per_warp + i + (uint64_t{seed} << 40)) & line_mask) * 32 + lane;
    bad += __ldcg(buf + w) != fill_word(w);
  }
  if (bad) atomicAdd(wrong, static_cast<unsigned long long>(bad));
}
// Each thread: `per_thread` atomicCAS on random words, expecting the fill value and
// writing it back (a real read-modify-write that leaves the buffer as it was).
__global__ void floor_cas_kernel(uint32_t* buf, uint64_t word_mask, uint32_t per_thread, uint32_t seed,
                                 unsigned long long* failed) {
  const uint64_t t = thread_id();
  uint32_t bad = 0;
#pragma unroll 4
  for (uint32_t i = 0; i < per_thread; ++i) {
    const uint64_t w = mix64(t * per_thread + i + (uint64_t{seed} << 40)) & word_mask;
    const uint32_t expect = fill_word(w);
    bad += atomicCAS(buf + w, expect, expect) != expect;
  }
  if (bad) atomicAdd(failed, static_cast<unsigned long long>(bad));
}

// ------------------------------------------------------------------ device memory
template <class T>
struct DeviceArray {
  T* p = nullptr;
  uint64_t n = 0;
  DeviceArray() = default;
  explicit DeviceArray(uint64_t count) : n(count) { ck(cudaMalloc(&p, std::max<uint64_t>(count, 1) * sizeof(T)), "cudaMalloc"); }
  ~DeviceArray() {
    if (p) cudaFree(p);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  void upload(const std::vector<T>& v) { ck(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload"); }
};

// One counter on the device, read back synchronously.
struct Counter {
  DeviceArray<unsigned long long> c{1};
  unsigned long long* zero() {
    ck(cudaMemset(c.p, 0, sizeof(unsigned long long)), "counter");
    return c.p;
  }
  unsigned long long read() {
    ck(cudaGetLastError(), "check kernel");
    unsigned long long v = 0;
    ck(cudaMemcpy(&v, c.p, sizeof v, cudaMemcpyDeviceToHost), "counter read");
    return v;
  }
};

// Keys [0, n) with values, absent queries [2^30, 2^30 + n), an output array.
struct KeySet {
  uint64_t n;
  DeviceArray<uint32_t> keys, vals, absent, out;
  KeySet(uint64_t count, uint32_t seed, KeyDomain d = kKeys31)
      : n(count), keys(count), vals(count), absent(count), out(count) {
    fill_keys_kernel<<<kGrid, kBlock>>>(keys.p, vals.p, 0, n, seed, d.mask);
    fill_keys_kernel<<<kGrid, kBlock>>>(absent.p, nullptr, d.absent_base, n, seed, d.mask);
    ck(cudaDeviceSynchronize(), "key generation");
  }
  static size_t bytes_for(uint64_t count) { return count * 16; }
};

// ------------------------------------------------------------------ table sizing
// Slabs per bucket for a Poisson(λ) bucket: max(1, ceil(K / 15)) (15 pairs a slab).
double expected_slabs(double lambda) {
  const int kmax = static_cast<int>(lambda + 12 * std::sqrt(lambda) + 40);
  double e = 0;
  for (int k = 0; k <= kmax; ++k) {
    const double p = std::exp(-lambda + k * std::log(lambda) - std::lgamma(k + 1.0));
    e += p * std::max(1, (k + 14) / 15);
  }
  return e;
}
// Utilization n * 8 / (B * E[slabs] * 128) = λ / (16 E[slabs]) for λ = n / B.
double expected_utilization(double lambda) { return lambda / (16 * expected_slabs(lambda)); }

struct BucketPlan {
  uint32_t buckets = 1;
  double lambda = 0, expected_u = 0;
};
// B for a target utilization (at most 0.92: 15/16 is the limit as B -> 1).
BucketPlan buckets_for(uint64_t n, double u) {
  double lo = 1e-4, hi = 2000;
  for (int i = 0; i < 60; ++i) {
    const double mid = std::sqrt(lo * hi);
    (expected_utilization(mid) < u ? lo : hi) = mid;
  }
  BucketPlan p;
  p.buckets = static_cast<uint32_t>(std::clamp<double>(std::llround(double(n) / lo), 1.0, 4294967295.0));
  p.lambda = double(n) / p.buckets;
  p.expected_u = expected_utilization(p.lambda);
  return p;
}
// The paper's SlabAlloc (32 super blocks x 256 memory blocks x 1024 units: 1 GiB),
// grown (more memory blocks per super block) when twice the units `keys` keys are
// expected to need beyond the base slabs do not fit it.
SlabHashShape shape_for(uint32_t buckets, uint64_t keys, uint64_t seed) {
  SlabHashShape s = slab_hash::paper_shape(buckets);
  s.hash_seed = seed;
  const double extra = double(buckets) * (expected_slabs(double(keys) / buckets) - 1);
  const uint64_t need = static_cast<uint64_t>(2 * extra) + 64 * slab_hash::kUnitsPerBlock;
  const uint64_t per_block_row = uint64_t{s.supers} * slab_hash::kUnitsPerBlock;
  if (need > s.units())
    s.blocks_per_super = static_cast<uint32_t>(std::min<uint64_t>((need + per_block_row - 1) / per_block_row, 1u << 14));
  return s;
}
size_t table_bytes(const SlabHashShape& s) { return (s.base_words() + s.pool_words() + s.bitmap_words()) * 4; }

// ------------------------------------------------------------------ options, report
struct Options {
  int runs = 5;
  std::string only, csv;
  bool quick = false, regular_alloc = false;
  uint32_t threads = 128;
  int max_log2n = 30;
  uint32_t seed = 1;
  double watchdog_s = 600;
  std::vector<double> utilizations;  // fig4 / fig7a: instead of the sweep (a probe of one point)
};

std::string log2_str(uint64_t n) {
  if (n && (n & (n - 1)) == 0) return "2^" + std::to_string(std::countr_zero(n));
  return std::to_string(n);
}
std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char b[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(b, sizeof b, f, ap);
  va_end(ap);
  return b;
}
// Free text in a CSV cell: a comma, a double quote or a newline would break the
// row, so they become a semicolon, a single quote and a space (no quoting needed).
std::string cell(std::string s) {
  for (char& c : s) c = c == ',' ? ';' : c == '"' ? '\'' : c == '\n' ? ' ' : c;
  return s;
}

// Milliseconds of the timed runs, or why the measurement failed.
struct Stat {
  std::vector<double> ms;
  std::string fail;
  double median() const {
    if (ms.empty()) return NAN;
    std::vector<double> v = ms;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  }
  double min() const { return ms.empty() ? NAN : *std::min_element(ms.begin(), ms.end()); }
  double max() const { return ms.empty() ? NAN : *std::max_element(ms.begin(), ms.end()); }
};

struct Row {
  std::string section, param, method, unit, fail;
  uint64_t n = 0;
  int runs = 0;
  double rate = NAN, med = NAN, mn = NAN, mx = NAN;  // rate in M/s, times in ms
};

class Bench {
 public:
  Options o;
  std::string gpu;
  int sms = 1;
  std::vector<Row> rows;
  std::map<std::string, size_t> tagged;  // summary lookups
  int failures = 0;

  Bench(Options opts, std::string gpu_name, int sm_count) : o(std::move(opts)), gpu(std::move(gpu_name)), sms(sm_count) {
    ck(cudaEventCreate(&start_), "event");
    ck(cudaEventCreate(&stop_), "event");
    if (!o.csv.empty()) {
      csv_ = std::fopen(o.csv.c_str(), "w");
      if (!csv_) throw std::runtime_error("cannot write " + o.csv);
      std::fprintf(csv_, "section,gpu,n,param,method,rate,unit,runs,median,min,max\n");
    }
  }
  ~Bench() {
    if (csv_) std::fclose(csv_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  // One warm-up run, then o.runs timed ones (only one when the warm-up took longer
  // than kSlowRunMs): setup() (untimed), work() between events on the default
  // stream, check() (untimed: "" or what was wrong) after every run. Stops at the
  // first failed check.
  static constexpr double kSlowRunMs = 5000;
  Stat measure(const std::function<void()>& setup, const std::function<void()>& work,
               const std::function<std::string()>& check) {
    Stat s;
    int runs = o.runs;
    for (int r = -1; r < runs; ++r) {
      setup();
      ck(cudaEventRecord(start_, 0), "event");
      work();
      ck(cudaEventRecord(stop_, 0), "event");
      ck(cudaEventSynchronize(stop_), "timed work");
      ck(cudaGetLastError(), "timed work");
      float ms = 0;
      ck(cudaEventElapsedTime(&ms, start_, stop_), "event");
      if (r >= 0) s.ms.push_back(ms);
      if (r < 0 && ms > kSlowRunMs) runs = 1;  // a slow measurement (device malloc): one timed run
      s.fail = check();
      if (!s.fail.empty()) break;
    }
    return s;
  }

  // A row of `count` items per run (rate = count / median time, M/s).
  void add(const std::string& section, uint64_t n, const std::string& param, const std::string& method,
           const std::string& unit, const Stat& s, double count, const std::string& tag = "") {
    Row r;
    r.section = section;
    r.n = n;
    r.param = param;
    r.method = method;
    r.unit = unit;
    r.runs = static_cast<int>(s.ms.size());
    r.fail = s.fail;
    r.med = s.median();
    r.mn = s.min();
    r.mx = s.max();
    if (r.fail.empty()) r.rate = count / (r.med * 1e-3) / 1e6;
    push(r, tag);
  }
  void add_fail(const std::string& section, uint64_t n, const std::string& param, const std::string& method,
                const std::string& unit, const std::string& why) {
    Stat s;
    s.fail = why;
    add(section, n, param, method, unit, s, 0);
  }
  const Row* find(const std::string& tag) const {
    auto it = tagged.find(tag);
    return it == tagged.end() ? nullptr : &rows[it->second];
  }

  // Slab hash batches on the default stream, no synchronisation.
  void slab_bulk(const DeviceSlabHash& t, uint32_t fn, const uint32_t* keys, const uint32_t* vals, uint32_t* out,
                 uint64_t n) const {
    slab_hash::SlabOpBatch b;
    b.uniform_fn = fn;
    b.key = keys;
    b.value = vals;
    b.out = out;
    b.count = n;
    ck(slab_hash::launch_slab_batch(slab_hash::Mode::Map, t, b, o.threads, 0), "launch_slab_batch");
  }

  // Live keys in the table (synchronous).
  uint64_t live_keys(const DeviceSlabHash& t) {
    unsigned long long* c = counter_.zero();
    count_base_keys_kernel<<<kGrid, kBlock>>>(t.view<slab_hash::SlabPolicy<slab_hash::Mode::Map>>().base_slabs,
                                              t.shape().base_words(), c);
    if (t.light())
      count_pool_keys_kernel<true><<<kGrid, kBlock>>>(t.view<slab_hash::SlabPolicy<slab_hash::Mode::Map, true>>().alloc,
                                                      t.shape().units(), c);
    else
      count_pool_keys_kernel<false><<<kGrid, kBlock>>>(
          t.view<slab_hash::SlabPolicy<slab_hash::Mode::Map, false>>().alloc, t.shape().units(), c);
    return counter_.read();
  }
  // "" when the table holds exactly `expect` keys and no allocation failed.
  std::string check_table(const DeviceSlabHash& t, uint64_t expect) {
    if (const uint32_t f = t.failures()) return fmt("%u allocation failures", f);
    const uint64_t live = live_keys(t);
    if (live != expect) return fmt("table holds %llu keys, expected %llu", (unsigned long long)live, (unsigned long long)expect);
    return "";
  }
  // "" when every answer is right (present: value_of(key); absent: EMPTY).
  std::string check_search(const uint32_t* q, const uint32_t* out, uint64_t n, bool present) {
    count_search_wrong_kernel<<<kGrid, kBlock>>>(q, out, n, present, counter_.zero());
    const unsigned long long w = counter_.read();
    if (!w) return "";
    return fmt("%llu of %llu %s queries answered wrong", w, (unsigned long long)n, present ? "existing" : "absent");
  }
  unsigned long long count_expect_wrong(const uint32_t* fn, const uint32_t* out, const uint32_t* expect, uint64_t n) {
    count_expect_wrong_kernel<<<kGrid, kBlock>>>(fn, out, expect, n, counter_.zero());
    return counter_.read();
  }
  Counter& counter() { return counter_; }

 private:
  void push(Row& r, const std::string& tag) {
    if (!r.fail.empty()) ++failures;
    rows.push_back(r);
    if (!tag.empty()) tagged[tag] = rows.size() - 1;
    if (r.fail.empty())
      std::printf("  %-20s %12.1f %-17s median %9.3f ms [%.3f, %.3f], %d runs   %s\n", r.method.c_str(), r.rate,
                  r.unit.c_str(), r.med, r.mn, r.mx, r.runs, r.param.c_str());
    else
      std::printf("  %-20s FAIL: %s   %s\n", r.method.c_str(), r.fail.c_str(), r.param.c_str());
    std::fflush(stdout);
    if (csv_) {
      const std::string rate = r.fail.empty() ? fmt("%.3f", r.rate) : "FAIL: " + r.fail;
      auto num = [](double x) { return std::isnan(x) ? std::string() : fmt("%.6f", x); };
      std::fprintf(csv_, "%s,%s,%llu,%s,%s,%s,%s,%d,%s,%s,%s\n", cell(r.section).c_str(), cell(gpu).c_str(),
                   (unsigned long long)r.n, cell(r.param).c_str(), cell(r.method).c_str(), cell(rate).c_str(),
                   cell(r.unit).c_str(), r.runs, num(r.med).c_str(), num(r.mn).c_str(), num(r.mx).c_str());
      std::fflush(csv_);
    }
  }
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  Counter counter_;
  std::FILE* csv_ = nullptr;
};

const char* kElems = "M elements/s";
const char* kQueries = "M queries/s";

// ------------------------------------------------------------------ fig4 / fig5
// Build, search (all exist), search (none exist) at utilization u for the slab hash,
// then the cuckoo hash at the utilization the slab hash reached. Tags
// "<section>|<n>|<u>|<method>" for the summary.
void static_point(Bench& b, const std::string& section, const KeySet& ks, uint64_t n, double u) {
  const BucketPlan bp = buckets_for(n, u);
  const SlabHashShape shape = shape_for(bp.buckets, n, b.o.seed);
  const std::string tag = section + "|" + log2_str(n) + "|" + fmt("%.2f", u) + "|";
  double achieved = u;
  std::printf("%s n=%s u=%.2f: B=%u (%.2f keys/bucket, average slab count %.2f), pool %.2f GiB%s\n", section.c_str(),
              log2_str(n).c_str(), u, bp.buckets, bp.lambda, bp.lambda / 15, shape.pool_words() * 4.0 / (1 << 30),
              b.o.regular_alloc ? " (regular SlabAlloc)" : " (SlabAlloc-light)");
  {
    DeviceSlabHash t(shape, !b.o.regular_alloc);
    const Stat build = b.measure([&] { t.reset(); }, [&] { b.slab_bulk(t, slab_hash::kFnInsert, ks.keys.p, ks.vals.p, nullptr, n); },
                                 [&] { return b.check_table(t, n); });
    if (build.fail.empty()) achieved = n * 8.0 / ((bp.buckets + double(t.allocated_units())) * 128.0);
    const std::string param = fmt("u=%.2f;achieved=%.3f;B=%u;beta=%.2f", u, achieved, bp.buckets, bp.lambda / 15);
    b.add(section, n, param, "slab:build", kElems, build, double(n), tag + "slab:build");
    if (!build.fail.empty()) {
      for (const char* m : {"slab:search-hit", "slab:search-miss"})
        b.add_fail(section, n, param, m, kQueries, "not run: the build failed");
    } else {
      // The last build run left the table full: its searches check it.
      const Stat hit = b.measure([] {}, [&] { b.slab_bulk(t, slab_hash::kFnSearch, ks.keys.p, nullptr, ks.out.p, n); },
                                 [&] { return b.check_search(ks.keys.p, ks.out.p, n, true); });
      b.add(section, n, param, "slab:search-hit", kQueries, hit, double(n), tag + "slab:search-hit");
      const Stat miss = b.measure([] {}, [&] { b.slab_bulk(t, slab_hash::kFnSearch, ks.absent.p, nullptr, ks.out.p, n); },
                                  [&] { return b.check_search(ks.absent.p, ks.out.p, n, false); });
      b.add(section, n, param, "slab:search-miss", kQueries, miss, double(n), tag + "slab:search-miss");
    }
  }
  // The cuckoo hash at the same utilization (its memory: 8 n / load factor bytes).
  baselines::CuckooConfig cfg;
  cfg.load_factor = std::min(achieved, 0.99);
  cfg.seed = b.o.seed;
  baselines::CuckooHashTable c(cfg);
  std::vector<baselines::CuckooBuildResult> results;
  const Stat build = b.measure([] {}, [&] { results.push_back(c.build(ks.keys.p, ks.vals.p, n)); },
                               [&]() -> std::string {
                                 const auto& r = results.back();
                                 if (r.status == baselines::CuckooStatus::Ok) return "";
                                 return fmt("cuckoo build %s after %u restarts%s%s", baselines::to_string(r.status), r.restarts,
                                            r.status == baselines::CuckooStatus::CudaError ? ": " : "",
                                            r.status == baselines::CuckooStatus::CudaError ? cudaGetErrorString(r.cuda_error) : "");
                               });
  uint32_t max_restarts = 0, total_restarts = 0;
  for (size_t i = 1; i < results.size(); ++i) {  // the timed runs (0 is the warm-up)
    max_restarts = std::max(max_restarts, results[i].restarts);
    total_restarts += results[i].restarts;
  }
  const std::string cparam = fmt("lf=%.3f;restarts max %u total %u;stash %u", cfg.load_factor, max_restarts, total_restarts,
                                 results.empty() ? 0u : results.back().stash_count);
  b.add(section, n, cparam, "cuckoo:build", kElems, build, double(n), tag + "cuckoo:build");
  if (!build.fail.empty()) {
    b.add_fail(section, n, cparam, "cuckoo:search-hit", kQueries, "not run: the build failed");
    b.add_fail(section, n, cparam, "cuckoo:search-miss", kQueries, "not run: the build failed");
    return;
  }
  auto search = [&](const uint32_t* q) {
    if (c.search(q, ks.out.p, n) != baselines::CuckooStatus::Ok) throw CudaFailure("cuckoo search launch");
  };
  const Stat hit = b.measure([] {}, [&] { search(ks.keys.p); }, [&] { return b.check_search(ks.keys.p, ks.out.p, n, true); });
  b.add(section, n, cparam, "cuckoo:search-hit", kQueries, hit, double(n), tag + "cuckoo:search-hit");
  const Stat miss =
      b.measure([] {}, [&] { search(ks.absent.p); }, [&] { return b.check_search(ks.absent.p, ks.out.p, n, false); });
  b.add(section, n, cparam, "cuckoo:search-miss", kQueries, miss, double(n), tag + "cuckoo:search-miss");
}

const std::vector<double> kUtilizations = {0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9};

// The utilizations a section sweeps: --utilizations when given, else its own list.
std::vector<double> sweep(const Options& o, std::vector<double> own) { return o.utilizations.empty() ? own : o.utilizations; }

void run_fig4(Bench& b) {
  const uint64_t n = b.o.quick ? uint64_t{1} << 18 : uint64_t{1} << 22;
  const std::vector<double> us = sweep(b.o, b.o.quick ? std::vector<double>{0.3, 0.55, 0.8} : kUtilizations);
  std::printf("\n== fig4: build and search rates against memory utilization, n = %s (paper Fig. 4)\n", log2_str(n).c_str());
  KeySet ks(n, b.o.seed);
  for (double u : us) static_point(b, "fig4", ks, n, u);
}

void run_fig5(Bench& b) {
  constexpr double u = 0.6;
  const int cap = std::min(b.o.quick ? 18 : 30, b.o.max_log2n);
  const int first = std::min(b.o.quick ? 16 : 18, cap);
  int last = cap;
  size_t free_b = 0, total_b = 0;
  ck(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  // The keys (16 bytes a key) and one table at a time: the slab hash's or the
  // cuckoo hash's (8 n / u), with 10 % of the free memory and 256 MiB to spare.
  auto need = [&](uint64_t n) {
    const SlabHashShape s = shape_for(buckets_for(n, u).buckets, n, b.o.seed);
    return KeySet::bytes_for(n) + std::max<size_t>(table_bytes(s), size_t(8 * n / u) + 4096) + (size_t(256) << 20);
  };
  while (last > first && double(need(uint64_t{1} << last)) > 0.9 * free_b) --last;
  std::printf("\n== fig5: rates against n at utilization %.1f (paper Fig. 5): n = 2^%d .. 2^%d; %.1f GiB free of %.1f, "
              "2^%d needs %.1f GiB%s\n",
              u, first, last, free_b / 1073741824.0, total_b / 1073741824.0, last, need(uint64_t{1} << last) / 1073741824.0,
              last < cap                ? " (the largest that fits)"
              : cap == b.o.max_log2n && cap < 30 ? " (--max-log2n)"
              : b.o.quick                 ? " (--quick)"
                                          : " (2^30: the key domain's limit)");
  KeySet ks(uint64_t{1} << last, b.o.seed);  // every smaller n uses a prefix
  for (int l = first; l <= last; ++l) static_point(b, "fig5", ks, uint64_t{1} << l, u);
}

// ------------------------------------------------------------------ fig6
void run_fig6(Bench& b) {
  const uint64_t total = b.o.quick ? uint64_t{1} << 18 : uint64_t{1} << 21;
  constexpr double u = 0.65;
  std::printf("\n== fig6: incremental insertion up to %s keys, final utilization %.2f (paper Fig. 6): slab hash inserts each "
              "batch, cuckoo rebuilds from scratch\n",
              log2_str(total).c_str(), u);
  KeySet ks(total, b.o.seed);
  const BucketPlan bp = buckets_for(total, u);
  DeviceSlabHash t(shape_for(bp.buckets, total, b.o.seed), !b.o.regular_alloc);
  baselines::CuckooConfig cfg;
  cfg.load_factor = u;
  cfg.seed = b.o.seed;
  baselines::CuckooHashTable c(cfg);
  for (uint64_t batch : {uint64_t{32768}, uint64_t{65536}, uint64_t{131072}}) {
    const uint64_t batches = total / batch;
    const Stat slab = b.measure(
        [&] { t.reset(); },
        [&] {
          for (uint64_t j = 0; j < batches; ++j)
            b.slab_bulk(t, slab_hash::kFnInsert, ks.keys.p + j * batch, ks.vals.p + j * batch, nullptr, batch);
        },
        [&]() -> std::string {
          if (std::string f = b.check_table(t, total); !f.empty()) return f;
          b.slab_bulk(t, slab_hash::kFnSearch, ks.keys.p, nullptr, ks.out.p, total);
          return b.check_search(ks.keys.p, ks.out.p, total, true);
        });
    const double achieved = total * 8.0 / ((bp.buckets + double(t.allocated_units())) * 128.0);
    b.add("fig6", total, fmt("batch=%llu;batches=%llu;u=%.2f;achieved=%.3f;B=%u", (unsigned long long)batch,
                             (unsigned long long)batches, u, achieved, bp.buckets),
          "slab:incremental", kElems, slab, double(total));
    uint32_t restarts = 0;
    std::string bad;
    const Stat cuckoo = b.measure(
        [&] {
          restarts = 0;
          bad.clear();
        },
        [&] {
          for (uint64_t j = 0; j < batches; ++j) {
            const auto r = c.build(ks.keys.p, ks.vals.p, (j + 1) * batch);
            restarts += r.restarts;
            if (r.status != baselines::CuckooStatus::Ok && bad.empty())
              bad = fmt("cuckoo build of %llu keys: %s", (unsigned long long)((j + 1) * batch), baselines::to_string(r.status));
          }
        },
        [&]() -> std::string {
          if (!bad.empty()) return bad;
          if (c.search(ks.keys.p, ks.out.p, total) != baselines::CuckooStatus::Ok) return "cuckoo search launch failed";
          return b.check_search(ks.keys.p, ks.out.p, total, true);
        });
    b.add("fig6", total, fmt("batch=%llu;batches=%llu;lf=%.2f;restarts(last run)=%u", (unsigned long long)batch,
                             (unsigned long long)batches, u, restarts),
          "cuckoo:rebuild", kElems, cuckoo, double(total));
    if (slab.fail.empty() && cuckoo.fail.empty())
      std::printf("  batch %llu: slab hash %.2fx faster than rebuilding (cumulative %.3f ms vs %.3f ms)\n",
                  (unsigned long long)batch, cuckoo.median() / slab.median(), slab.median(), cuckoo.median());
  }
}

// ------------------------------------------------------------------ fig7a
struct Mix {
  const char* name;
  double ins, del, hit, miss;
};
constexpr Mix kMixes[] = {{"G0", 0.5, 0.5, 0, 0}, {"G1", 0.2, 0.2, 0.3, 0.3}, {"G2", 0.1, 0.1, 0.4, 0.4}};

// A concurrent workload: `batches` batches of `batch` operations on a table that
// starts with keys [0, n0). Inserts take fresh indices (hi, hi+1, ...), deletes the
// oldest live ones (lo, lo+1, ...), hits a random live key that no delete of the
// same batch touches, misses a random index from 2^30 on. At the end the live
// keys are [lo, hi).
struct ConcurrentPlan {
  KeyDomain domain = kKeys31;
  uint64_t n0 = 0, batch = 0, batches = 0, lo = 0, hi = 0;
  uint64_t counts[4] = {0, 0, 0, 0};
  std::vector<uint32_t> fn, key, value, expect;
};
ConcurrentPlan plan_concurrent(const Mix& m, uint64_t n0, uint64_t batch, uint64_t batches, uint32_t seed,
                               KeyDomain domain = kKeys31) {
  ConcurrentPlan p;
  p.domain = domain;
  p.n0 = n0;
  p.batch = batch;
  p.batches = batches;
  p.lo = 0;
  p.hi = n0;
  const uint64_t ops = batch * batches;
  p.fn.resize(ops);
  p.key.resize(ops);
  p.value.resize(ops);
  p.expect.resize(ops);
  uint64_t rng = mix64(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(m.ins * 1000) * 7919 + batch);
  auto next = [&rng] { return mix64(rng += 0x9E3779B97F4A7C15ull); };
  const double c1 = m.ins, c2 = m.ins + m.del, c3 = m.ins + m.del + m.hit;
  std::vector<uint8_t> cat(batch);
  for (uint64_t bi = 0; bi < batches; ++bi) {
    uint64_t dels = 0;
    for (uint64_t i = 0; i < batch; ++i) {
      const double r = (next() >> 11) * 0x1.0p-53;
      cat[i] = r < c1 ? 0 : r < c2 ? 1 : r < c3 ? 2 : 3;
      dels += cat[i] == 1;
    }
    const uint64_t hit_lo = p.lo + dels, hit_hi = p.hi;  // live through the whole batch
    if (hit_lo >= hit_hi) throw std::runtime_error("concurrent plan: the deletes would empty the table");
    uint64_t hi = p.hi;
    for (uint64_t i = 0; i < batch; ++i) {
      const uint64_t j = bi * batch + i;
      uint64_t index = 0;
      switch (cat[i]) {
        case 0: index = hi++; break;
        case 1: index = p.lo++; break;
        case 2: index = hit_lo + next() % (hit_hi - hit_lo); break;
        default: index = domain.absent_base + next() % domain.absent_base; break;
      }
      const uint32_t k = key_of(index, seed, domain.mask);
      p.fn[j] = cat[i] == 0 ? slab_hash::kFnInsert : cat[i] == 1 ? slab_hash::kFnDelete : slab_hash::kFnSearch;
      p.key[j] = k;
      p.value[j] = value_of(k);
      p.expect[j] = cat[i] == 2 ? value_of(k) : kEmpty;
      ++p.counts[cat[i]];
    }
    p.hi = hi;
    if (p.hi >= domain.absent_base) throw std::runtime_error("concurrent plan: too many inserts for the key domain");
  }
  return p;
}

// How a concurrent run records (the record section): not at all, by a published
// clock, by warp rounds, by key clocks, by events.
enum class Recording { kNone, kPublished, kWarpRounds, kKeyClocks, kEvents };

// Runs one plan against initial utilization u; tag "<section>|<mix>|<u>|<batch>"
// (the record section's: "record|<mix>|<u>|<batch>|<label>"). `mode`: how the
// unrecorded batches run (the table is built as a map either way: its keys are
// distinct, so a multimap holds the same pairs). The plan's inserts are of new keys
// and its deletes of live ones, so a map and the paper's multimap (an insert that
// does not look for its key, a delete that empties its spot) answer it alike.
void concurrent_point(Bench& b, const Mix& m, const ConcurrentPlan& p, double u, const KeySet& initial, const char* label,
                      Recording recording = Recording::kNone, const char* section = "fig7a",
                      slab_hash::Mode mode = slab_hash::Mode::Map) {
  if (recording != Recording::kNone && mode != slab_hash::Mode::Map)
    throw std::logic_error("concurrent_point: recorded runs are of the map");
  const uint64_t ops = p.batch * p.batches;
  DeviceArray<uint32_t> fn(ops), key(ops), value(ops), expect(ops), out(ops);
  fn.upload(p.fn);
  key.upload(p.key);
  value.upload(p.value);
  expect.upload(p.expect);
  const uint64_t live = p.hi - p.lo;
  DeviceArray<uint32_t> check_keys(std::max(live, p.lo)), check_out(std::max(live, p.lo));
  const BucketPlan bp = buckets_for(p.n0, u);
  DeviceSlabHash t(shape_for(bp.buckets, p.hi, b.o.seed), !b.o.regular_alloc);
  double u0 = NAN, u_end = NAN;
  // The recorders live through every run: key clocks keep counting (tickets stay
  // far below 2^30) and each run rewrites ops 0 .. ops - 1; the event recorder is
  // cleared before each run.
  std::unique_ptr<KeyClockRecorder> clocks;
  std::unique_ptr<DeviceRecorder> events;
  if (recording == Recording::kKeyClocks) clocks = std::make_unique<KeyClockRecorder>(ops);
  if (recording == Recording::kWarpRounds) clocks = std::make_unique<KeyClockRecorder>(KeyClockRecorder::warp_rounds(ops));
  if (recording == Recording::kPublished) clocks = std::make_unique<KeyClockRecorder>(KeyClockRecorder::published(ops));
  if (recording == Recording::kEvents)
    events = std::make_unique<DeviceRecorder>(static_cast<uint32_t>(p.batch / 32), static_cast<uint32_t>(p.batches * 96 + 64),
                                              static_cast<uint32_t>(p.batches * 96 + 64));
  auto setup = [&] {
    t.reset();
    if (events) events->clear();
    b.slab_bulk(t, slab_hash::kFnInsert, initial.keys.p, initial.vals.p, nullptr, p.n0);
    ck(cudaDeviceSynchronize(), "initial build");
    if (std::isnan(u0)) u0 = p.n0 * 8.0 / ((bp.buckets + double(t.allocated_units())) * 128.0);
  };
  auto work = [&] {
    for (uint64_t bi = 0; bi < p.batches; ++bi) {
      slab_hash::SlabOpBatch batch;
      batch.fn = fn.p + bi * p.batch;
      batch.key = key.p + bi * p.batch;
      batch.value = value.p + bi * p.batch;
      batch.out = out.p + bi * p.batch;
      batch.count = p.batch;
      const int64_t first = static_cast<int64_t>(bi * p.batch);
      if (clocks)
        ck(slab_hash::launch_slab_batch(slab_hash::Mode::Map, t, batch, b.o.threads, 0, clocks->next_launch(), first),
           "launch_slab_batch (key clocks, warp rounds or a published clock)");
      else if (events) {
        const DeviceRecorderRef ref = events->ref();
        ck(slab_hash::launch_slab_batch(slab_hash::Mode::Map, t, batch, b.o.threads, 0, &ref, first),
           "launch_slab_batch (events)");
      } else {
        ck(slab_hash::launch_slab_batch(mode, t, batch, b.o.threads, 0), "launch_slab_batch");
      }
    }
  };
  auto check = [&]() -> std::string {
    if (const unsigned long long w = b.count_expect_wrong(fn.p, out.p, expect.p, ops))
      return fmt("%llu searches answered wrong", w);
    if (std::string f = b.check_table(t, live); !f.empty()) return f;
    u_end = live * 8.0 / ((bp.buckets + double(t.allocated_units())) * 128.0);
    fill_keys_kernel<<<kGrid, kBlock>>>(check_keys.p, nullptr, p.lo, live, b.o.seed, p.domain.mask);  // the live keys
    b.slab_bulk(t, slab_hash::kFnSearch, check_keys.p, nullptr, check_out.p, live);
    if (std::string f = b.check_search(check_keys.p, check_out.p, live, true); !f.empty()) return "after the run: " + f;
    fill_keys_kernel<<<kGrid, kBlock>>>(check_keys.p, nullptr, 0, p.lo, b.o.seed, p.domain.mask);  // the deleted ones
    b.slab_bulk(t, slab_hash::kFnSearch, check_keys.p, nullptr, check_out.p, p.lo);
    if (std::string f = b.check_search(check_keys.p, check_out.p, p.lo, false); !f.empty())
      return "after the run, deleted keys: " + f;
    return "";
  };
  const Stat s = b.measure(setup, work, check);
  const std::string param = fmt("mix=%s(%.1f,%.1f,%.1f,%.1f);u0=%.2f;achieved=%.3f;end=%.3f;B=%u;batch=%s;batches=%llu",
                                m.name, m.ins, m.del, m.hit, m.miss, u, u0, u_end, bp.buckets, log2_str(p.batch).c_str(),
                                (unsigned long long)p.batches);
  const std::string tag = fmt("%s|%s|%.2f|%s", section, m.name, u, log2_str(p.batch).c_str());
  b.add(section, p.n0, param, std::string("slab:") + label, "M ops/s", s, double(ops),
        recording == Recording::kNone && std::string(section) == "fig7a" ? tag : tag + "|" + label);
}

void run_fig7a(Bench& b) {
  const uint64_t n0 = b.o.quick ? uint64_t{1} << 18 : uint64_t{1} << 22;
  const uint64_t batch = b.o.quick ? uint64_t{1} << 16 : uint64_t{1} << 20;
  const uint64_t batches = b.o.quick ? 2 : 4;
  const std::vector<double> us = sweep(b.o, b.o.quick ? std::vector<double>{0.55} : kUtilizations);
  std::printf("\n== fig7a: concurrent mixes against initial utilization (paper Fig. 7a): %s keys to start, %llu batches of "
              "%s random operations a run\n",
              log2_str(n0).c_str(), (unsigned long long)batches, log2_str(batch).c_str());
  KeySet initial(n0, b.o.seed);
  for (const Mix& m : kMixes) {
    const ConcurrentPlan p = plan_concurrent(m, n0, batch, batches, b.o.seed);
    std::printf("fig7a %s: %llu inserts, %llu deletes, %llu hits, %llu misses a run\n", m.name,
                (unsigned long long)p.counts[0], (unsigned long long)p.counts[1], (unsigned long long)p.counts[2],
                (unsigned long long)p.counts[3]);
    for (double u : us) concurrent_point(b, m, p, u, initial, m.name);
  }
  if (b.o.quick) return;
  // The anchors' batch sizes, Γ2 at 0.55 (2^20 is in the sweep above).
  std::printf("fig7a G2 at u=0.55 against the batch size (the issue's anchors)\n");
  for (auto [lg, count] : {std::pair<int, uint64_t>{18, 16}, {22, 1}, {23, 1}}) {
    const ConcurrentPlan p = plan_concurrent(kMixes[2], n0, uint64_t{1} << lg, count, b.o.seed);
    concurrent_point(b, kMixes[2], p, 0.55, initial, "G2");
  }
}

// ------------------------------------------------------------------ record
void run_record(Bench& b) {
  const uint64_t n0 = b.o.quick ? uint64_t{1} << 18 : uint64_t{1} << 22;
  const uint64_t batch = b.o.quick ? uint64_t{1} << 16 : uint64_t{1} << 20;
  std::printf("\n== record: the cost of recording, G1 at u=0.55, %s keys to start, 4 batches of %s a run\n",
              log2_str(n0).c_str(), log2_str(batch).c_str());
  KeySet initial(n0, b.o.seed);
  const ConcurrentPlan p = plan_concurrent(kMixes[1], n0, batch, 4, b.o.seed);
  concurrent_point(b, kMixes[1], p, 0.55, initial, "G1", Recording::kNone, "record");
  concurrent_point(b, kMixes[1], p, 0.55, initial, "G1+published", Recording::kPublished, "record");
  concurrent_point(b, kMixes[1], p, 0.55, initial, "G1+warp-rounds", Recording::kWarpRounds, "record");
  concurrent_point(b, kMixes[1], p, 0.55, initial, "G1+key-clocks", Recording::kKeyClocks, "record");
  concurrent_point(b, kMixes[1], p, 0.55, initial, "G1+events", Recording::kEvents, "record");
}

// ------------------------------------------------------------------ original
// The original slab hash beside ours (original_slab_hash.h), same keys (both from
// the 30-bit domain its batches need), same table size, same timing: Fig. 7a's
// mixes at u = 0.55 (2^22 keys built, 4 batches of 2^20 timed together), and the
// build of 2^22 and 2^26 keys at u = 0.55. Each row twice, ours and the original's
// alternating. The original's table is built with every value equal to its key (its
// batched inserts store the key as the value), so its searches are checked so.
__global__ void encode_original_ops_kernel(const uint32_t* fn, const uint32_t* key, uint64_t n, uint32_t* out) {
  for (uint64_t j = thread_id(); j < n; j += thread_count()) {
    const uint32_t code = fn[j] == slab_hash::kFnInsert   ? bench::kOriginalInsert
                          : fn[j] == slab_hash::kFnDelete ? bench::kOriginalDelete
                                                          : bench::kOriginalSearch;
    out[j] = code << 30 | key[j];
  }
}
// Searches answered wrong by the original: a planned hit must return its key, a
// miss must leave the result as it was (all ones).
__global__ void count_original_wrong_kernel(const uint32_t* fn, const uint32_t* key, const uint32_t* expect,
                                            const uint32_t* out, uint64_t n, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (uint64_t j = thread_id(); j < n; j += thread_count())
    if (fn[j] == slab_hash::kFnSearch) mine += out[j] != (expect[j] == kEmpty ? kEmpty : key[j]);
  if (mine) atomicAdd(wrong, mine);
}
// After a search of keys: present ones must return the key, absent ones all ones.
__global__ void count_original_search_wrong_kernel(const uint32_t* q, const uint32_t* out, uint64_t n, bool present,
                                                   unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (uint64_t j = thread_id(); j < n; j += thread_count()) mine += out[j] != (present ? q[j] : kEmpty);
  if (mine) atomicAdd(wrong, mine);
}

std::string original_search_check(Bench& b, const uint32_t* q, const uint32_t* out, uint64_t n, bool present) {
  count_original_search_wrong_kernel<<<kGrid, kBlock>>>(q, out, n, present, b.counter().zero());
  const unsigned long long w = b.counter().read();
  return w ? fmt("%llu of %llu %s keys answered wrong", w, (unsigned long long)n, present ? "present" : "absent") : "";
}

void original_concurrent_point(Bench& b, const Mix& m, const ConcurrentPlan& p, double u, const KeySet& initial) {
  const uint64_t ops = p.batch * p.batches, live = p.hi - p.lo;
  DeviceArray<uint32_t> fn(ops), key(ops), expect(ops), encoded(ops), out(ops);
  fn.upload(p.fn);
  key.upload(p.key);
  expect.upload(p.expect);
  encode_original_ops_kernel<<<kGrid, kBlock>>>(fn.p, key.p, ops, encoded.p);
  DeviceArray<uint32_t> check_keys(std::max(live, p.lo)), check_out(std::max(live, p.lo));
  const BucketPlan bp = buckets_for(p.n0, u);
  std::unique_ptr<bench::OriginalSlabMap> t;
  auto setup = [&] {
    t.reset();
    t = std::make_unique<bench::OriginalSlabMap>(bp.buckets, b.o.seed);
    t->build(initial.keys.p, initial.keys.p, static_cast<uint32_t>(p.n0));
    ck(cudaMemset(out.p, 0xFF, ops * sizeof(uint32_t)), "clear results");
    ck(cudaDeviceSynchronize(), "initial build (original)");
  };
  auto work = [&] {
    for (uint64_t bi = 0; bi < p.batches; ++bi)
      t->batched(encoded.p + bi * p.batch, out.p + bi * p.batch, static_cast<uint32_t>(p.batch));
  };
  auto check = [&]() -> std::string {
    count_original_wrong_kernel<<<kGrid, kBlock>>>(fn.p, key.p, expect.p, out.p, ops, b.counter().zero());
    if (const unsigned long long w = b.counter().read()) return fmt("%llu searches answered wrong", w);
    fill_keys_kernel<<<kGrid, kBlock>>>(check_keys.p, nullptr, p.lo, live, b.o.seed, p.domain.mask);
    t->search(check_keys.p, check_out.p, static_cast<uint32_t>(live));
    if (std::string f = original_search_check(b, check_keys.p, check_out.p, live, true); !f.empty())
      return "after the run: " + f;
    fill_keys_kernel<<<kGrid, kBlock>>>(check_keys.p, nullptr, 0, p.lo, b.o.seed, p.domain.mask);
    t->search(check_keys.p, check_out.p, static_cast<uint32_t>(p.lo));
    if (std::string f = original_search_check(b, check_keys.p, check_out.p, p.lo, false); !f.empty())
      return "after the run, deleted keys: " + f;
    return "";
  };
  const Stat s = b.measure(setup, work, check);
  b.add("original", p.n0,
        fmt("mix=%s(%.1f,%.1f,%.1f,%.1f);u0=%.2f;B=%u;batch=%s;batches=%llu;keys<2^30", m.name, m.ins, m.del, m.hit,
            m.miss, u, bp.buckets, log2_str(p.batch).c_str(), (unsigned long long)p.batches),
        std::string("original:") + m.name, "M ops/s", s, double(ops),
        fmt("original|%s|%.2f|%s|original", m.name, u, log2_str(p.batch).c_str()));
}

// Bulk build of n keys at utilization u: ours (SlabOpBatch of inserts) or the original's buildBulk.
void build_point(Bench& b, const KeySet& ks, uint64_t n, double u, bool original) {
  const BucketPlan bp = buckets_for(n, u);
  std::unique_ptr<DeviceSlabHash> ours;
  std::unique_ptr<bench::OriginalSlabMap> theirs;
  if (!original) ours = std::make_unique<DeviceSlabHash>(shape_for(bp.buckets, n, b.o.seed), !b.o.regular_alloc);
  auto setup = [&] {
    if (original) {
      theirs.reset();
      theirs = std::make_unique<bench::OriginalSlabMap>(bp.buckets, b.o.seed);
    } else {
      ours->reset();
    }
    ck(cudaDeviceSynchronize(), "table set-up");
  };
  auto work = [&] {
    if (original) theirs->build(ks.keys.p, ks.keys.p, static_cast<uint32_t>(n));
    else b.slab_bulk(*ours, slab_hash::kFnInsert, ks.keys.p, ks.vals.p, nullptr, n);
  };
  auto check = [&]() -> std::string {
    if (original) {
      theirs->search(ks.keys.p, ks.out.p, static_cast<uint32_t>(n));
      if (std::string f = original_search_check(b, ks.keys.p, ks.out.p, n, true); !f.empty()) return f;
      theirs->search(ks.absent.p, ks.out.p, static_cast<uint32_t>(n));
      return original_search_check(b, ks.absent.p, ks.out.p, n, false);
    }
    if (std::string f = b.check_table(*ours, n); !f.empty()) return f;
    b.slab_bulk(*ours, slab_hash::kFnSearch, ks.keys.p, nullptr, ks.out.p, n);
    return b.check_search(ks.keys.p, ks.out.p, n, true);
  };
  const Stat s = b.measure(setup, work, check);
  const char* who = original ? "original" : "slab";
  b.add("original", n, fmt("build;u=%.2f;B=%u;keys<2^30", u, bp.buckets), std::string(who) + ":build", "M keys/s", s,
        double(n), fmt("original|build|%s|%s", log2_str(n).c_str(), who));
}

// Ours against the original: by default the last two rows (ours, then the original's).
void print_ratio(const Bench& b, const std::string& what, size_t ours_row, size_t theirs_row) {
  const Row& ours = b.rows[ours_row];
  const Row& theirs = b.rows[theirs_row];
  if (ours.fail.empty() && theirs.fail.empty())
    std::printf("  %s: ours %.1f, the original %.1f %s: %.2fx\n", what.c_str(), ours.rate, theirs.rate,
                ours.unit.c_str(), ours.rate / theirs.rate);
}
void print_ratio(const Bench& b, const std::string& what) { print_ratio(b, what, b.rows.size() - 2, b.rows.size() - 1); }

void run_original(Bench& b) {
  if (!bench::original_slab_hash_built()) {
    std::printf("\n== original: the original slab hash is not in this build (scripts/fetch-originals.sh, then cmake): "
                "nothing measured\n");
    return;
  }
  const uint64_t n0 = b.o.quick ? uint64_t{1} << 18 : uint64_t{1} << 22;
  const uint64_t batch = b.o.quick ? uint64_t{1} << 16 : uint64_t{1} << 20;
  const uint64_t batches = b.o.quick ? 2 : 4;
  std::printf("\n== original: owensgroup/SlabHash (eec7135, SlabAlloc-light) beside ours, keys below 2^30: Fig. 7a's "
              "mixes at u = 0.55, %s keys built, %llu batches of %s a run; builds at u = 0.55\n",
              log2_str(n0).c_str(), (unsigned long long)batches, log2_str(batch).c_str());
  KeySet initial(n0, b.o.seed, kKeys30);
  for (int round = 0; round < 2; ++round)
    for (const Mix& m : kMixes) {
      const ConcurrentPlan p = plan_concurrent(m, n0, batch, batches, b.o.seed, kKeys30);
      concurrent_point(b, m, p, 0.55, initial, m.name, Recording::kNone, "original");
      original_concurrent_point(b, m, p, 0.55, initial);
      print_ratio(b, m.name);
      // The same plan run by our paper multimap: the original's semantics (no
      // lookup before an insert, a deleted spot EMPTY and taken again).
      const std::string as_multimap = std::string(m.name) + "/multimap";
      concurrent_point(b, m, p, 0.55, initial, as_multimap.c_str(), Recording::kNone, "original", slab_hash::Mode::Multimap);
      print_ratio(b, as_multimap + " (our paper multimap, the original's semantics)", b.rows.size() - 1, b.rows.size() - 2);
    }
  for (int lg : b.o.quick ? std::vector<int>{18} : std::vector<int>{22, 26}) {
    const KeySet ks(uint64_t{1} << lg, b.o.seed, kKeys30);
    for (int round = 0; round < 2; ++round)
      for (bool original : {false, true}) build_point(b, ks, uint64_t{1} << lg, 0.55, original);
      print_ratio(b, "build " + log2_str(uint64_t{1} << lg));
  }
}

// ------------------------------------------------------------------ alloc
void run_alloc(Bench& b) {
  const uint64_t count = b.o.quick ? uint64_t{1} << 16 : 1000000;
  std::printf("\n== alloc: %llu allocations of 128 bytes, one per thread (paper §V)\n", (unsigned long long)count);
  {
    // The paper's pool (1 GiB), one bucket: only the allocator is used.
    DeviceSlabHash t(slab_hash::paper_shape(1), !b.o.regular_alloc);
    DeviceArray<uint32_t> out(count);
    const uint32_t blocks = static_cast<uint32_t>((count + 255) / 256);
    auto work = [&] {
      if (t.light())
        slaballoc_kernel<true><<<blocks, 256>>>(t.view<slab_hash::SlabPolicy<slab_hash::Mode::Map, true>>().alloc, out.p, count);
      else
        slaballoc_kernel<false><<<blocks, 256>>>(t.view<slab_hash::SlabPolicy<slab_hash::Mode::Map, false>>().alloc, out.p,
                                                 count);
    };
    auto check = [&]() -> std::string {
      if (const uint32_t f = t.failures()) return fmt("%u allocation failures", f);
      count_value_kernel<uint32_t><<<kGrid, kBlock>>>(out.p, count, slab_hash::kNoUnit, b.counter().zero());
      if (const auto none = b.counter().read()) return fmt("%llu allocations returned no unit", none);
      if (const uint64_t bits = t.allocated_units(); bits != count)
        return fmt("%llu bits set in the bitmaps for %llu allocations", (unsigned long long)bits, (unsigned long long)count);
      thrust::sort(thrust::device, out.p, out.p + count);
      count_repeats_kernel<uint32_t><<<kGrid, kBlock>>>(out.p, count, b.counter().zero());
      if (const auto rep = b.counter().read()) return fmt("%llu units handed out twice", rep);
      return "";
    };
    const Stat s = b.measure([&] { t.reset(); }, work, check);
    b.add("alloc", count, fmt("bytes=128;pool=%.0f MiB;%s", t.shape().pool_words() * 4.0 / 1048576,
                              t.light() ? "SlabAlloc-light" : "SlabAlloc"),
          "slaballoc", "M allocations/s", s, double(count), "alloc|slaballoc");
  }
  // CUDA's device malloc: the heap must hold every allocation with room to spare.
  size_t heap = 0;
  ck(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), "cudaDeviceGetLimit");
  const size_t want = std::max<size_t>(count * 128 * 4, size_t(64) << 20);
  if (heap < want) {
    const cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, want);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      b.add_fail("alloc", count, "bytes=128", "cuda-malloc", "M allocations/s",
                 std::string("cannot raise cudaLimitMallocHeapSize: ") + cudaGetErrorString(e));
      return;
    }
    ck(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), "cudaDeviceGetLimit");
  }
  DeviceArray<unsigned long long> ptrs(count);
  const uint32_t blocks = static_cast<uint32_t>((count + 255) / 256);
  bool freed = true;
  auto setup = [&] {
    if (!freed) free_kernel<<<blocks, 256>>>(ptrs.p, count);  // the previous run's (the check's sort keeps the set)
    freed = true;
    ck(cudaDeviceSynchronize(), "device free");
  };
  auto work = [&] {
    malloc_kernel<<<blocks, 256>>>(ptrs.p, count, 128);
    freed = false;
  };
  auto check = [&]() -> std::string {
    count_value_kernel<unsigned long long><<<kGrid, kBlock>>>(ptrs.p, count, 0ull, b.counter().zero());
    if (const auto nulls = b.counter().read()) return fmt("%llu of %llu malloc calls returned null", nulls, (unsigned long long)count);
    thrust::sort(thrust::device, ptrs.p, ptrs.p + count);
    count_repeats_kernel<unsigned long long><<<kGrid, kBlock>>>(ptrs.p, count, b.counter().zero());
    if (const auto rep = b.counter().read()) return fmt("%llu pointers returned twice", rep);
    return "";
  };
  const Stat s = b.measure(setup, work, check);
  setup();
  b.add("alloc", count, fmt("bytes=128;heap=%.0f MiB", heap / 1048576.0), "cuda-malloc", "M allocations/s", s, double(count),
        "alloc|cuda-malloc");
}

// ------------------------------------------------------------------ floor
void run_floor(Bench& b) {
  const uint64_t bytes = b.o.quick ? uint64_t{1} << 28 : uint64_t{1} << 30;
  const uint64_t words = bytes / 4, lines = bytes / 128;
  std::printf("\n== floor: random 128-byte line reads and random 32-bit CAS over a %.0f MiB buffer\n", bytes / 1048576.0);
  DeviceArray<uint32_t> buf(words);
  floor_fill_kernel<<<kGrid, kBlock>>>(buf.p, words);
  ck(cudaDeviceSynchronize(), "floor fill");
  const uint32_t threads = 256, blocks = static_cast<uint32_t>(b.sms) * 8;  // 64 warps per SM
  const uint64_t warps = uint64_t{blocks} * threads / 32;
  const uint64_t want_reads = b.o.quick ? uint64_t{1} << 22 : uint64_t{1} << 27;
  const uint32_t per_warp = static_cast<uint32_t>(std::max<uint64_t>(1, want_reads / warps));
  const double reads = double(per_warp) * warps;
  // Each run draws other addresses; its kernel counts wrong words into the counter.
  uint32_t round = 0;
  auto counted = [&](const char* wrong, const std::function<void(unsigned long long*)>& launch) {
    return b.measure([&] { ++round; }, [&] { launch(b.counter().zero()); }, [&]() -> std::string {
      const auto bad = b.counter().read();
      return bad ? fmt("%llu %s", bad, wrong) : "";
    });
  };
  const Stat r = counted("words read back wrong", [&](unsigned long long* c) {
    floor_read_kernel<<<blocks, threads>>>(buf.p, lines - 1, per_warp, round, c);
  });
  b.add("floor", lines, fmt("buffer=%.0f MiB;reads=%.0f", bytes / 1048576.0, reads), "floor:read128", "M lines/s", r, reads,
        "floor|read");
  const uint64_t cas_threads = uint64_t{blocks} * threads;
  const uint32_t per_thread = static_cast<uint32_t>(std::max<uint64_t>(1, want_reads / cas_threads * 2));
  const double cas = double(per_thread) * cas_threads;
  const Stat c = counted("CAS found an unexpected word", [&](unsigned long long* counter) {
    floor_cas_kernel<<<blocks, threads>>>(buf.p, words - 1, per_thread, round, counter);
  });
  b.add("floor", words, fmt("buffer=%.0f MiB;cas=%.0f", bytes / 1048576.0, cas), "floor:cas32", "M CAS/s", c, cas,
        "floor|cas");
}

// ------------------------------------------------------------------ summary
void print_summary(const Bench& b) {
  std::printf("\n== summary on %s (G/s; anchors: the issue's, an H100 with the original implementation)\n", b.gpu.c_str());
  std::printf("%-40s %10s  %-26s %7s  %10s  %8s\n", "measurement", "gpulin", "anchor / target", "ratio", "cuckoo", "% floor");
  const Row* floor_read = b.find("floor|read");
  const double floor_g = floor_read && floor_read->fail.empty() ? floor_read->rate / 1e3 : NAN;
  auto g = [](const Row* r) -> std::string {
    if (!r) return "-";
    if (!r->fail.empty()) return "FAIL";
    return fmt("%.2f", r->rate / 1e3);
  };
  // anchor: the number compared with (ratio = measured / anchor); text: how it is shown.
  auto line = [&](const std::string& what, const Row* r, double anchor, const std::string& text, const Row* cuckoo,
                  bool floor_pct) {
    const bool ok = r && r->fail.empty();
    const std::string ratio = ok && anchor > 0 ? fmt("%.2f", r->rate / 1e3 / anchor) : "-";
    const std::string pct = ok && floor_pct && !std::isnan(floor_g) ? fmt("%.0f%%", 100 * r->rate / 1e3 / floor_g) : "-";
    std::printf("%-40s %10s  %-26s %7s  %10s  %8s\n", what.c_str(), g(r).c_str(), text.c_str(), ratio.c_str(),
                cuckoo ? g(cuckoo).c_str() : "-", pct.c_str());
  };
  const std::string a = "fig4|2^22|0.55|";
  line("build, n=2^22, u=0.55", b.find(a + "slab:build"), kAnchorBuild, fmt("%.1f (aim %.1f)", kAnchorBuild, kAim * kAnchorBuild),
       b.find(a + "cuckoo:build"), false);
  // One search kernel here (two reads in flight a warp) against both of the
  // original's: its search (one at a time) and its bulk search.
  line("search, all exist, n=2^22, u=0.55", b.find(a + "slab:search-hit"), kAnchorSearchHit,
       fmt("%.1f (aim %.1f)", kAnchorSearchHit, kAim * kAnchorSearchHit), b.find(a + "cuckoo:search-hit"), false);
  line("  against the original's bulk search", b.find(a + "slab:search-hit"), kAnchorBulkSearch,
       fmt("%.1f (aim %.1f)", kAnchorBulkSearch, kAim * kAnchorBulkSearch), b.find(a + "cuckoo:search-hit"), false);
  line("search, none exist, n=2^22, u=0.55", b.find(a + "slab:search-miss"), kAnchorSearchMiss,
       fmt("%.1f (aim %.1f)", kAnchorSearchMiss, kAim * kAnchorSearchMiss), b.find(a + "cuckoo:search-miss"), false);
  line("concurrent G2, 2^18-op batches, u=0.55", b.find("fig7a|G2|0.55|2^18"), kAnchorMix2SmallHigh,
       fmt("%.1f-%.1f", kAnchorMix2Small, kAnchorMix2SmallHigh), nullptr, false);
  for (const char* bs : {"2^20", "2^22", "2^23"})
    line(std::string("concurrent G2, ") + bs + "-op batches, u=0.55", b.find(std::string("fig7a|G2|0.55|") + bs),
         kAnchorMix2Large, fmt("%.1f (aim %.1f)", kAnchorMix2Large, kAim * kAnchorMix2Large), nullptr, false);
  const std::string f = "fig5|2^26|0.60|";
  line("build, n=2^26, u=0.6 (DRAM)", b.find(f + "slab:build"), kTargetBuild26, fmt(">= %.0f (target)", kTargetBuild26),
       b.find(f + "cuckoo:build"), true);
  line("search, all exist, n=2^26, u=0.6", b.find(f + "slab:search-hit"), kTargetSearch26,
       fmt(">= %.0f (target)", kTargetSearch26), b.find(f + "cuckoo:search-hit"), true);
  line("search, none exist, n=2^26, u=0.6", b.find(f + "slab:search-miss"), kTargetSearch26,
       fmt(">= %.0f (target)", kTargetSearch26), b.find(f + "cuckoo:search-miss"), true);
  line("SlabAlloc, 128-byte allocations", b.find("alloc|slaballoc"), kTargetAlloc, fmt(">= %.0f (target)", kTargetAlloc),
       nullptr, false);
  line("CUDA device malloc(128)", b.find("alloc|cuda-malloc"), 0, "-", nullptr, false);
  for (const char* lg : {"2^20", "2^16"}) {
    const std::string r = std::string("record|G1|0.55|") + lg + "|G1";
    const Row* plain = b.find(r);
    if (!plain) continue;
    line(std::string("concurrent G1, ") + lg + "-op batches, unrecorded", plain, 0, "-", nullptr, false);
    for (const char* how : {"published", "warp-rounds", "key-clocks", "events"}) {
      const Row* rec = b.find(r + "+" + how);
      const bool ok = rec && rec->fail.empty() && plain->fail.empty();
      line(std::string("  recorded by ") + how, rec, 0,
           ok ? fmt("cost %.0f %% (target <= 15 %%)", 100 * (1 - rec->rate / plain->rate)) : "-", nullptr, false);
    }
  }
  line("floor: random 128-byte reads (lines)", floor_read, kFloorReads, fmt("~%.0f", kFloorReads), nullptr, false);
  line("floor: random 32-bit CAS", b.find("floor|cas"), kFloorCas, fmt("~%.0f", kFloorCas), nullptr, false);
  std::printf("(ratio = gpulin / anchor; '-' where this run did not measure it (--quick, --only); a batch of "
              "searches takes them two at a time a warp, as the original's bulk search; %% floor = rate / measured "
              "random-read floor)\n");
}

// ------------------------------------------------------------------ main
const std::vector<std::string> kSections = {"fig4", "fig5", "fig6", "fig7a", "record", "original", "alloc", "floor"};

// Ends the program (exit 3) when it runs past its time, keeping the rows printed so
// far; disarmed when it goes out of scope.
class Watchdog {
 public:
  explicit Watchdog(double seconds) : done_(std::make_shared<std::atomic<bool>>(false)) {
    std::thread([seconds, done = done_] {
      const auto t0 = Clock::now();
      while (!*done) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (!*done && std::chrono::duration<double>(Clock::now() - t0).count() > seconds) {
          std::printf("\nWATCHDOG: %.0f s passed; the rows above are complete, the rest is lost\n", seconds);
          std::fflush(stdout);
          std::_Exit(3);
        }
      }
    }).detach();
  }
  ~Watchdog() { *done_ = true; }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::shared_ptr<std::atomic<bool>> done_;
};

int bench_main(int argc, char** argv) {
  Options o;
  CLI::App app{"gpulin_bench_slab: the slab hash (paper §VI figures 4-7a, SlabAlloc) against a GPU cuckoo hash, "
               "CUDA's malloc and the DRAM floor"};
  app.add_option("--runs", o.runs, "timed runs per measurement (after one warm-up; median reported)")->check(CLI::Range(1, 1000));
  app.add_option("--only", o.only, "sections, comma-separated: fig4,fig5,fig6,fig7a,record,original,alloc,floor (default all)");
  app.add_option("--csv", o.csv, "also write the rows to this CSV file");
  app.add_flag("--quick", o.quick, "small sizes, a few seconds (3 runs unless --runs)");
  app.add_option("--threads", o.threads, "threads per block of the slab hash kernels")->check(CLI::Range(32, 1024));
  app.add_flag("--regular-alloc", o.regular_alloc, "the regular SlabAlloc (super block table) instead of SlabAlloc-light");
  app.add_option("--max-log2n", o.max_log2n, "fig5: largest n as a power of two")->check(CLI::Range(16, 30));
  app.add_option("--utilizations", o.utilizations, "fig4, fig7a: these memory utilizations instead of the sweep (comma-separated)")
      ->delimiter(',')
      ->check(CLI::Range(0.05, 0.94));
  app.add_option("--seed", o.seed, "keys and hash functions");
  app.add_option("--watchdog-s", o.watchdog_s, "end the program (exit 3) after this many seconds")->check(CLI::Range(1.0, 86400.0));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (o.threads % 32) {
    std::fprintf(stderr, "gpulin_bench_slab: --threads must be a multiple of 32\n");
    return 2;
  }
  if (o.quick && app.count("--runs") == 0) o.runs = 3;
  std::vector<std::string> chosen;
  for (size_t p = 0; !o.only.empty() && p <= o.only.size();) {
    size_t e = o.only.find(',', p);
    if (e == std::string::npos) e = o.only.size();
    const std::string s = o.only.substr(p, e - p);
    if (std::find(kSections.begin(), kSections.end(), s) == kSections.end()) {
      std::fprintf(stderr, "gpulin_bench_slab: unknown section '%s' (fig4,fig5,fig6,fig7a,record,original,alloc,floor)\n", s.c_str());
      return 2;
    }
    chosen.push_back(s);
    p = e + 1;
  }
  if (chosen.empty()) chosen = kSections;

  int devices = 0;
  cudaDeviceProp prop{};
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::printf("gpulin_bench_slab: no CUDA device: nothing measured\n");
    return 0;
  }
  Bench b(o, prop.name, prop.multiProcessorCount);

  const Watchdog watchdog(o.watchdog_s);

  std::printf("gpulin_bench_slab on %s (%d SMs, %.1f GiB, L2 %d MiB), %s, %d timed runs after one warm-up, %u threads "
              "per block, %s\n",
              prop.name, prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, prop.l2CacheSize >> 20,
              o.quick ? "quick" : "full", o.runs, o.threads, o.regular_alloc ? "SlabAlloc" : "SlabAlloc-light");
  const auto t0 = Clock::now();
  const std::map<std::string, std::function<void(Bench&)>> run = {{"fig4", run_fig4},   {"fig5", run_fig5},
                                                                   {"fig6", run_fig6},   {"fig7a", run_fig7a}, {"record", run_record},
                                                                   {"original", run_original},
                                                                   {"alloc", run_alloc}, {"floor", run_floor}};
  bool lost = false;
  for (const std::string& s : kSections) {
    if (std::find(chosen.begin(), chosen.end(), s) == chosen.end()) continue;
    if (lost) {
      b.add_fail(s, 0, "", "-", "-", "not run: the CUDA context was lost");
      continue;
    }
    const auto ts = Clock::now();
    try {
      run.at(s)(b);
    } catch (const std::exception& e) {
      b.add_fail(s, 0, "", "-", "-", std::string("error: ") + e.what());
      lost = context_lost();
    }
    std::printf("(%s: %.1f s)\n", s.c_str(), std::chrono::duration<double>(Clock::now() - ts).count());
  }
  print_summary(b);
  std::printf("\nrows: %zu, FAIL rows: %d, %.1f s\n", b.rows.size(), b.failures,
              std::chrono::duration<double>(Clock::now() - t0).count());
  return b.failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const int rc = bench_main(argc, argv);
  std::fflush(stdout);
  return rc;
} catch (const std::exception& e) {
  std::printf("gpulin_bench_slab: error: %s\n", e.what());
  return 1;
}
