// The survey's table hides no category: faulted and undecided runs have columns,
// and an undecided history keeps a row from being clean.
#include <gtest/gtest.h>

#include "tools/explore/survey_table.h"

namespace gpulin::explore {
namespace {

ExploreSummary with(Failure kind, uint64_t n) {
  ExploreSummary s;
  s.schedules = 100;
  s.counts[kind] = n;
  FailureReport r;
  r.kind = kind;
  r.ops = 3;
  r.schedule = "SCHEDULE-OF-" + std::string(to_string(kind));
  s.first[kind] = r;
  return s;
}

TEST(SurveyTable, HeaderNamesEveryCategory) {
  const std::string h = survey_header();
  for (const char* column : {"violation", "invariant", "deadlock", "fault", "proof", "undecided"})
    EXPECT_NE(h.find(column), std::string::npos) << column;
}

TEST(SurveyTable, FaultsAreCountedInTheirColumn) {
  const std::string row = survey_row("gheap-td", "fixed", with(Failure::Fault, 7));
  EXPECT_NE(row.find(" 7 "), std::string::npos) << row;
  EXPECT_NE(row.find("SCHEDULE-OF-fault"), std::string::npos) << row;
  EXPECT_FALSE(survey_clean(with(Failure::Fault, 7)));
}

TEST(SurveyTable, UndecidedIsShownAndIsNotClean) {
  const ExploreSummary s = with(Failure::Undecided, 5);
  const std::string row = survey_row("gheap-bu", "fixed", s);
  EXPECT_NE(row.find(" 5 "), std::string::npos) << row;
  EXPECT_NE(row.find("SCHEDULE-OF-undecided"), std::string::npos) << row;
  EXPECT_FALSE(s.found_bug());      // not a bug ...
  EXPECT_FALSE(survey_clean(s));    // ... but not a pass either
}

TEST(SurveyTable, ProofOnlyFindingsStayClean) {
  // The paper's points failing on a linearizable history is a finding about a
  // proof, shown in its column, not a failure of the structure.
  const ExploreSummary s = with(Failure::WitnessOnly, 2);
  EXPECT_TRUE(survey_clean(s));
  EXPECT_NE(survey_row("gheap-td", "paper", s).find(" 2 "), std::string::npos);
}

TEST(SurveyTable, ANoFailureRowIsClean) {
  ExploreSummary s;
  s.schedules = 10;
  EXPECT_TRUE(survey_clean(s));
  EXPECT_NE(survey_row("gheap-td", "fixed", s).find(" -"), std::string::npos);
}

}  // namespace
}  // namespace gpulin::explore
