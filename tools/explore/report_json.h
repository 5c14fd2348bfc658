// An exploration's report as one JSON object (explore --json, explore --mpi,
// merge-reports): what defines the run, every count, the first failure of each kind
// with its replay string, and the fingerprints of the distinct histories, so that
// reports of disjoint parts of one run merge into the report of the whole.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tools/explore/explore.h"

namespace gpulin::explore {

struct ExploreReport {
  // The options that define the run, each as JSON text (name, value); reports merge
  // only when these are equal.
  std::vector<std::pair<std::string, std::string>> run;
  // Which part of the run this is: "all", "shard 2/4", "shards 1,2,3,4 of 4",
  // "mpi 4 ranks".
  std::string split = "all";
  ExploreSummary summary;
  bool histories = true;  // false: the merge, whose results are outputs, not histories
};

// Bad input to merge-reports: the message names the file and the field.
struct ReportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The JSON field counting each kind of failure ("violations", "deadlocks", ...).
const std::vector<std::pair<Failure, std::string>>& failure_count_fields();

std::string report_json(const ExploreReport& report);
// Reads a report written by report_json; `source` names it in errors.
ExploreReport parse_report_json(const std::string& text, const std::string& source);

// Counts summed, distinct histories de-duplicated by fingerprint, the earliest first
// failure of each kind kept (smallest part, then schedule), exhaustive when every
// part was. Reports of different runs, or the same shard twice, are a ReportError;
// `sources` name the reports in it.
ExploreReport merge_reports(const std::vector<ExploreReport>& reports, const std::vector<std::string>& sources);

}  // namespace gpulin::explore
