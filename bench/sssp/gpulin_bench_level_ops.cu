// gpulin_bench_level_ops: one block's passes over a bucket heap level, the steps
// RESOLVE(0) is made of at PARDIJKSTRA's large sizes (bench/results/sssp-h200.txt:
// one block over B_0's 10^4-10^5 elements), each timed alone beside a plain copy:
// the copy, the 32-bit scan of an array (exclusive_sum), the 64-bit scan of a
// computed value (exclusive_sum_of, also at 2 and 8 values a thread a tile),
// RESOLVE's one partition (DELETEDUPLICATES and the split at p_i; also placed, then
// moved in a second pass, as the simulator's context does it), the same as two
// partitions, the tiled merge (also with half the threads merging 8 outputs
// each, tile_merge<8>), and RESOLVE's merge with its partition (the level cut into
// two sorted sides, as B_0 and S_0): merged into an array, then partitioned. A pass runs `reps` times in one launch of one block (the
// GPU's clock around the loop, so a launch's own cost is not in it); the median of
// `runs` launches is shown, in us a pass and as the copy's multiple. Every
// partition's counts, every merge's output and the merging partition's parts are
// checked against the host's (exit 1 where one differs).
// Exit status: 0 (or no CUDA device: a message), 1 a wrong count or a CUDA error;
// a usage error is CLI11's message and status.
#include <CLI/CLI.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench/median.h"
#include "common/cuda_support.h"
#include "cuda/cuda_context.cuh"
#include "structures/bucket_heap/dedup_split_reference.h"
#include "structures/bucket_heap/level_ops.h"

