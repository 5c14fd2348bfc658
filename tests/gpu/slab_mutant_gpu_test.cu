// A planted bug on the GPU is rejected: this test (and only it) instantiates the
// slab hash's kernel with the mutant slab-search-first-slab (SEARCH stops after the
// base slab). With 16 buckets the lists are long, so searches for keys further down
// miss; the recorded history must be judged not linearizable, with the failing key
// named. Label `gpu`; skips without a device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

#include "cuda/slab_hash_kernel.cuh"
#include "histories/device_recorder.h"
#include "histories/result_shapes.h"
#include "tools/explore/slab_program.h"
#include "verify/search_checker.h"

namespace gpulin {
namespace {

using namespace slab_hash;

TEST(SlabMutantOnGpu, SearchFirstSlabIsRejected) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    GTEST_SKIP() << "no CUDA device: GPU test skipped";
  }
  using P = SlabPolicy<Mode::Map, true, Mutant::SearchFirstSlab>;
  DeviceSlabHash table({16, 1, 4, 64, 1}, true);
  const uint32_t n = 4096, threads = 128;
  std::vector<uint32_t> keys(n), values(n), fns(2 * n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = i, values[i] = i + 1;
  uint32_t *d_keys, *d_values;
  cudaMalloc(&d_keys, n * 4), cudaMalloc(&d_values, n * 4);
  cudaMemcpy(d_keys, keys.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_values, values.data(), n * 4, cudaMemcpyHostToDevice);
  DeviceRecorder rec(n / 32, 3 * 32 * 2 + 16, 3 * 32 * 2 + 16);
  const DeviceRecorderRef ref = rec.ref();
  for (uint32_t fn : {uint32_t{kFnInsert}, uint32_t{kFnSearch}}) {  // build, then search every key
    SlabOpBatch ops;
    ops.uniform_fn = fn;
    ops.key = d_keys, ops.value = d_values, ops.count = n;
    slab_batch_kernel<P, true><<<n / threads, threads>>>(table.view<P>(), ops, ref, fn == kFnInsert ? 0 : n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  History h = expand(rec.download(explore::slab_header(Mode::Map, "test"), explore::slab_fn_names(Mode::Map), "gpu"));
  apply_result_shapes(h, explore::slab_result_shapes());
  ASSERT_EQ(h.ops.size(), 2u * n);
  const SearchResult r = check_search(h);
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable) << "a search that stops at the base slab was not caught";
  EXPECT_FALSE(r.message.empty());
  cudaFree(d_keys), cudaFree(d_values);
}

}  // namespace
}  // namespace gpulin
