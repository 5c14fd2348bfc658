// gpulin ablate through the command: a table of every ordering site's weakenings
// and verdicts; each "needed" comes with a replay string that fails as replayed
// and passes with the same interleaving under sc; bad input exits 2.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/tools/run_gpulin.h"

namespace {

using cli_test::gpulin;
using cli_test::quote;

TEST(CliAblate, EveryNeededOrderingHasAReplayThatFailsUnderPtxAndPassesUnderSc) {
  const auto r = gpulin("ablate --structure counter-array --schedules 200 --jobs 2");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("as written: 200 schedules, no failure"), std::string::npos) << r.out;
  // counter_array.h's increment: an acq_rel CAS; its release store; their scopes.
  const std::regex row(R"(structures/counter_array/counter_array\.h:\d+ +(no-acquire|no-release|cta-scope|weak) +)"
                       R"((needed|not shown needed) )");
  size_t rows = 0, needed = 0;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), row), end; it != end; ++it) {
    ++rows;
    needed += (*it)[2] == "needed";
  }
  EXPECT_GE(rows, 6u) << r.out;
  EXPECT_GE(needed, 2u) << r.out;
  const std::regex replay(R"(replay: gpulin replay --schedule '([^']+)')");
  size_t replays = 0;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), replay), end; it != end; ++it) {
    ++replays;
    const std::string schedule = (*it)[1];
    EXPECT_NE(schedule.find(":memory=ptx@structures/counter_array/counter_array.h@"), std::string::npos) << schedule;
    EXPECT_EQ(gpulin("replay --schedule " + quote(schedule)).code, 1) << schedule;
    EXPECT_EQ(gpulin("replay --memory sc --schedule " + quote(schedule)).code, 0) << schedule;
  }
  EXPECT_EQ(replays, needed) << r.out;
  EXPECT_NE(r.out.find("needed " + std::to_string(needed) + ", not shown needed "), std::string::npos) << r.out;
}

TEST(CliAblate, ACodeThatFailsAsWrittenIsSaidToAndExitsOne) {
  const auto r = gpulin("ablate --structure slab-multimap --variant paper --schedules 200 --jobs 2");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAILS: nothing to ablate until it passes"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not shown needed"), std::string::npos) << "no ablation ran: " << r.out;
}

TEST(CliAblate, BadInputExitsTwo) {
  for (const char* cmd : {"ablate", "ablate --structure nothing", "ablate --structure gheap-td --k 0",
                          "replay --schedule 'counter-array:amount=3:counters=2:memory=ptx@f.h@x@weak|0.1.3|'"}) {
    const auto r = gpulin(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
  }
}

}  // namespace
