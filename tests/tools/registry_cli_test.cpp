// The registry through the command (tools/registry/): `gpulin list` shows every
// structure and model; the template structure explores, fails with its mutant and
// replays like the built-in ones; an option another structure owns is refused by
// name; the survey runs a row per registered structure and variant; every one
// writes shared memory through its context and runs under DPOR.
#include <gtest/gtest.h>

#include <string>

#include "tests/tools/run_gpulin.h"

namespace {

using namespace cli_test;

const char* const kStructures[] = {"gheap-td", "gheap-bu",    "merge",         "slab-map", "slab-set",
                                   "slab-multimap", "psync", "bucket-heap", "counter-array"};

TEST(RegistryCli, ListShowsEveryStructureAndModel) {
  const CliResult r = gpulin("list");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : kStructures) EXPECT_NE(r.out.find("\n" + std::string(s) + "  "), std::string::npos) << s;
  for (const char* m : {"pq-batch", "psync-pq", "bucket-pq", "map", "multimap", "set", "register", "kv", "counters"})
    EXPECT_NE(r.out.find("  " + std::string(m) + " "), std::string::npos) << m;
  EXPECT_NE(r.out.find("lost-update"), std::string::npos);           // the template's mutant
  EXPECT_NE(r.out.find("gpulin stress --structure psync"), std::string::npos);
}

TEST(RegistryCli, TheTemplateExploresFailsWithItsMutantAndReplays) {
  const CliResult pass = gpulin("explore --structure counter-array --schedules 300");
  EXPECT_EQ(pass.code, 0) << pass.out << pass.err;
  EXPECT_NE(pass.out.find("counter-array "), std::string::npos) << pass.out;

  const CliResult fail = gpulin("explore --structure counter-array --mutant lost-update --counters 1 --schedules 2000");
  ASSERT_EQ(fail.code, 1) << fail.out << fail.err;
  const std::string marker = "replay: gpulin replay --schedule '";
  const size_t at = fail.out.find(marker);
  ASSERT_NE(at, std::string::npos) << fail.out;
  EXPECT_NE(fail.out.find("first violation"), std::string::npos) << fail.out;
  const size_t begin = at + marker.size();
  const std::string schedule = fail.out.substr(begin, fail.out.find('\'', begin) - begin);
  EXPECT_EQ(schedule.rfind("counter-array:mutant=lost-update", 0), 0u) << schedule;

  const CliResult again = gpulin("replay --schedule " + quote(schedule));
  EXPECT_EQ(again.code, 1) << again.err;
  EXPECT_NE(again.out.find("\"model\":\"counters\""), std::string::npos) << again.out;
  EXPECT_NE(again.err.find("verdict: violation"), std::string::npos) << again.err;
  // The shrunk counterexample is small: two adds and a get of one counter.
  size_t invs = 0;
  for (size_t p = 0; (p = again.out.find("\"e\":\"inv\"", p)) != std::string::npos; ++p) ++invs;
  EXPECT_LE(invs, 4u) << again.out;
}

TEST(RegistryCli, AnOptionOfAnotherStructureIsRefusedByName) {
  const CliResult r = gpulin("explore --structure psync --warps 3 --schedules 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--warps is not an option of psync"), std::string::npos) << r.err;
  const CliResult v = gpulin("explore --structure merge --variant paper --schedules 1");
  EXPECT_EQ(v.code, 2);
  EXPECT_NE(v.err.find("merge has no variants"), std::string::npos) << v.err;
  const CliResult m = gpulin("explore --structure counter-array --mutant early-root-release --schedules 1");
  EXPECT_EQ(m.code, 2);
  EXPECT_NE(m.err.find("unknown counter-array mutant 'early-root-release'"), std::string::npos) << m.err;
  const CliResult replay = gpulin("replay --schedule 'counter-array:counters=99|0.0.1|0'");
  EXPECT_EQ(replay.code, 2);
  EXPECT_NE(replay.err.find("--counters 99"), std::string::npos) << replay.err;
}

// Every registered structure reaches the memory other actors can see through its
// execution context (issue 38's check, docs/memory-model.md): under the ptx memory
// mode no word is found changed behind the model's back (`outside_writes`), and in
// the sanitized build (scripts/test.sh) a read or write of a word the model holds
// made around the context is an ASan report that ends the run (exit not 0, the
// report on stderr: sim/memory/direct_access_guard.h).
TEST(RegistryCli, EveryStructureReachesSharedMemoryThroughItsContext) {
  for (const char* s : kStructures) {
    // The fixed multimap: the paper's has bugs the explorer finds (findings.md S1, S3).
    const std::string variant = std::string(s) == "slab-multimap" ? " --variant fixed" : "";
    const CliResult r = gpulin(std::string("explore --memory ptx --schedules 20 --json --structure ") + s + variant);
    EXPECT_EQ(r.err.find("AddressSanitizer"), std::string::npos) << s << " touched shared memory around its context:\n"
                                                                  << r.err;
    // 1: a failure the run found (under ptx, the slab hash's explicit points can be
    // proof-point failures: findings.md M4); not an error of the run.
    ASSERT_TRUE(r.code == 0 || r.code == 1) << s << " failed to run (exit " << r.code << "):\n" << r.err;
    EXPECT_NE(r.out.find("\"outside_writes\":0,"), std::string::npos) << s << " writes around its context:\n" << r.out;
  }
}

// DPOR compares events of different runs by the words they touched: every
// structure's runner names its memory alike from run to run (shared and named
// regions, SimBlock objects), under sc and under ptx, or the search stops with an
// error (exit 2).
TEST(RegistryCli, EveryStructureRunsUnderDpor) {
  for (const char* s : kStructures)
    for (const char* memory : {"sc", "ptx"}) {
      const std::string variant = std::string(s) == "slab-multimap" ? " --variant fixed" : "";
      const CliResult r = gpulin(std::string("explore --strategy dpor --schedules 40 --json --memory ") + memory +
                                 " --structure " + s + variant);
      ASSERT_TRUE(r.code == 0 || r.code == 1) << s << " under " << memory << " (exit " << r.code << "):\n" << r.err;
      EXPECT_NE(r.out.find("\"dpor\":{"), std::string::npos) << r.out;
    }
}

TEST(RegistryCli, TheSurveyHasARowPerStructureAndVariant) {
  const CliResult r = gpulin("survey --schedules 20 --jobs 2");
  EXPECT_TRUE(r.code == 0 || r.code == 1 || r.code == 3) << r.code << r.err;
  for (const char* s : kStructures) EXPECT_NE(r.out.find("\n" + std::string(s) + " "), std::string::npos) << s << r.out;
  for (const char* row : {"gheap-td       fixed", "gheap-td       paper", "bucket-heap    paper", "counter-array  -"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  const CliResult one = gpulin("survey --only counter-array --schedules 50");
  EXPECT_EQ(one.code, 0) << one.out << one.err;
  EXPECT_EQ(one.out.find("gheap-td"), std::string::npos) << one.out;
}

}  // namespace
