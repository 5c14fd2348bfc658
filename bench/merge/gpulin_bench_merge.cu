// gpulin_bench_merge: GPU Merge Path (structures/merge_path) against its baselines,
// side by side in one run (docs/design.md): thrust::merge,
// cub::DeviceMerge::MergeKeys, and a device-to-device cudaMemcpy of the same bytes
// (every input read once, every output written once: the floor a merge can reach).
//
// Sizes follow the paper (GPU Merge Path §3: 1M, 10M and 100M elements per array,
// 32-bit integers and single-precision floats) plus 2^28 elements in total. Each
// number is the median of --runs timed runs (cudaEvent, default 9) after two
// warm-up runs; the L2 cache is flushed before every timed run so that small sizes
// do not measure the cache. GB/s counts bytes read plus bytes written.
//
//   gpulin_bench_merge [--quick] [--csv FILE] [--runs N] [--n ELEMENTS_PER_ARRAY] [--policies]
//     --quick     1M and 4M per array, a few seconds
//     --csv FILE  one row per (type, size, method), with the GPU's name
//     --policies  also times merge_keys under other tilings (consumer threads x
//                 items, shared-memory stages, blocks per multiprocessor)
#include <CLI/CLI.hpp>
#include <cub/device/device_merge.cuh>
#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/merge.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "structures/merge_path/gpu/merge.cuh"
#include "structures/merge_path/testing/sorted_keys.cuh"

namespace mp = gpulin::merge_path;

