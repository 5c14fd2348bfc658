// The slab hash on the GPU (structures/slab_hash/gpu/slab_hash_kernels.cu, warp actors): bulk build and
// search answers against a host map, deletes, every mode; recorded concurrent mixes
// checked linearizable and the table checked at rest; an allocator too small
// reports its failures instead of corrupting the table. Label `gpu`; skips without
// a device. The multimap's fixed variant (bucket_version.h) too: its duplicates
// kept in insertion order, its recorded mix checked.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

#include "structures/slab_hash/gpu/slab_hash_launch.h"
#include "structures/slab_hash/gpu/slab_stress.h"

namespace gpulin {
namespace {

using namespace slab_hash;

bool have_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

struct Buffer {
  uint32_t* p = nullptr;
  explicit Buffer(const std::vector<uint32_t>& h) {
    cudaMalloc(&p, std::max<size_t>(1, h.size()) * 4);
    cudaMemcpy(p, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  }
  std::vector<uint32_t> get(size_t n) const {
    std::vector<uint32_t> h(n);
    cudaMemcpy(h.data(), p, n * 4, cudaMemcpyDeviceToHost);
    return h;
  }
  ~Buffer() { cudaFree(p); }
};

// Runs every op of `keys` as `fn` and returns the search outputs.
std::vector<uint32_t> bulk(Mode mode, DeviceSlabHash& t, uint32_t fn, const std::vector<uint32_t>& keys,
                           const std::vector<uint32_t>& values = {}, Variant variant = Variant::Paper) {
  Buffer k(keys), v(values.empty() ? std::vector<uint32_t>(keys.size(), 0) : values),
      out(std::vector<uint32_t>(keys.size(), 0xABCDABCDu));
  SlabOpBatch ops;
  ops.uniform_fn = fn;
  ops.key = k.p;
  ops.value = v.p;
  ops.out = out.p;
  ops.count = keys.size();
  EXPECT_EQ(launch_slab_batch(mode, variant, t, ops, 128, nullptr), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  return out.get(keys.size());
}

class SlabOnGpu : public ::testing::TestWithParam<bool> {};

TEST_P(SlabOnGpu, MapBuildSearchDeleteMatchAHostMap) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  const uint32_t n = 1 << 20;
  SlabHashShape shape{n / 15 / 2, 4, 64, 64, 3};  // ~2 slabs a bucket at the end
  DeviceSlabHash t(shape, GetParam());
  std::mt19937 rng(5);
  std::unordered_map<uint32_t, uint32_t> host;
  std::vector<uint32_t> keys, values;
  while (keys.size() < n) {
    const uint32_t k = rng() % 0x7FFFFFFFu;
    if (host.emplace(k, static_cast<uint32_t>(keys.size())).second) keys.push_back(k), values.push_back(keys.size() - 1);
  }
  bulk(Mode::Map, t, kFnInsert, keys, values);
  // REPLACE of a present key keeps one pair with the new value.
  std::vector<uint32_t> again(keys.begin(), keys.begin() + n / 4), newer(n / 4);
  for (uint32_t i = 0; i < n / 4; ++i) newer[i] = 0x40000000u + i, host[again[i]] = newer[i];
  bulk(Mode::Map, t, kFnInsert, again, newer);
  const auto found = bulk(Mode::Map, t, kFnSearch, keys);
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < n; ++i) wrong += found[i] != host[keys[i]];
  EXPECT_EQ(wrong, 0u);
  // Searches go two at a time a warp: a batch whose last warp has an odd number of
  // them (the pair loop's tail), absent keys mixed in, answers as the host map.
  std::vector<uint32_t> mixed(keys.begin(), keys.begin() + n / 2 + 17);
  for (uint32_t i = 0; i < mixed.size(); i += 3) mixed[i] = 0x80000000u + i;
  const auto two = bulk(Mode::Map, t, kFnSearch, mixed);
  wrong = 0;
  for (uint32_t i = 0; i < mixed.size(); ++i) wrong += two[i] != (i % 3 ? host[mixed[i]] : kEmptyKey);
  EXPECT_EQ(wrong, 0u);
  std::vector<uint32_t> absent(n / 4);
  for (uint32_t i = 0; i < n / 4; ++i) absent[i] = 0x80000000u + i;
  for (uint32_t v : bulk(Mode::Map, t, kFnSearch, absent)) ASSERT_EQ(v, kEmptyKey);
  std::vector<uint32_t> gone(keys.begin() + n / 2, keys.end());
  bulk(Mode::Map, t, kFnDelete, gone);
  const auto after = bulk(Mode::Map, t, kFnSearch, keys);
  wrong = 0;
  for (uint32_t i = 0; i < n; ++i) wrong += after[i] != (i < n / 2 ? host[keys[i]] : kEmptyKey);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(t.failures(), 0u);
  // FLUSH keeps every live pair and frees slabs.
  const uint64_t before_flush = t.allocated_units();
  ASSERT_EQ(launch_slab_flush(Mode::Map, t, 128, nullptr), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_LT(t.allocated_units(), before_flush);
  const auto flushed = bulk(Mode::Map, t, kFnSearch, keys);
  wrong = 0;
  for (uint32_t i = 0; i < n; ++i) wrong += flushed[i] != (i < n / 2 ? host[keys[i]] : kEmptyKey);
  EXPECT_EQ(wrong, 0u);
}

INSTANTIATE_TEST_SUITE_P(Allocators, SlabOnGpu, ::testing::Values(true, false));

TEST(SlabOnGpuModes, SetContainsAndMultimapSearchAll) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  SlabHashShape shape{1024, 1, 64, 64, 9};
  DeviceSlabHash set(shape, true);
  std::vector<uint32_t> keys(100000);
  for (uint32_t i = 0; i < keys.size(); ++i) keys[i] = i * 7;
  bulk(Mode::Set, set, kFnInsert, keys);
  bulk(Mode::Set, set, kFnInsert, keys);  // inserting again changes nothing
  std::vector<uint32_t> probe(keys.size());
  for (uint32_t i = 0; i < probe.size(); ++i) probe[i] = i;
  const auto has = bulk(Mode::Set, set, kFnSearch, probe);
  for (uint32_t i = 0; i < probe.size(); ++i) ASSERT_EQ(has[i], i % 7 == 0 ? 1u : 0u) << "key " << i;

  DeviceSlabHash multi(shape, true);
  std::vector<uint32_t> dup(30000), vals(30000);
  for (uint32_t i = 0; i < dup.size(); ++i) dup[i] = i % 10000, vals[i] = i;  // three pairs a key
  bulk(Mode::Multimap, multi, kFnInsert, dup, vals);
  std::vector<uint32_t> ten(10000);
  for (uint32_t i = 0; i < ten.size(); ++i) ten[i] = i;
  for (uint32_t c : bulk(Mode::Multimap, multi, kFnSearchAll, ten)) ASSERT_EQ(c, 3u);
}

// The fixed multimap on the GPU: three pairs a key, inserted in three launches (so
// in that order), then one DELETE a key removes the least recent pair, and a
// fourth insert goes after the others (no spot is reused): SEARCH answers the
// second pair's value throughout, SEARCHALL counts 2, then 3. A fixed map or set
// is refused.
TEST(SlabOnGpuModes, FixedMultimapKeepsInsertionOrder) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  constexpr Variant kFixed = Variant::Fixed;
  DeviceSlabHash t(SlabHashShape{1024, 1, 64, 64, 9}, true);
  const uint32_t n = 10000;
  std::vector<uint32_t> keys(n), vals(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = i * 3;
  auto values = [&](uint32_t round) {
    for (uint32_t i = 0; i < n; ++i) vals[i] = round * n + i;
    return vals;
  };
  for (uint32_t round = 1; round <= 3; ++round) bulk(Mode::Multimap, t, kFnInsert, keys, values(round), kFixed);
  bulk(Mode::Multimap, t, kFnDelete, keys, {}, kFixed);
  auto found = bulk(Mode::Multimap, t, kFnSearch, keys, {}, kFixed);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(found[i], 2 * n + i) << "key " << keys[i];
  for (uint32_t c : bulk(Mode::Multimap, t, kFnSearchAll, keys, {}, kFixed)) ASSERT_EQ(c, 2u);
  bulk(Mode::Multimap, t, kFnInsert, keys, values(4), kFixed);
  found = bulk(Mode::Multimap, t, kFnSearch, keys, {}, kFixed);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(found[i], 2 * n + i) << "key " << keys[i];
  for (uint32_t c : bulk(Mode::Multimap, t, kFnSearchAll, keys, {}, kFixed)) ASSERT_EQ(c, 3u);
  bulk(Mode::Multimap, t, kFnDeleteAll, keys, {}, kFixed);
  for (uint32_t c : bulk(Mode::Multimap, t, kFnSearchAll, keys, {}, kFixed)) ASSERT_EQ(c, 0u);
  SlabOpBatch none;
  EXPECT_EQ(launch_slab_batch(Mode::Map, kFixed, t, none, 128, nullptr), cudaErrorInvalidValue);
}

TEST(SlabOnGpuAlloc, ATooSmallPoolReportsFailuresAndStaysSound) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  SlabHashShape shape{1, 1, 1, 4, 1};  // one bucket, 1024 slabs: about 15 000 pairs fit
  DeviceSlabHash t(shape, true);
  std::vector<uint32_t> keys(40000), values(40000);
  for (uint32_t i = 0; i < keys.size(); ++i) keys[i] = i, values[i] = i + 1;
  bulk(Mode::Map, t, kFnInsert, keys, values);
  EXPECT_GT(t.failures(), 0u);
  const auto found = bulk(Mode::Map, t, kFnSearch, keys);
  uint32_t present = 0;
  for (uint32_t i = 0; i < keys.size(); ++i) {
    if (found[i] == kEmptyKey) continue;
    ASSERT_EQ(found[i], i + 1) << "a key found with another key's value";
    ++present;
  }
  EXPECT_EQ(present, 1024u * 15u + 15u);  // every slab and the base slab full, nothing more
}

struct MixCase {
  const char* name;
  Mode mode;
  bool light;
  uint32_t buckets;
  uint64_t initial, ops;
  const char* recorder;  // what run_slab_stress must have recorded with
  Variant variant = Variant::Paper;
};
class SlabRecorded : public ::testing::TestWithParam<MixCase> {};

TEST_P(SlabRecorded, RecordedMixIsLinearizableAndTheTableSound) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  const MixCase& c = GetParam();
  stress::SlabStressOptions o;
  o.mode = c.mode;
  o.variant = c.variant;
  o.light = c.light;
  o.buckets = c.buckets;
  o.initial = c.initial;
  o.ops = c.ops;
  o.batch = 1 << 14;
  o.record = true;
  o.recorder = c.recorder;
  const stress::SlabStressResult r = stress::run_slab_stress(o);
  EXPECT_EQ(r.recorder, std::string(c.recorder) == "auto" ? "published" : c.recorder);
  EXPECT_EQ(r.ops, c.initial + c.ops);
  // inv and ret of every op that returned; lp events too unless by rounds.
  if (r.recorder == "warp-rounds" || r.recorder == "published") {
    EXPECT_EQ(r.events, 2 * r.ops - r.alloc_failures);
    if (r.recorder == "published") {
      EXPECT_GT(r.ticks, 0u);
    }
  } else {
    EXPECT_GT(r.events, 2 * r.ops);
  }
  for (const auto& f : r.failures) ADD_FAILURE() << f;
}

INSTANTIATE_TEST_SUITE_P(Mixes, SlabRecorded,
                         ::testing::Values(MixCase{"map_contended_published", Mode::Map, true, 64, 1 << 12, 1 << 16, "auto"},
                                           MixCase{"set_regular_published", Mode::Set, false, 4096, 1 << 14, 1 << 17, "published"},
                                           MixCase{"map_contended_rounds", Mode::Map, true, 64, 1 << 12, 1 << 16, "warp-rounds"},
                                           MixCase{"map_regular_rounds", Mode::Map, false, 4096, 1 << 14, 1 << 17, "warp-rounds"},
                                           MixCase{"set_contended_rounds", Mode::Set, true, 64, 1 << 12, 1 << 16, "warp-rounds"},
                                           MixCase{"map_contended", Mode::Map, true, 64, 1 << 12, 1 << 16, "key-clocks"},
                                           MixCase{"map_regular", Mode::Map, false, 4096, 1 << 14, 1 << 17, "key-clocks"},
                                           MixCase{"set_contended", Mode::Set, true, 64, 1 << 12, 1 << 16, "key-clocks"},
                                           MixCase{"map_contended_events", Mode::Map, true, 64, 1 << 12, 1 << 16, "events"},
                                           MixCase{"multimap_events", Mode::Multimap, true, 64, 1 << 12, 1 << 15, "events"},
                                           MixCase{"multimap_fixed_events", Mode::Multimap, true, 64, 1 << 12, 1 << 15,
                                                   "events", Variant::Fixed},
                                           MixCase{"multimap_fixed_regular", Mode::Multimap, false, 4096, 1 << 14,
                                                   1 << 16, "events", Variant::Fixed}),
                         [](const auto& info) { return std::string(info.param.name); });

// A mixed batch runs its inserts, deletes and searches as separate queues
// (structures/slab_hash/gpu/slab_hash_kernel.cuh): an operation the mode does not have (SEARCHALL in
// a map) would be run by none of them. The kernel refuses it instead: it traps,
// and the launch fails, rather than leave the operation undone. (This test traps
// on purpose: device.sh's sanitizer part leaves it out.)
TEST(SlabMixedBatch, AnOperationTheModeDoesNotHaveTraps) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  DeviceSlabHash t({64, 1, 4, 64, 1}, true);
  std::vector<uint32_t> fns(64, kFnSearch), keys(64);
  for (uint32_t i = 0; i < 64; ++i) keys[i] = i;
  fns[37] = kFnSearchAll;  // the multimap's
  Buffer f(fns), k(keys), v(std::vector<uint32_t>(64, 0)), out(std::vector<uint32_t>(64, 0));
  SlabOpBatch ops;
  ops.fn = f.p;
  ops.key = k.p;
  ops.value = v.p;
  ops.out = out.p;
  ops.count = 64;
  ASSERT_EQ(launch_slab_batch(Mode::Map, t, ops, 64, nullptr), cudaSuccess);
  const cudaError_t e = cudaDeviceSynchronize();
  EXPECT_NE(e, cudaSuccess) << "a map batch with a SEARCHALL completed";
  std::printf("trapped as expected: %s\n", cudaGetErrorString(e));
}

}  // namespace
}  // namespace gpulin
