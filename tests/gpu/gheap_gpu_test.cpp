// The generalized heap on the GPU: small and medium runs of both heaps under the
// workload shapes of `gpulin stress`, recorded and checked (witness of the heap's
// rule, invariant, nothing lost or invented), with 32-bit keys and with 64-bit keys
// (drawn from [0, 2^63): their own kernels, recorder words and checks).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "histories/key_history_reader.h"
#include "structures/gheap/gpu/heap_stress.h"
#include "common/cuda_support.h"
#include "structures/gheap/gpu/device_workload.h"
#include "structures/gheap/gpu/workload.h"

namespace gpulin {
namespace {

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

// The keys gpulin stress draws on the GPU, phase by phase, are the host reference's
// (make_workload): same operations, same keys in the same slots, MAX in the rest.
template <class Key>
void expect_device_workload_is_the_hosts(const std::string& spec) {
  SCOPED_TRACE(spec + (sizeof(Key) == 4 ? " 32-bit" : " 64-bit"));
  const uint32_t k = 16;
  const stress::Workload<Key> host = stress::make_workload<Key>(spec, 5000, k, 4, 11);
  const stress::DeviceWorkload<Key> dev(stress::plan_workload(spec, 5000, k, 4, 11), 11);
  ASSERT_EQ(dev.shape().phases.size(), host.phases.size());
  for (size_t p = 0; p < host.phases.size(); ++p) {
    const stress::DevicePhase<Key> d = dev.phase(p);
    EXPECT_EQ(cuda_support::download(d.fn.get(), d.ops), host.phases[p].fn);
    EXPECT_EQ(cuda_support::download(d.n.get(), d.ops), host.phases[p].n);
    EXPECT_EQ(cuda_support::download(d.keys.get(), d.keys.size()), host.phases[p].keys);
    EXPECT_EQ(d.inserted_keys, host.phases[p].inserted_keys);
  }
}

TEST(HeapWorkloadOnGpu, DrawsTheKeysOfTheHostReference) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  for (const char* spec : {"random", "ascend", "descend", "partial:30", "insdel:3"}) {
    expect_device_workload_is_the_hosts<uint32_t>(spec);
    expect_device_workload_is_the_hosts<uint64_t>(spec);
  }
}

struct Case {
  const char* name;
  gheap::Flavor flavor;
  uint32_t blocks, threads, k;
  const char* workload;
  uint64_t keys;
  uint32_t key_bits = 32;
  const char* check = "device";  // where the checks run (--check)
};

class HeapOnGpu : public ::testing::TestWithParam<Case> {};

TEST_P(HeapOnGpu, RecordedRunPassesEveryCheck) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  const Case& c = GetParam();
  stress::StressOptions o;
  o.flavor = c.flavor;
  o.variant = gheap::Variant::Fixed;
  o.blocks = c.blocks;
  o.threads = c.threads;
  o.k = c.k;
  o.workload = c.workload;
  o.keys = c.keys;
  o.key_bits = c.key_bits;
  o.check = c.check;
  o.record = true;
  const stress::StressResult r = stress::run_stress(o);
  SCOPED_TRACE(std::string(c.workload) + ", " + std::to_string(c.key_bits) + "-bit keys, checked on the " + c.check);
  EXPECT_GT(r.events, 0u);
  EXPECT_EQ(r.inserted_keys, r.deleted_keys) << "every workload drains the heap";
  EXPECT_GT(r.deleted_keys, 0u);
  for (const auto& f : r.failures) ADD_FAILURE() << f;
}