namespace gpulin::bucket_heap {
namespace {

using X = cuda_exec::CudaContext<cuda_exec::BlockScope, false>;
using P = Policy<Variant::Fixed>;

enum Pass : int {
  kCopy, kScan32, kScan64, kScan64By2, kScan64By8, kPartition, kPartitionTwoPasses, kTwoPartitions, kMerge, kMergeBy8,
  kMergePartition, kPasses
};
constexpr const char* kPassNames[kPasses] = {"copy",
                                             "exclusive_sum (32-bit array)",
                                             "exclusive_sum_of (64-bit)",
                                             "  the same, 2 a thread a tile",
                                             "  the same, 8 a thread a tile",
                                             "partition",
                                             "  the same, place then move",
                                             "dedup, then split",
                                             "merge_tiled",
                                             "  the same, 8 outputs a merging thread",
                                             "merge, then partition"};

// The block actor without scan_then: exec::exclusive_sum_then takes its two-pass
// path, the one the simulator's context runs.
struct TwoPassX : X {
  using X::X;
  template <class... A>
  __device__ void scan_then(A&&...) = delete;
};

struct Buffers {
  const Element* level;  // n: a sorted level array (copies, DELETEs)
  const Element* level_a;  // the level's elements cut into two sorted sides (B_0's and S_0's)
  const Element* level_b;
  const Element* a;      // na, sorted: the merge's inputs
  const Element* b;      // nb
  Element* out1;         // n
  Element* out2;         // n
  Element* out3;         // n
  uint32_t* words;       // 2n
  uint64_t* places;      // n
};

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// counts[0..1]: the last run's parts (the partitions).
template <int Pass>
__global__ void __launch_bounds__(1024) pass_kernel(Buffers m, uint32_t n, uint32_t na, uint32_t nb, uint32_t nla, uint64_t th, uint32_t reps,
                            unsigned long long* ns, uint32_t* counts) {
  __shared__ unsigned long long broadcast[2];
  X x{cuda_exec::BlockScope(broadcast), {}, {}};
  Parts parts{0, 0};
  auto once = [&] {
    if constexpr (Pass == kCopy) {
      x.parallel_for(n, [&](uint32_t i) { m.out1[i] = m.level[i]; });
    } else if constexpr (Pass == kScan32) {
      x.exclusive_sum(m.words, n, m.words + n);
    } else if constexpr (Pass == kScan64) {
      x.exclusive_sum_of(n, [&](uint32_t i) { return uint64_t{m.words[i]}; }, m.places);
    } else if constexpr (Pass == kScan64By2 || Pass == kScan64By8) {
      cuda_exec::block::scan_then<uint64_t, Pass == kScan64By2 ? 2 : 8>(
          n, [&](uint32_t i) { return uint64_t{m.words[i]}; },
          [&](uint32_t i, uint64_t before, uint64_t) { m.places[i] = before; });
    } else if constexpr (Pass == kPartition) {
      parts = dedup_and_split<X, P>(x, m.level, n, th, m.out1, m.out2, m.places);
    } else if constexpr (Pass == kPartitionTwoPasses) {
      TwoPassX y{cuda_exec::BlockScope(broadcast), {}, {}};
      parts = dedup_and_split<TwoPassX, P>(y, m.level, n, th, m.out1, m.out2, m.places);
    } else if constexpr (Pass == kTwoPartitions) {
      const uint32_t kept = delete_duplicates<X, P>(x, m.level, n, m.out3, false, m.places);
      parts = split_by(x, m.out3, kept, th, m.out1, m.out2, m.places);
    } else if constexpr (Pass == kMerge) {
      merge_by_value(x, m.a, na, m.b, nb, m.out1);
    } else if constexpr (Pass == kMergeBy8) {
      cuda_exec::block::tile_merge<8>(m.a, na, m.b, nb, m.out1);
    } else {
      static_assert(Pass == kMergePartition);
      parts = merge_then_partition(x, m.level_a, nla, m.level_b, n - nla, m.out3, DedupSplitWhere<P>{th}, m.places,
                                   m.out1, m.out2);
    }
  };
  once();  // warm: the arrays in L2 as RESOLVE finds them
  __syncthreads();
  const unsigned long long t0 = now_ns();
  for (uint32_t r = 0; r < reps; ++r) once();
  __syncthreads();
  if (threadIdx.x == 0) {
    *ns = now_ns() - t0;
    counts[0] = parts.first;
    counts[1] = parts.second;
  }
}

// A level as RESOLVE(0) merges it: values in order, a fifth of them with a second
// copy (B_0's and S_0's), a third of those a DELETE.
std::vector<Element> level_array(uint32_t n, std::mt19937_64& rng) {
  std::vector<Element> v;
  for (uint32_t value = 0; v.size() < n; ++value) {
    v.push_back(make_element(value, static_cast<uint32_t>(rng() % (1u << 20))));
    if (rng() % 5 == 0 && v.size() < n)
      v.push_back(make_element(value, rng() % 3 == 0 ? kDel : static_cast<uint32_t>(rng() % (1u << 20))));
  }
  std::sort(v.begin(), v.end());
  return v;
}

template <int Pass>
double pass_us(const Buffers& m, uint32_t n, uint32_t na, uint32_t nb, uint32_t nla, uint64_t th, uint32_t threads,
               uint32_t reps, uint32_t runs, Parts* got) {
  cuda_support::DeviceBuffer<unsigned long long> ns(1);
  cuda_support::DeviceBuffer<uint32_t> counts(2);
  std::vector<double> us;
  for (uint32_t r = 0; r < runs; ++r) {
    pass_kernel<Pass><<<1, threads>>>(m, n, na, nb, nla, th, reps, ns.get(), counts.get());
    cuda_support::check(cudaGetLastError(), kPassNames[Pass]);
    cuda_support::check(cudaDeviceSynchronize(), kPassNames[Pass]);
    us.push_back(static_cast<double>(ns.at(0)) / 1e3 / reps);
  }
  const std::vector<uint32_t> c = cuda_support::download(counts.get(), 2);
  *got = {c[0], c[1]};
  return bench::median(us);
}

int run(int argc, char** argv) {
  CLI::App app{"gpulin_bench_level_ops: one block's passes over a bucket heap level, beside a plain copy"};
  std::vector<uint32_t> sizes = {1000, 9000, 15000, 30000, 60000};
  uint32_t threads = 1024, reps = 50, runs = 5;
  bool quick = false;
  app.add_option("--sizes", sizes, "elements n of the level, comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1u, 1u << 26));
  app.add_option("--threads", threads, "threads of the block")->check(CLI::Range(32u, 1024u));
  app.add_option("--reps", reps, "passes a launch")->check(CLI::Range(1u, 100000u));
  app.add_option("--runs", runs, "launches a cell (the median is shown)")->check(CLI::Range(1u, 100u));
  app.add_flag("--quick", quick, "a smoke run: two small sizes, few passes");
  CLI11_PARSE(app, argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gpulin_bench_level_ops: no CUDA device, nothing measured\n");
    return 0;
  }
  if (quick) sizes = {100, 5000}, reps = 3, runs = 1;
  cudaDeviceProp prop{};
  cuda_support::check(cudaGetDeviceProperties(&prop, 0), "device");
  std::printf("one block of %u threads on an %s (%d SMs); us a pass, median of %u launches of %u passes; "
              "x copy = the pass / the copy of the same n\n",
              threads, prop.name, prop.multiProcessorCount, runs, reps);
  std::printf("%7s  %-30s %10s %8s\n", "n", "pass", "us", "x copy");
  std::mt19937_64 rng(1);
  bool wrong = false;
  for (const uint32_t n : sizes) {
    const std::vector<Element> level = level_array(n, rng);
    std::vector<Element> ranks(level);
    std::sort(ranks.begin(), ranks.end(), [](Element x, Element y) { return rank_key(x) < rank_key(y); });
    const uint64_t th = rank_key(ranks[n / 2]);  // about half the survivors stay
    const uint32_t na = n - n / 4, nb = n / 4;
    std::vector<Element> a(na), b(nb);
    for (auto& e : a) e = rng();
    for (auto& e : b) e = rng();
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<uint32_t> words(2 * uint64_t{n});
    for (uint32_t i = 0; i < n; ++i) words[i] = static_cast<uint32_t>(rng() % 2);
    std::vector<Element> level_a, level_b;  // about a quarter of the level's elements in b
    for (const Element e : level) (rng() % 4 == 0 ? level_b : level_a).push_back(e);
    const auto nla = static_cast<uint32_t>(level_a.size());
    const cuda_support::DeviceBuffer<Element> d_level(level), d_level_a(level_a), d_level_b(level_b), d_a(a), d_b(b);
    cuda_support::DeviceBuffer<Element> out1(n), out2(n), out3(n);
    const cuda_support::DeviceBuffer<uint32_t> d_words(words);
    cuda_support::DeviceBuffer<uint64_t> places(n);
    const Buffers m{d_level.get(), d_level_a.get(), d_level_b.get(), d_a.get(), d_b.get(), out1.get(), out2.get(), out3.get(), d_words.get(), places.get()};
    std::vector<Element> want_stay, want_down;
    dedup_split_reference(level, th, want_stay, want_down);
    const Parts want{static_cast<uint32_t>(want_stay.size()), static_cast<uint32_t>(want_down.size())};
    // Whether the last run of a pass left the host's parts in out1 and out2.
    const auto parts_right = [&] {
      return cuda_support::download(out1.get(), want.first) == want_stay &&
             cuda_support::download(out2.get(), want.second) == want_down;
    };
    double us[kPasses];
    Parts got[kPasses];
    us[kCopy] = pass_us<kCopy>(m, n, na, nb, nla, th, threads, reps, runs, &got[kCopy]);
    us[kScan32] = pass_us<kScan32>(m, n, na, nb, nla, th, threads, reps, runs, &got[kScan32]);
    us[kScan64] = pass_us<kScan64>(m, n, na, nb, nla, th, threads, reps, runs, &got[kScan64]);
    us[kScan64By2] = pass_us<kScan64By2>(m, n, na, nb, nla, th, threads, reps, runs, &got[kScan64By2]);
    us[kScan64By8] = pass_us<kScan64By8>(m, n, na, nb, nla, th, threads, reps, runs, &got[kScan64By8]);
    us[kPartition] = pass_us<kPartition>(m, n, na, nb, nla, th, threads, reps, runs, &got[kPartition]);
    us[kPartitionTwoPasses] =
        pass_us<kPartitionTwoPasses>(m, n, na, nb, nla, th, threads, reps, runs, &got[kPartitionTwoPasses]);
    us[kTwoPartitions] = pass_us<kTwoPartitions>(m, n, na, nb, nla, th, threads, reps, runs, &got[kTwoPartitions]);
    std::vector<Element> merged(n);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin());
    bool merged_right[kPasses] = {};
    us[kMerge] = pass_us<kMerge>(m, n, na, nb, nla, th, threads, reps, runs, &got[kMerge]);
    merged_right[kMerge] = cuda_support::download(out1.get(), n) == merged;
    us[kMergeBy8] = pass_us<kMergeBy8>(m, n, na, nb, nla, th, threads, reps, runs, &got[kMergeBy8]);
    merged_right[kMergeBy8] = cuda_support::download(out1.get(), n) == merged;
    bool parts_moved[kPasses] = {};
    us[kMergePartition] = pass_us<kMergePartition>(m, n, na, nb, nla, th, threads, reps, runs, &got[kMergePartition]);
    parts_moved[kMergePartition] = parts_right();
    for (int p = 0; p < kPasses; ++p) {
      char note[96] = "";
      const bool merging = p == kMergePartition;
      if (p == kPartition || p == kPartitionTwoPasses || p == kTwoPartitions || merging) {
        const bool ok = got[p].first == want.first && got[p].second == want.second && (!merging || parts_moved[p]);
        wrong |= !ok;
        std::snprintf(note, sizeof note, "  stay %u down %u (%s)", got[p].first, got[p].second,
                      ok ? "= the host's" : "WRONG");
      }
      if (p == kMerge || p == kMergeBy8) {
        wrong |= !merged_right[p];
        std::snprintf(note, sizeof note, "  (%s)", merged_right[p] ? "= std::merge" : "WRONG");
      }
      std::printf("%7u  %-30s %10.2f %8.2f%s\n", n, kPassNames[p], us[p], us[p] / us[kCopy], note);
    }
  }
  if (wrong) std::printf("a partition's counts or a merge differ from the host's\n");
  return wrong ? 1 : 0;
}

}  // namespace
}  // namespace gpulin::bucket_heap

int main(int argc, char** argv) {
  try {
    return gpulin::bucket_heap::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulin_bench_level_ops: %s\n", e.what());
    return 1;
  }
}
