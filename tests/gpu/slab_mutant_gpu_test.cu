// A planted bug on the GPU is rejected: this test (and only it) instantiates the
// slab hash's kernel with the mutant slab-search-first-slab (SEARCH stops after the
// base slab). With 16 buckets the lists are long, so searches for keys further down
// miss; the recorded history must be judged not linearizable, with the failing key
// named, whichever recorder wrote it (events, key clocks, warp rounds, a published
// clock). Beside them, the mixed kernel's own guard: a batch on a grid that does not
// cover it traps. Label `gpu`; skips without a device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>

#include <vector>

#include "structures/slab_hash/gpu/slab_hash_kernel.cuh"
#include "histories/device_recorder.h"
#include "histories/key_clock_recorder.h"
#include "histories/rules.h"
#include "histories/result_shapes.h"
#include "structures/slab_hash/sim/slab_program.h"
#include "verify/keyed_linear/keyed_check.h"
#include "verify/search_checker.h"

namespace gpulin {
namespace {

using namespace slab_hash;

using P = SlabPolicy<Mode::Map, true, Mutant::SearchFirstSlab>;
constexpr uint32_t kOps = 4096, kThreads = 128;

bool have_gpu() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

// Builds keys 0 .. kOps - 1 into 16 buckets, then searches every key: two
// launches, `launch(fn, ops, op_id_base)` runs each.
template <class Launch>
void build_then_search(Launch&& launch) {
  std::vector<uint32_t> keys(kOps), values(kOps);
  for (uint32_t i = 0; i < kOps; ++i) keys[i] = i, values[i] = i + 1;
  uint32_t *d_keys, *d_values;
  cudaMalloc(&d_keys, kOps * 4), cudaMalloc(&d_values, kOps * 4);
  cudaMemcpy(d_keys, keys.data(), kOps * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_values, values.data(), kOps * 4, cudaMemcpyHostToDevice);
  for (uint32_t fn : {uint32_t{kFnInsert}, uint32_t{kFnSearch}}) {
    SlabOpBatch ops;
    ops.uniform_fn = fn;
    ops.key = d_keys, ops.value = d_values, ops.count = kOps;
    launch(ops, fn == kFnInsert ? 0 : kOps);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  cudaFree(d_keys), cudaFree(d_values);
}

void expect_rejected(History h) {
  apply_result_shapes(h, explore::slab_result_shapes());
  ASSERT_EQ(h.ops.size(), 2u * kOps);
  const SearchResult r = check_search(h);
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable) << "a search that stops at the base slab was not caught";
  EXPECT_FALSE(r.message.empty());
}

TEST(SlabMutantOnGpu, SearchFirstSlabIsRejected) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  DeviceSlabHash table({16, 1, 4, 64, 1}, true);
  DeviceRecorder rec(kOps / 32, 3 * 32 * 2 + 16, 3 * 32 * 2 + 16);
  const DeviceRecorderRef ref = rec.ref();
  build_then_search([&](const SlabOpBatch& ops, int64_t base) {
    slab_batch_kernel<P, SlabRecording::kEvents><<<kOps / kThreads, kThreads>>>(table.view<P>(), ops, ref, {}, base);
  });
  expect_rejected(expand(rec.download(explore::slab_header(Mode::Map, "test"), explore::slab_fn_names(Mode::Map), "gpu")));
}

TEST(SlabMutantOnGpu, SearchFirstSlabIsRejectedByKeyClocks) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  DeviceSlabHash table({16, 1, 4, 64, 1}, true);
  KeyClockRecorder rec(2 * kOps);
  build_then_search([&](const SlabOpBatch& ops, int64_t base) {
    slab_batch_kernel<P, SlabRecording::kKeyClocks>
        <<<kOps / kThreads, kThreads>>>(table.view<P>(), ops, {}, rec.next_launch(), base);
  });
  KeyHistory k = rec.download(2 * kOps, explore::slab_header(Mode::Map, "test"), explore::slab_fn_names(Mode::Map), "gpu");
  check_header(k.header, k.source, 0);  // "order": "per-key" on a map
  check_events(k.events, k.source);
  expect_rejected(expand(k));
}

// The calls of build_then_search's two launches, in op id order (a published
// clock's records leave them out).
std::vector<PublishedCall> build_then_search_calls() {
  std::vector<PublishedCall> calls;
  for (int launch = 0; launch < 2; ++launch)
    for (uint32_t i = 0; i < kOps; ++i) calls.push_back({i, i + 1});
  return calls;
}