namespace {

#define CHECK_CUDA(expr)                                                                               \
  do {                                                                                                 \
    const cudaError_t err_ = (expr);                                                                   \
    if (err_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorString(err_));  \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

// n sorted keys: increments in [0, 4) (about one key in four repeats its
// predecessor), the same law for both arrays so they interleave.
template <class T>
void sorted_keys(thrust::device_vector<T>& out, uint64_t n, uint64_t seed) {
  out = mp::test_inputs::sorted_keys<T>(n, seed, 4);
}

struct Timer {
  cudaStream_t stream;
  cudaEvent_t start, stop;
  void* flush = nullptr;
  size_t flush_bytes = 0;
  explicit Timer(cudaStream_t s) : stream(s) {
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    int dev = 0, l2 = 0;
    CHECK_CUDA(cudaGetDevice(&dev));
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    flush_bytes = static_cast<size_t>(std::max(l2, 1 << 20)) * 2;
    CHECK_CUDA(cudaMalloc(&flush, flush_bytes));
  }
  ~Timer() {
    cudaFree(flush);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  // Median, min and max milliseconds of `runs` timed calls of f after 2 warm-ups.
  template <class F>
  std::vector<double> time(F&& f, int runs) {
    for (int i = 0; i < 2; ++i) f();
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      CHECK_CUDA(cudaMemsetAsync(flush, i & 0xff, flush_bytes, stream));  // evict the inputs from L2
      CHECK_CUDA(cudaEventRecord(start, stream));
      f();
      CHECK_CUDA(cudaEventRecord(stop, stream));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float t = 0;
      CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t);
    }
    CHECK_CUDA(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front(), ms.back()};
  }
};

struct Row {
  std::string type, method;
  uint64_t n_per_array = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0, gbps = 0, pct_copy = 0, vs_cub = 0;
  std::string check;
};

template <class T>
const char* type_name() {
  return std::is_same_v<T, float> ? "float" : "int32";
}

template <class T>
void run_size(uint64_t n, int runs, bool policies, cudaStream_t stream, Timer& timer, std::vector<Row>& rows) {
  thrust::device_vector<T> a, b;
  sorted_keys(a, n, 1);
  sorted_keys(b, n, 2);
  const uint64_t total = 2 * n;
  thrust::device_vector<T> ours(total), cub_out(total), thrust_out(total), copy_src(total), copy_dst(total);
  const T* pa = thrust::raw_pointer_cast(a.data());
  const T* pb = thrust::raw_pointer_cast(b.data());
  T* po = thrust::raw_pointer_cast(ours.data());
  T* pc = thrust::raw_pointer_cast(cub_out.data());
  const double bytes = 2.0 * total * sizeof(T);  // read everything once, write everything once

  // Temp storage, allocated once outside the timed region (for both libraries).
  size_t our_bytes = 0, cub_bytes = 0;
  CHECK_CUDA(mp::merge_keys(nullptr, our_bytes, pa, n, pb, n, po, stream));
  CHECK_CUDA(cub::DeviceMerge::MergeKeys(nullptr, cub_bytes, pa, static_cast<int64_t>(n), pb,
                                         static_cast<int64_t>(n), pc, cuda::std::less<T>(), stream));
  void *our_temp = nullptr, *cub_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&our_temp, std::max<size_t>(our_bytes, 16)));
  CHECK_CUDA(cudaMalloc(&cub_temp, std::max<size_t>(cub_bytes, 16)));

  auto add = [&](const std::string& method, const std::vector<double>& t, const std::string& check) {
    Row r;
    r.type = type_name<T>();
    r.method = method;
    r.n_per_array = n;
    r.median_ms = t[0];
    r.min_ms = t[1];
    r.max_ms = t[2];
    r.gbps = bytes / (t[0] * 1e-3) / 1e9;
    r.check = check;
    rows.push_back(r);
  };
  auto equal_to_cub = [&](const thrust::device_vector<T>& v) {
    return thrust::equal(v.begin(), v.end(), cub_out.begin()) ? std::string("ok") : std::string("MISMATCH");
  };
  const size_t first = rows.size();

  add("copy", timer.time([&] {
        CHECK_CUDA(cudaMemcpyAsync(thrust::raw_pointer_cast(copy_dst.data()), thrust::raw_pointer_cast(copy_src.data()),
                                   total * sizeof(T), cudaMemcpyDeviceToDevice, stream));
      }, runs), "-");
  add("cub", timer.time([&] {
        CHECK_CUDA(cub::DeviceMerge::MergeKeys(cub_temp, cub_bytes, pa, static_cast<int64_t>(n), pb,
                                               static_cast<int64_t>(n), pc, cuda::std::less<T>(), stream));
      }, runs), "ref");
  CHECK_CUDA(cudaStreamSynchronize(stream));
  add("thrust", timer.time([&] {
        thrust::merge(thrust::cuda::par.on(stream), a.begin(), a.end(), b.begin(), b.end(), thrust_out.begin());
      }, runs), "");
  CHECK_CUDA(cudaStreamSynchronize(stream));
  rows.back().check = equal_to_cub(thrust_out);
  thrust::fill(ours.begin(), ours.end(), T(-1));
  add("gpulin", timer.time([&] { CHECK_CUDA(mp::merge_keys(our_temp, our_bytes, pa, n, pb, n, po, stream)); }, runs),
      "");
  CHECK_CUDA(cudaStreamSynchronize(stream));
  rows.back().check = equal_to_cub(ours);

  if (policies) {
    auto variant = [&](auto policy, const char* name) {
      using P = decltype(policy);
      size_t vb = 0;
      CHECK_CUDA(mp::merge_keys_policy<P>(nullptr, vb, pa, n, pb, n, po, stream));
      void* vt = nullptr;
      CHECK_CUDA(cudaMalloc(&vt, std::max<size_t>(vb, 16)));
      thrust::fill(ours.begin(), ours.end(), T(-1));
      add(name, timer.time([&] { CHECK_CUDA(mp::merge_keys_policy<P>(vt, vb, pa, n, pb, n, po, stream)); }, runs), "");
      CHECK_CUDA(cudaStreamSynchronize(stream));
      rows.back().check = equal_to_cub(ours);
      CHECK_CUDA(cudaFree(vt));
    };
    // consumer threads x items, stages, blocks per SM. The default policy (row
    // "gpulin", 512x21s2b1) is not listed again: its kernel, instantiated in this
    // file and in the library's, made the launch fail with "invalid argument" on
    // the H100.
    variant(mp::MergePolicy<256, 15, 2, 3>{}, "gpulin_256x15s2b3");
    variant(mp::MergePolicy<256, 31, 2, 2>{}, "gpulin_256x31s2b2");
    variant(mp::MergePolicy<512, 15, 2, 2>{}, "gpulin_512x15s2b2");
    variant(mp::MergePolicy<384, 19, 2, 2>{}, "gpulin_384x19s2b2");
    variant(mp::MergePolicy<256, 23, 3, 2>{}, "gpulin_256x23s3b2");
    variant(mp::MergePolicy<384, 21, 3, 1>{}, "gpulin_384x21s3b1");
    variant(mp::MergePolicy<384, 21, 2, 1>{}, "gpulin_384x21s2b1");
    variant(mp::MergePolicy<384, 21, 2, 2>{}, "gpulin_384x21s2b2");
    variant(mp::MergePolicy<256, 21, 2, 3>{}, "gpulin_256x21s2b3");
    variant(mp::MergePolicy<640, 15, 2, 1>{}, "gpulin_640x15s2b1");
    variant(mp::MergePolicy<384, 13, 3, 2>{}, "gpulin_384x13s3b2");
    variant(mp::MergePolicy<128, 15, 2, 6>{}, "gpulin_128x15s2b6");
    variant(mp::MergePolicy<256, 11, 2, 4>{}, "gpulin_256x11s2b4");
  }

  const double copy_ms = rows[first].median_ms, cub_ms = rows[first + 1].median_ms;
  for (size_t i = first; i < rows.size(); ++i) {
    rows[i].pct_copy = 100.0 * copy_ms / rows[i].median_ms;
    rows[i].vs_cub = cub_ms / rows[i].median_ms;
  }
  CHECK_CUDA(cudaFree(our_temp));
  CHECK_CUDA(cudaFree(cub_temp));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, policies = false;
  int runs = 9;
  uint64_t only_n = 0;  // --n: one size (profiling)
  std::string csv_path;
  CLI::App app{"gpulin_bench_merge: GPU merge path against CUB's merge and a copy"};
  app.add_flag("--quick", quick, "small sizes, few runs");
  app.add_flag("--policies", policies, "also the tuning policies' sweep");
  app.add_option("--csv", csv_path, "also write the rows as CSV");
  app.add_option("--n", only_n, "one size: elements per array (profiling)")->check(CLI::PositiveNumber);
  app.add_option("--runs", runs, "runs a number (the median is shown)")->check(CLI::Range(1, 1000));
  CLI11_PARSE(app, argc, argv);
  const char* csv = csv_path.empty() ? nullptr : csv_path.c_str();
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "gpulin_bench_merge: no CUDA device\n");
    return 1;
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, %.1f GiB, L2 %d MiB, sm_%d%d\n", prop.name, prop.multiProcessorCount,
              prop.totalGlobalMem / double(1 << 30), prop.l2CacheSize >> 20, prop.major, prop.minor);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  Timer timer(stream);

  std::vector<uint64_t> sizes = quick ? std::vector<uint64_t>{1u << 20, 4u << 20}
                                      : std::vector<uint64_t>{1000000, 10000000, 100000000, uint64_t(1) << 27};
  if (only_n != 0) sizes = {only_n};
  std::vector<Row> rows;
  for (uint64_t n : sizes) run_size<int32_t>(n, quick ? 5 : runs, policies, stream, timer, rows);
  for (uint64_t n : sizes) run_size<float>(n, quick ? 5 : runs, policies, stream, timer, rows);

  std::printf("\n%-6s %11s %-16s %10s %10s %9s %8s %8s  %s\n", "type", "n/array", "method", "median_ms", "min_ms",
              "GB/s", "%copy", "vs_cub", "check");
  bool ok = true;
  for (const Row& r : rows) {
    std::printf("%-6s %11llu %-22s %10.4f %10.4f %9.1f %7.1f%% %8.3f  %s\n", r.type.c_str(),
                static_cast<unsigned long long>(r.n_per_array), r.method.c_str(), r.median_ms, r.min_ms, r.gbps,
                r.pct_copy, r.vs_cub, r.check.c_str());
    ok = ok && r.check != "MISMATCH";
  }
  if (csv) {
    FILE* f = std::fopen(csv, "w");
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", csv);
      return 1;
    }
    std::fprintf(f, "gpu,type,n_per_array,total,method,median_ms,min_ms,max_ms,runs,gbps,pct_copy,vs_cub,check\n");
    for (const Row& r : rows)
      std::fprintf(f, "\"%s\",%s,%llu,%llu,%s,%.6f,%.6f,%.6f,%d,%.3f,%.2f,%.4f,%s\n", prop.name, r.type.c_str(),
                   static_cast<unsigned long long>(r.n_per_array), static_cast<unsigned long long>(2 * r.n_per_array),
                   r.method.c_str(), r.median_ms, r.min_ms, r.max_ms, quick ? 5 : runs, r.gbps, r.pct_copy, r.vs_cub,
                   r.check.c_str());
    std::fclose(f);
  }
  CHECK_CUDA(cudaStreamDestroy(stream));
  if (!ok) std::fprintf(stderr, "gpulin_bench_merge: a result differs from CUB's\n");
  return ok ? 0 : 1;
}
