// gpulin stress --gpus (tools/stress/multi_gpu.h): one heap on every GPU at once,
// or one slab hash partitioned over them, each run checked and counted. On a
// one-GPU machine the list is that GPU (and the partition is tested with two parts
// on it, one after the other); the 2-GPU measurement is in bench/results. Label
// `gpu`; skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "histories/jsonl_reader.h"
#include "tests/gpu/have_gpu.h"
#include "tests/tools/run_gpulin.h"
#include "tools/stress/gpu_list.h"
#include "structures/gheap/gpu/heap_multi_gpu.h"
#include "structures/slab_hash/gpu/slab_multi_gpu.h"

namespace gpulin::stress {
namespace {

namespace fs = std::filesystem;

int device_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

StressOptions small_recorded(const fs::path& out) {
  StressOptions o;
  o.blocks = 16;
  o.threads = 128;
  o.k = 64;
  o.keys = 1 << 15;
  o.record = true;
  o.out_dir = out.string();
  return o;
}

TEST(MultiGpuStress, EveryGpuRunsItsOwnCheckedHeap) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const fs::path out = fs::temp_directory_path() / ("gpulin_multi_gpu_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::vector<int> gpus = parse_gpu_list("all", device_count());
  const MultiGpuRun all = run_stress_on_gpus(small_recorded(out), gpus);
  ASSERT_EQ(all.runs.size(), gpus.size());
  std::set<uint64_t> seeds;
  for (const GpuRun& g : all.runs) {
    EXPECT_TRUE(g.error.empty()) << "GPU " << g.device << ": " << g.error;
    EXPECT_TRUE(g.result.failures.empty()) << "GPU " << g.device << ": " << g.result.failures.front();
    EXPECT_GT(g.result.ops, 0u);
    seeds.insert(g.options.seed);
    // Each GPU's history in its own folder, its header naming that GPU.
    ASSERT_FALSE(g.result.history_path.empty());
    EXPECT_EQ(fs::path(g.result.history_path).parent_path(), out / ("gpu-" + std::to_string(g.device)));
    const History h = read_history_file(g.result.history_path);
    EXPECT_EQ(h.ops.size(), g.result.ops);
    std::ifstream in(g.result.history_path);
    std::string header;
    std::getline(in, header);
    EXPECT_NE(header.find(g.name), std::string::npos) << header;
  }
  EXPECT_EQ(seeds.size(), gpus.size()) << "the GPUs ran the same workload";
  fs::remove_all(out);
}

// A failing run is counted as a failure, not lost among passing ones.
TEST(MultiGpuStress, AFailingRunIsReported) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  StressOptions o = small_recorded("");
  o.plant_bad_delete = true;
  const MultiGpuRun all = run_stress_on_gpus(o, parse_gpu_list("all", device_count()));
  for (const GpuRun& g : all.runs) {
    EXPECT_TRUE(g.error.empty()) << g.error;
    EXPECT_FALSE(g.result.failures.empty()) << "GPU " << g.device << ": the planted bad delete went unseen";
  }
}

TEST(MultiGpuStress, TheCommandSummarisesEveryGpu) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const cli_test::CliResult r =
      cli_test::run_gpulin("stress --gpus all --blocks 16 --threads 128 --k 64 --keys 32768 --record");
  std::printf("%s", r.out.c_str());
  EXPECT_EQ(r.code, 0) << r.err;
  const int n = device_count();
  EXPECT_NE(r.out.find(std::to_string(n) + " GPUs: " + std::to_string(n) + " pass, 0 FAIL, 0 error"),
            std::string::npos);
}

SlabStressOptions small_slab(const fs::path& out) {
  SlabStressOptions s;
  s.buckets = 1 << 12;
  s.initial = 1 << 15;
  s.ops = 1 << 17;
  s.batch = 1 << 15;
  s.record = true;
  s.out_dir = out.string();
  return s;
}

// Two parts of one table, one after the other on one GPU: each passes its checks,
// and together they hold the whole workload, every key in one part.
TEST(MultiGpuStress, SlabPartsTogetherHoldTheWholeWorkload) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  SlabStressOptions s = small_slab("");
  uint64_t built = 0, mixed = 0;
  for (uint32_t part = 0; part < 2; ++part) {
    s.part = part;
    s.parts = 2;
    const SlabStressResult r = run_slab_stress(s);
    EXPECT_TRUE(r.failures.empty()) << "part " << part << ": " << r.failures.front();
    EXPECT_GT(r.mix_ops, s.ops / 3) << "part " << part << " is far from half";
    built += r.build_ops;
    mixed += r.mix_ops;
  }
  EXPECT_EQ(built, s.initial);
  EXPECT_EQ(mixed, s.ops);
  s.part = 2;
  EXPECT_THROW(run_slab_stress(s), std::invalid_argument);
}

TEST(MultiGpuStress, SlabHashPartitionedOverEveryGpu) {
  if (!test::have_gpu()) GTEST_SKIP() << "no CUDA device";
  const fs::path out = fs::temp_directory_path() / ("gpulin_multi_gpu_slab_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const std::vector<int> gpus = parse_gpu_list("all", device_count());
  const SlabStressOptions s = small_slab(out);
  const MultiGpuSlabRun all = run_slab_on_gpus(s, gpus);
  ASSERT_EQ(all.runs.size(), gpus.size());
  uint64_t mixed = 0;
  for (const SlabGpuRun& g : all.runs) {
    EXPECT_TRUE(g.error.empty()) << "GPU " << g.device << ": " << g.error;
    EXPECT_TRUE(g.result.failures.empty()) << "GPU " << g.device << ": " << g.result.failures.front();
    EXPECT_EQ(g.options.parts, gpus.size());
    EXPECT_EQ(fs::path(g.result.history_path).parent_path(), out / ("gpu-" + std::to_string(g.device)));
    mixed += g.result.mix_ops;
  }
  EXPECT_EQ(mixed, s.ops);
  const cli_test::CliResult r = cli_test::run_gpulin(
      "stress --structure slab-map --gpus all --buckets 4096 --initial 32768 --ops 131072 --batch 32768 --record");
  std::printf("%s", r.out.c_str());
  EXPECT_EQ(r.code, 0) << r.err;
  const int n = device_count();
  EXPECT_NE(r.out.find(std::to_string(n) + " GPUs: " + std::to_string(n) + " pass, 0 FAIL, 0 error"),
            std::string::npos);
  fs::remove_all(out);
}

}  // namespace
}  // namespace gpulin::stress