// Recorded with no lp events (warp rounds, a published clock): the
// rets' order fails on the keys the mutant missed, and the search on them finds
// no linearization. `blocks`: the launch's working blocks (fewer than the batch's
// kOps / kThreads: each warp runs several rounds of its grid-stride loop).
template <SlabRecording R>
void expect_rejected_without_lps(KeyClockRecorder rec, uint32_t blocks = kOps / kThreads) {
  DeviceSlabHash table({16, 1, 4, 64, 1}, true);
  build_then_search([&](const SlabOpBatch& ops, int64_t base) {
    slab_batch_kernel<P, R><<<slab_batch_grid<R>(blocks), kThreads>>>(table.view<P>(), ops, {}, rec.next_launch(), base);
  });
  const Header header = explore::slab_header(Mode::Map, "test");
  const auto fns = explore::slab_fn_names(Mode::Map);
  KeyHistory k = R == SlabRecording::kPublished ? rec.download_published(2 * kOps, build_then_search_calls(), header, fns, "gpu")
                                                : rec.download(2 * kOps, header, fns, "gpu");
  if (R == SlabRecording::kPublished) EXPECT_GT(rec.published_ticks(), 0u);
  EXPECT_TRUE(k.header.lp_rule.empty());
  check_header(k.header, k.source, 0);
  check_events(k.events, k.source);
  KeyHistory shaped = k;  // the keyed check reads a search's one word as its value
  apply_result_shapes(shaped, explore::slab_result_shapes());
  const KeyedCheckResult r = check_keyed_linear(shaped);
  EXPECT_EQ(r.verdict, Verdict::NotLinearizable);
  EXPECT_FALSE(r.failing_keys.empty());
  expect_rejected(expand(k));
}

TEST(SlabMutantOnGpu, SearchFirstSlabIsRejectedByWarpRounds) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  expect_rejected_without_lps<SlabRecording::kWarpRounds>(KeyClockRecorder::warp_rounds(2 * kOps));
}

TEST(SlabMutantOnGpu, SearchFirstSlabIsRejectedByAPublishedClock) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  expect_rejected_without_lps<SlabRecording::kPublished>(KeyClockRecorder::published(2 * kOps));
}

// Two working blocks: each warp runs 16 rounds of its grid-stride loop a launch, each
// round its own inv and ret; every record is written and the history is judged as
// above.
TEST(SlabMutantOnGpu, SearchFirstSlabIsRejectedByAPublishedClockOverRounds) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  expect_rejected_without_lps<SlabRecording::kPublished>(KeyClockRecorder::published(2 * kOps), 2);
}

// A published clock's ticker whose log fills up keeps ticking (the launch ends) and
// says so; the history is refused, not assembled with rets left unpublished. (The
// mutant's kernel serves here as any other would.)
// An unrecorded mixed batch runs one round a thread (slab_hash_kernel.cuh): on a
// grid that does not cover its batch it traps rather than leave the rest undone.
// (This test traps on purpose, as SlabMixedBatch.AnOperationTheModeDoesNotHaveTraps.)
TEST(SlabMixedBatchOnGpu, AGridThatDoesNotCoverTheBatchTraps) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  using Map = SlabPolicy<Mode::Map>;
  DeviceSlabHash table({16, 1, 4, 64, 1}, true);
  std::vector<uint32_t> fns(kOps, kFnSearch), keys(kOps);
  for (uint32_t i = 0; i < kOps; ++i) keys[i] = i;
  uint32_t *d_fns, *d_keys, *d_out;
  cudaMalloc(&d_fns, kOps * 4), cudaMalloc(&d_keys, kOps * 4), cudaMalloc(&d_out, kOps * 4);
  cudaMemcpy(d_fns, fns.data(), kOps * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_keys, keys.data(), kOps * 4, cudaMemcpyHostToDevice);
  SlabOpBatch ops;
  ops.fn = d_fns, ops.key = d_keys, ops.out = d_out, ops.count = kOps;
  // Half the grid the batch needs.
  slab_batch_kernel<Map, SlabRecording::kNone><<<kOps / kThreads / 2, kThreads>>>(table.view<Map>(), ops, {}, {}, 0);
  const cudaError_t e = cudaDeviceSynchronize();
  EXPECT_NE(e, cudaSuccess) << "a mixed batch on half its grid completed";
  std::printf("trapped as expected: %s\n", cudaGetErrorString(e));
}

TEST(PublishedClockOnGpu, AFullTickLogIsRefused) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  KeyClockRecorder rec = KeyClockRecorder::published(2 * kOps, /*tick_cap=*/2);
  DeviceSlabHash table({16, 1, 4, 64, 1}, true);
  constexpr SlabRecording kPub = SlabRecording::kPublished;
  build_then_search([&](const SlabOpBatch& ops, int64_t base) {
    slab_batch_kernel<P, kPub>
        <<<slab_batch_grid<kPub>(kOps / kThreads), kThreads>>>(table.view<P>(), ops, {}, rec.next_launch(), base);
  });
  EXPECT_GE(rec.published_ticks(), 2u);
  try {
    rec.download_published(2 * kOps, build_then_search_calls(), explore::slab_header(Mode::Map, "test"),
                           explore::slab_fn_names(Mode::Map), "gpu");
    ADD_FAILURE() << "a history with lost sightings was assembled";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("the ticker's log was full"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpulin
