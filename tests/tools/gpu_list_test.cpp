// `gpulin stress --gpus LIST`: "all" and device numbers, and every way a list can be
// wrong (an unknown device, a repeat, not a number, no device at all); the slab
// hash's partition of keys over the GPUs.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <random>
#include <vector>

#include "tools/stress/gpu_list.h"
#include "structures/slab_hash/gpu/slab_stress.h"

namespace gpulin::stress {
namespace {

std::string error_of(const std::string& spec, int available) {
  try {
    parse_gpu_list(spec, available);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(GpuList, AllAndNumbers) {
  EXPECT_EQ(parse_gpu_list("all", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_gpu_list("all", 1), (std::vector<int>{0}));
  EXPECT_EQ(parse_gpu_list("1", 2), (std::vector<int>{1}));
  EXPECT_EQ(parse_gpu_list("1,0", 2), (std::vector<int>{1, 0}));  // the order given
  EXPECT_EQ(parse_gpu_list("0,3,7", 8), (std::vector<int>{0, 3, 7}));
}

TEST(GpuList, WrongListsSayWhy) {
  EXPECT_NE(error_of("2", 2).find("device 2 does not exist (2 devices: 0..1)"), std::string::npos) << error_of("2", 2);
  EXPECT_NE(error_of("0,0", 2).find("device 0 is named twice"), std::string::npos);
  EXPECT_NE(error_of("x", 2).find("'x' is not a device number"), std::string::npos);
  EXPECT_NE(error_of("0,", 2).find("'' is not a device number"), std::string::npos);
  EXPECT_NE(error_of("", 2).find("is not a device number"), std::string::npos);
  EXPECT_NE(error_of("-1", 2).find("is not a device number"), std::string::npos);
  EXPECT_NE(error_of("all", 0).find("no CUDA device"), std::string::npos);
  EXPECT_NE(error_of("0", 0).find("no CUDA device"), std::string::npos);
}

// Every key in exactly one part, and the parts about even, for the keys a slab
// workload draws: fresh ones below 2^31 and absent ones above.
TEST(SlabPartition, EveryKeyInOnePartAndThePartsEven) {
  std::mt19937_64 rng(7);
  for (uint32_t parts : {1u, 2u, 3u, 8u}) {
    std::vector<uint64_t> count(parts, 0);
    const uint32_t n = 200000;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t key = i % 2 ? static_cast<uint32_t>(rng() >> 33) : 0x80000000u + static_cast<uint32_t>(rng() % 0x7FFFFFF0u);
      const uint32_t p = slab_partition(key, parts);
      ASSERT_LT(p, parts);
      EXPECT_EQ(p, slab_partition(key, parts));
      ++count[p];
    }
    for (uint32_t p = 0; p < parts; ++p) {
      EXPECT_GT(count[p], n / parts * 95 / 100) << p << " of " << parts;
      EXPECT_LT(count[p], n / parts * 105 / 100) << p << " of " << parts;
    }
  }
}

}  // namespace
}  // namespace gpulin::stress