constexpr auto TD = gheap::Flavor::TopDown;
constexpr auto BU = gheap::Flavor::BottomUp;
INSTANTIATE_TEST_SUITE_P(
    Shapes, HeapOnGpu,
    ::testing::Values(Case{"td_small_random", TD, 16, 64, 16, "random", 1 << 13},
                      Case{"td_small_partial", TD, 16, 64, 16, "partial:40", 1 << 13},
                      Case{"td_small_insdel", TD, 16, 64, 16, "insdel:5", 1 << 13},
                      Case{"td_medium_random", TD, 128, 512, 1024, "random", 1 << 20},
                      Case{"td_medium_descend", TD, 128, 512, 1024, "descend", 1 << 20},
                      Case{"td_medium_partial", TD, 128, 512, 1024, "partial:20", 1 << 20},
                      Case{"td_medium_insdel", TD, 128, 512, 1024, "insdel:8", 1 << 20},
                      Case{"bu_small_random", BU, 16, 64, 16, "random", 1 << 13},
                      Case{"bu_small_partial", BU, 16, 64, 16, "partial:40", 1 << 13},
                      Case{"bu_medium_random", BU, 128, 512, 1024, "random", 1 << 20},
                      Case{"bu_medium_descend", BU, 128, 512, 1024, "descend", 1 << 20},
                      Case{"bu_medium_partial", BU, 128, 512, 1024, "partial:20", 1 << 20},
                      // Inserts and deletes in flight together: the earlier fixed BU
                      // heap failed these on an H200 (docs/findings.md F9).
                      Case{"bu_small_insdel", BU, 16, 64, 16, "insdel:5", 1 << 13},
                      Case{"bu_medium_insdel", BU, 128, 512, 1024, "insdel:8", 1 << 20},
                      // 64-bit keys: the uint64_t kernels, 64-bit recorder words,
                      // the GPU check's 64-bit tuples; and the host path (its
                      // per-key check packs keys beside positions and cannot take
                      // keys spread over 2^63, so the replay decides there).
                      Case{"td_small_random_key64", TD, 16, 64, 16, "random", 1 << 13, 64},
                      Case{"td_small_insdel_key64", TD, 16, 64, 16, "insdel:5", 1 << 13, 64},
                      Case{"td_small_random_key64_host", TD, 16, 64, 16, "random", 1 << 13, 64, "host"},
                      Case{"td_medium_random_key64", TD, 128, 512, 1024, "random", 1 << 20, 64},
                      Case{"td_medium_partial_key64", TD, 128, 512, 1024, "partial:20", 1 << 20, 64},
                      Case{"td_medium_insdel_key64", TD, 128, 512, 1024, "insdel:8", 1 << 20, 64},
                      Case{"bu_small_random_key64", BU, 16, 64, 16, "random", 1 << 13, 64},
                      Case{"bu_small_insdel_key64", BU, 16, 64, 16, "insdel:5", 1 << 13, 64},
                      Case{"bu_small_partial_key64_host", BU, 16, 64, 16, "partial:40", 1 << 13, 64, "host"},
                      Case{"bu_medium_descend_key64", BU, 128, 512, 1024, "descend", 1 << 20, 64},
                      Case{"bu_medium_insdel_key64", BU, 128, 512, 1024, "insdel:8", 1 << 20, 64}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// A small recorded run of `flavor` whose history goes to the temporary folder `dir`.
stress::StressOptions small_recorded_run(gheap::Flavor flavor, const char* workload, const char* dir) {
  stress::StressOptions o;
  o.flavor = flavor;
  o.blocks = 16;
  o.threads = 64;
  o.k = 16;
  o.workload = workload;
  o.keys = 1 << 12;
  o.record = true;
  o.out_dir = (std::filesystem::temp_directory_path() / dir).string();
  return o;
}

// The history of a recorded 64-bit run, written and read back, holds exactly the
// workload's keys: the inserts' arguments are the keys drawn (as a multiset), and
// every delete returns keys drawn. Most keys lie above 2^32, so a key narrowed to
// 32 bits on the way (kernel, recorder, download, JSON) would be missing here.
TEST(HeapOnGpuKey64, HistoryCarriesTheWorkloadKeysWhole) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  for (const gheap::Flavor flavor : {TD, BU}) {
    stress::StressOptions o = small_recorded_run(flavor, "partial:30", "gpulin-gheap-key64");
    o.key_bits = 64;
    const stress::StressResult r = stress::run_stress(o);
    SCOPED_TRACE(flavor == TD ? "gheap-td" : "gheap-bu");
    for (const auto& f : r.failures) ADD_FAILURE() << f;
    ASSERT_FALSE(r.history_path.empty());
    const KeyHistory h = read_key_history_file(r.history_path);

    std::vector<int64_t> drawn;
    for (const auto& p : stress::make_workload<uint64_t>(o.workload, o.keys, o.k, o.blocks, o.seed).phases)
      for (size_t i = 0; i < p.fn.size(); ++i)
        for (uint32_t j = 0; j < p.n[i]; ++j) drawn.push_back(static_cast<int64_t>(p.keys[i * o.k + j]));
    std::vector<int64_t> args, returned;
    for (const KeyOp& op : h.ops) {
      if (h.fn_name(op) == "ins") args.insert(args.end(), h.begin_of(op.args()), h.end_of(op.args()));
      if (h.fn_name(op) == "del") returned.insert(returned.end(), h.begin_of(op.res()), h.end_of(op.res()));
    }
    std::sort(drawn.begin(), drawn.end());
    std::sort(args.begin(), args.end());
    std::sort(returned.begin(), returned.end());
    ASSERT_EQ(drawn.size(), o.keys);
    EXPECT_TRUE(args == drawn) << "the recorded inserts do not carry the drawn keys; first drawn " << drawn.front()
                               << ", first recorded " << (args.empty() ? -1 : args.front());
    EXPECT_TRUE(returned == drawn) << "the recorded deletes do not return the drawn keys (the workload drains the heap)";
    const auto above32 = std::count_if(drawn.begin(), drawn.end(), [](int64_t v) { return v >> 32 != 0; });
    EXPECT_GT(above32, static_cast<long>(drawn.size() * 99 / 100));
  }
}

// What a recorded run holds of the locks: by default (the root-release rule) the
// root's holds alone, numbered on the root; with --holds all every node's. Both
// runs pass every check; the header says which.
TEST(HeapOnGpu, RecordsTheRootsHoldsAloneUnlessAskedForAll) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  for (const gheap::Flavor flavor : {TD, BU}) {
    for (const auto holds : {stress::StressOptions::Holds::Root, stress::StressOptions::Holds::All}) {
      const bool root = holds == stress::StressOptions::Holds::Root;
      stress::StressOptions o = small_recorded_run(flavor, "insdel:5", "gpulin-gheap-holds");
      o.holds = holds;
      const stress::StressResult r = stress::run_stress(o);
      SCOPED_TRACE(std::string(flavor == TD ? "gheap-td" : "gheap-bu") + (root ? ", root holds" : ", all holds"));
      for (const auto& f : r.failures) ADD_FAILURE() << f;
      ASSERT_FALSE(r.history_path.empty());
      const KeyHistory h = read_key_history_file(r.history_path);
      size_t root_holds = 0, other_holds = 0;
      for (const Event& e : h.events)
        if (e.kind == EventKind::Acq || e.kind == EventKind::Rel) ++(e.node == 1 ? root_holds : other_holds);
      EXPECT_GE(root_holds, 2 * h.ops.size()) << "every operation holds the root once at least";
      if (root) {
        EXPECT_EQ(other_holds, 0u);
      } else {
        EXPECT_GT(other_holds, root_holds);
      }
      const auto field = std::find_if(h.header.extra.begin(), h.header.extra.end(),
                                      [](const auto& kv) { return kv.first == "holds"; });
      ASSERT_NE(field, h.header.extra.end());
      EXPECT_EQ(field->second, root ? "\"node 1 only\"" : "\"every node\"");
    }
  }
}

}  // namespace
}  // namespace gpulin
