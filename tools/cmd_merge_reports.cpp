// gpulin merge-reports FILE...: the --json reports of a run's shards (explore
// --shard i/N) merged into the report of the whole run.
#include <fstream>
#include <sstream>

#include <fmt/core.h>

#include "tools/commands.h"
#include "tools/explore_text.h"
#include "tools/explore/report_json.h"

namespace gpulin::cli {

namespace {
struct MergeArgs {
  std::vector<std::string> files;
  bool json = false;
};

// A run field's value as text: JSON strings lose their quotes.
std::string field_text(const std::string& json) {
  return json.size() >= 2 && json.front() == '"' ? json.substr(1, json.size() - 2) : json;
}

void print_merged(const explore::ExploreReport& m) {
  std::string strategy, run;
  for (const auto& [name, value] : m.run) {
    if (name == "strategy") strategy = field_text(value);
    run += fmt::format(" {}={}", name, field_text(value));
  }
  fmt::print("{}:{}\n", m.split, run);
  print_counts(strategy, m.summary, m.histories);
}

int merge_files(const MergeArgs& a) {
  std::vector<explore::ExploreReport> reports;
  bool bad = false;
  // Every file is read and every bad one named before anything is merged: a bad
  // shard never leaves a merged report that silently lacks it.
  for (const std::string& file : a.files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      fmt::print(stderr, "gpulin merge-reports: {}: cannot open\n", file);
      bad = true;
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
      reports.push_back(explore::parse_report_json(text.str(), file));
    } catch (const explore::ReportError& e) {
      fmt::print(stderr, "gpulin merge-reports: {}\n", e.what());
      bad = true;
    }
  }
  if (bad) return int(kBadInput);
  explore::ExploreReport merged;
  try {
    merged = explore::merge_reports(reports, a.files);
  } catch (const explore::ReportError& e) {
    fmt::print(stderr, "gpulin merge-reports: {}\n", e.what());
    return int(kBadInput);
  }
  if (a.json)
    fmt::print("{}\n", explore::report_json(merged));
  else
    print_merged(merged);
  return merged.summary.found_bug() ? int(kViolation) : int(kPass);
}
}  // namespace

void add_merge_reports(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand("merge-reports",
                                     "merge the --json reports of explore's shards into the whole run's report "
                                     "(exit 0 pass, 1 a bug found, 2 bad input)");
  sub->add_option("files", a->files, "reports of explore --shard i/N --json, one JSON object each")->required();
  sub->add_flag("--json", a->json, "print the merged report as one JSON object");
  sub->callback([a, &run] { run = [a] { return merge_files(*a); }; });
}

}  // namespace gpulin::cli
