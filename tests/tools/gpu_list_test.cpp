// `gpulin stress --gpus LIST`: "all" and device numbers, and every way a list can be
// wrong (an unknown device, a repeat, not a number, no device at all).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tools/stress/gpu_list.h"

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

}  // namespace
}  // namespace gpulin::stress
