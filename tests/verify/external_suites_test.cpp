// The search checker against verdicts nobody on this project chose: Porcupine's
// test suites (../shared/external/README.md). Jepsen etcd logs of one register,
// and Porcupine's key-value histories, with partitioning by key on and off.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>

#include "histories/import_jepsen_etcd.h"
#include "histories/import_porcupine_kv.h"
#include "verify/search_checker.h"

namespace gpulin {
namespace {

const std::string kExternal = std::string(GPULIN_SHARED_DIR) + "/external/porcupine";

// --- jepsen/etcd_000.log .. etcd_102.log ---

// The README's list of linearizable logs; every other one is not, but for
// etcd_095, which is empty and has no verdict.
const std::set<int> kEtcdLinearizable = {2,  5,  7,  18, 25, 31, 38, 45, 48,  49,  51, 53,
                                         56, 67, 75, 76, 80, 87, 92, 98, 100, 101, 102};
constexpr int kEtcdEmpty = 95;

class EtcdLog : public ::testing::TestWithParam<int> {};

TEST_P(EtcdLog, HasItsPublishedVerdict) {
  const int n = GetParam();
  char name[32];
  std::snprintf(name, sizeof name, "etcd_%03d.log", n);
  const std::string path = kExternal + "/jepsen/" + name;
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  const History h = import_jepsen_etcd(path);
  if (n == kEtcdEmpty) {
    EXPECT_TRUE(h.ops.empty());
    GTEST_SKIP() << name << " is empty and has no published verdict";
  }
  const auto t0 = std::chrono::steady_clock::now();
  const SearchResult r = check_search(h);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Verdict expected = kEtcdLinearizable.count(n) ? Verdict::Linearizable : Verdict::NotLinearizable;
  EXPECT_EQ(r.verdict, expected) << name << ": " << r.message;
  std::printf("%s: %zu ops, %s, %llu states, %.3f s\n", name, h.ops.size(), to_string(r.verdict),
              static_cast<unsigned long long>(r.states_explored), s);
}

INSTANTIATE_TEST_SUITE_P(Porcupine, EtcdLog, ::testing::Range(0, 103),
                         [](const ::testing::TestParamInfo<int>& i) { return "etcd_" + std::to_string(i.param); });

// --- kv/c01-ok.txt .. c50-bad.txt ---

struct KvCase {
  std::string file;
  bool linearizable;
  bool partition;
  // Without partitioning, the 50-client histories are beyond this search (and
  // Porcupine's): every interleaving of ten keys' states is a configuration of
  // its own. They run under a budget; Undecided is then an allowed answer, a
  // wrong verdict never is.
  uint64_t max_states = 0;
};

class KvLog : public ::testing::TestWithParam<KvCase> {};

TEST_P(KvLog, HasItsPublishedVerdict) {
  const KvCase c = GetParam();
  const History h = import_porcupine_kv(kExternal + "/kv/" + c.file);
  SearchOptions opt;
  opt.partition = c.partition;
  opt.max_states = c.max_states;
  const auto t0 = std::chrono::steady_clock::now();
  const SearchResult r = check_search(h, opt);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Verdict expected = c.linearizable ? Verdict::Linearizable : Verdict::NotLinearizable;
  if (c.max_states && r.verdict == Verdict::Undecided) {
    // Undecided only because a budget ran out, never a wrong verdict.
    EXPECT_NE(r.budget, BudgetExhausted::None) << r.message;
  } else {
    EXPECT_EQ(r.verdict, expected) << c.file << ": " << r.message;
  }
  std::printf("%s (partition %s): %zu ops, %zu partitions, %s, %llu states, %.3f s\n", c.file.c_str(),
              c.partition ? "on" : "off", h.ops.size(), r.partitions, to_string(r.verdict),
              static_cast<unsigned long long>(r.states_explored), s);
}

std::vector<KvCase> kv_cases() {
  std::vector<KvCase> out;
  for (const char* clients : {"c01", "c10", "c50"})
    for (bool ok : {true, false})
      for (bool partition : {true, false}) {
        const bool budget = !partition && std::string(clients) == "c50";
        out.push_back({std::string(clients) + (ok ? "-ok.txt" : "-bad.txt"), ok, partition, budget ? 100'000u : 0u});
      }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Porcupine, KvLog, ::testing::ValuesIn(kv_cases()), [](const ::testing::TestParamInfo<KvCase>& i) {
  std::string name = i.param.file.substr(0, i.param.file.find('.'));
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name + (i.param.partition ? "_partitioned" : "_whole");
});

}  // namespace
}  // namespace gpulin
