// The fields of explore's --json reports that the scale-out tests compare: a split
// run must reproduce the whole run's counts exactly.
#pragma once

#include <simdjson.h>

#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

namespace cli_test {

// The counts that define a run's outcome: schedules, distinct histories, every
// failure category, exhaustive.
inline const char* const kOutcomeFields[] = {"schedules", "histories", "violations", "invariant_failures", "deadlocks",
                                             "livelocks", "faults", "races", "proof_point_failures", "undecided"};

struct ReportFields {
  std::map<std::string, uint64_t> counts;
  bool exhaustive = false;
  std::map<std::string, std::string> first_replay;   // failure kind -> replay string
  std::map<std::string, std::string> first_history;  // failure kind -> its history file
  std::string split;
  std::set<std::string> traces;  // the distinct traces' fingerprints (coverage)
  bool dpor_complete = false;    // a dpor search that ran every trace
};

// Parses a report (failing the test when it is not one).
inline ReportFields report_fields(const std::string& json) {
  ReportFields f;
  simdjson::dom::parser parser;
  simdjson::dom::object obj;
  EXPECT_FALSE(parser.parse(json).get_object().get(obj)) << "not a JSON object:\n" << json;
  if (!obj.size()) return f;
  for (const char* name : kOutcomeFields) {
    uint64_t v = 0;
    EXPECT_FALSE(obj[name].get_uint64().get(v)) << "field " << name << " missing in\n" << json.substr(0, 400);
    f.counts[name] = v;
  }
  EXPECT_FALSE(obj["exhaustive"].get_bool().get(f.exhaustive));
  std::string_view split;
  EXPECT_FALSE(obj["split"].get_string().get(split));
  f.split = std::string(split);
  simdjson::dom::array traces;
  EXPECT_FALSE(obj["trace_fingerprints"].get_array().get(traces));
  for (simdjson::dom::element e : traces) f.traces.insert(std::string(e.get_string().value()));
  simdjson::dom::element dpor;
  if (!obj["dpor"].get(dpor) && !dpor.is_null()) EXPECT_FALSE(dpor["complete"].get_bool().get(f.dpor_complete));
  simdjson::dom::array first;
  EXPECT_FALSE(obj["first_failures"].get_array().get(first));
  for (simdjson::dom::element e : first) {
    std::string_view kind, replay, history;
    EXPECT_FALSE(e["kind"].get_string().get(kind));
    EXPECT_FALSE(e["replay"].get_string().get(replay));
    EXPECT_FALSE(e["history"].get_string().get(history));
    f.first_replay[std::string(kind)] = std::string(replay);
    f.first_history[std::string(kind)] = std::string(history);
  }
  return f;
}

// The split run's counts, exhaustiveness and first failures equal the whole run's.
inline void expect_same_outcome(const ReportFields& whole, const ReportFields& split) {
  EXPECT_EQ(split.counts, whole.counts);
  EXPECT_EQ(split.exhaustive, whole.exhaustive);
  EXPECT_EQ(split.first_replay, whole.first_replay);
}

}  // namespace cli_test
