// Scale-out through the command: explore --shard i/N parts merged by merge-reports
// give exactly the whole run (schedules, distinct histories, every failure count,
// the first failures' replay strings), merge-reports refuses bad input naming the
// file and the field, and check summarises folders and lists of files in parallel.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/report_fields.h"
#include "tests/tools/run_gpulin.h"

namespace {

namespace fs = std::filesystem;
using namespace cli_test;

// The N shards of `args`, each a --json report in `dir`; returns their paths as
// shell words.
std::string run_shards(const std::string& args, int shards, const fs::path& dir, std::vector<uint64_t>* schedules) {
  std::string files;
  for (int i = 1; i <= shards; ++i) {
    const CliResult r = gpulin(args + " --json --shard " + std::to_string(i) + "/" + std::to_string(shards));
    EXPECT_LE(r.code, 1) << r.err;
    const fs::path file = dir / ("shard" + std::to_string(i) + ".json");
    std::ofstream(file) << r.out;
    if (schedules) schedules->push_back(report_fields(r.out).counts["schedules"]);
    files += " " + quote(file.string());
  }
  return files;
}

void expect_shards_merge_to_whole(const std::string& args, int shards, const std::string& name) {
  const fs::path dir = scratch_dir(name);
  const CliResult whole = gpulin(args + " --json");
  ASSERT_LE(whole.code, 1) << whole.err;
  std::vector<uint64_t> parts;
  const std::string files = run_shards(args, shards, dir, &parts);
  const CliResult merged = gpulin("merge-reports --json" + files);
  ASSERT_EQ(merged.code, whole.code) << merged.err;
  const ReportFields w = report_fields(whole.out), m = report_fields(merged.out);
  expect_same_outcome(w, m);
  // Every shard did a real part of the work, not the whole.
  for (uint64_t n : parts) {
    EXPECT_GT(n, 0u);
    EXPECT_LT(n, w.counts.at("schedules"));
  }
  EXPECT_EQ(m.split.substr(0, 7), "shards ");
  fs::remove_all(dir);
}

TEST(ScaleOut, DfsShardsMergeToTheWholeSearch) {
  const std::string args = "explore --actors 3 --ops 2 --strategy dfs --preemptions 2 --schedules 100000000";
  expect_shards_merge_to_whole(args, 3, "dfs");
  const ReportFields w = report_fields(gpulin(args + " --json").out);
  EXPECT_TRUE(w.exhaustive);
  EXPECT_GT(w.counts.at("histories"), 1u);
}

TEST(ScaleOut, DfsShardsOfAFailingSearchKeepItsFirstFailures) {
  const std::string args =
      "explore --actors 3 --ops 2 --strategy dfs --preemptions 1 --schedules 100000000 --mutant early-root-release";
  expect_shards_merge_to_whole(args, 4, "dfs_mutant");
  const ReportFields w = report_fields(gpulin(args + " --json").out);
  EXPECT_GT(w.counts.at("violations"), 0u);  // the comparison covered failures
  EXPECT_EQ(w.first_replay.count("violation"), 1u);
}

// DPOR splits along a frontier of prefixes, each part searched by DPOR below its
// prefix: the parts together run every trace of the whole search (a part loses the
// sleep sets of its siblings, so together they may run some twice), and the merge
// says the search was complete.
TEST(ScaleOut, DporShardsTogetherRunEveryTraceOfTheWholeSearch) {
  const std::string args = "explore --actors 2 --ops 2 --seed 4 --strategy dpor --schedules 100000000";
  const CliResult whole = gpulin(args + " --json");
  ASSERT_EQ(whole.code, 0) << whole.err;
  const ReportFields w = report_fields(whole.out);
  EXPECT_TRUE(w.dpor_complete);
  EXPECT_EQ(w.traces.size(), 14u);  // the whole search's (DporOnTheHeaps)
  const fs::path dir = scratch_dir("dpor");
  std::vector<uint64_t> parts;
  const std::string files = run_shards(args, 3, dir, &parts);
  const CliResult merged = gpulin("merge-reports --json" + files);
  ASSERT_EQ(merged.code, 0) << merged.err;
  const ReportFields m = report_fields(merged.out);
  EXPECT_EQ(m.traces, w.traces);
  EXPECT_TRUE(m.dpor_complete);
  for (uint64_t n : parts) EXPECT_GT(n, 0u);
  fs::remove_all(dir);
}

TEST(ScaleOut, PortfolioShardsMergeToTheWholeRun) {
  const std::string args = "explore --actors 3 --ops 3 --schedules 300 --mutant early-root-release";
  expect_shards_merge_to_whole(args, 4, "portfolio");
  const ReportFields w = report_fields(gpulin(args + " --json").out);
  EXPECT_GT(w.counts.at("violations"), 0u);  // the comparison covered failures
}

TEST(ScaleOut, PctShardsMergeToTheWholeRun) {
  const std::string args = "explore --actors 3 --ops 3 --strategy pct --schedules 300 --mutant early-root-release";
  expect_shards_merge_to_whole(args, 4, "pct");
  const ReportFields w = report_fields(gpulin(args + " --json").out);
  EXPECT_GT(w.counts.at("violations"), 0u);  // the comparison covered failures
}

// Shards writing failures into one --out folder keep apart (a folder each), and the
// merged report's first failure names the file its shard wrote.
TEST(ScaleOut, ShardsSharingAnOutFolderKeepTheirFailuresApart) {
  const fs::path dir = scratch_dir("shared_out");
  const std::string args = "explore --actors 3 --ops 3 --strategy pct --schedules 200 --mutant early-root-release --out " +
                           quote((dir / "failures").string());
  const std::string files = run_shards(args, 2, dir, nullptr);
  const ReportFields m = report_fields(gpulin("merge-reports --json" + files).out);
  ASSERT_EQ(m.first_history.count("violation"), 1u);
  const std::string history = m.first_history.at("violation");
  EXPECT_NE(history.find("/failures/shard-"), std::string::npos) << history;
  EXPECT_NE(slurp(history).find(m.first_replay.at("violation")), std::string::npos) << history;
  EXPECT_TRUE(fs::is_directory(dir / "failures/shard-1"));
  EXPECT_TRUE(fs::is_directory(dir / "failures/shard-2"));
  fs::remove_all(dir);
}

TEST(ScaleOut, RandomShardsOfTheSlabHashMergeToTheWholeRun) {
  expect_shards_merge_to_whole("explore --structure slab-map --warps 3 --ops 3 --strategy random --schedules 120", 3,
                               "random_slab");
}

// The Slurm scripts as Slurm would run them (the array task's id in its
// environment): the merge step's report equals the whole run's; a missing shard
// stops the merge.
TEST(ScaleOut, SlurmArrayScriptsMergeToTheWholeRun) {
  const fs::path dir = scratch_dir("slurm");
  const std::string args = "--actors 3 --ops 2 --strategy dfs --preemptions 1 --schedules 100000000";
  const std::string env = "SHARDS=3 REPORTS=" + quote(dir.string()) + " GPULIN=" + quote(GPULIN_BIN) + " ";
  const fs::path slurm = kSource / "scripts/slurm";
  for (int i = 1; i <= 3; ++i) {
    const CliResult task = run_shell("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " " + env + "bash " +
                                     quote((slurm / "explore-shard.sbatch").string()) + " " + args);
    ASSERT_EQ(task.code, 0) << task.err;
  }
  const CliResult merge = run_shell(env + "bash " + quote((slurm / "merge.sbatch").string()));
  ASSERT_EQ(merge.code, 0) << merge.err;
  EXPECT_NE(merge.out.find("shards 1/3,2/3,3/3"), std::string::npos) << merge.out;
  const CliResult whole = gpulin("explore " + args + " --json");
  expect_same_outcome(report_fields(whole.out), report_fields(slurp(dir / "merged.json")));
  fs::remove(dir / "shard-2.json");
  const CliResult incomplete = run_shell(env + "bash " + quote((slurm / "merge.sbatch").string()));
  EXPECT_EQ(incomplete.code, 2);
  EXPECT_NE(incomplete.err.find("shard-2.json (shard 2/3 did not finish)"), std::string::npos) << incomplete.err;
  fs::remove_all(dir);
}

TEST(ScaleOut, JsonReportHasEveryCountAsAField) {
  const CliResult r = gpulin("explore --actors 2 --ops 2 --strategy pct --schedules 20 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const ReportFields f = report_fields(r.out);
  EXPECT_EQ(f.counts.at("schedules"), 20u);
  EXPECT_EQ(f.split, "all");
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line, one object";
}

TEST(ScaleOut, MergeReportsNamesTheBadFileAndField) {
  const fs::path dir = scratch_dir("bad_reports");
  const std::string args = "explore --actors 2 --ops 2 --strategy pct --schedules 20";
  const std::string good = run_shards(args, 2, dir, nullptr);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return " " + quote((dir / name).string());
  };
  // Not JSON, and a report with a count missing: both named, nothing merged.
  const std::string torn = write("torn.json", "{\"report\":\"gpulin explore\",\"run\":{");
  std::string shard1;
  {
    std::ifstream in(dir / "shard1.json");
    std::getline(in, shard1);
  }
  std::string no_count = shard1;
  no_count.replace(no_count.find("\"deadlocks\""), 11, "\"deadlockz\"");
  const std::string missing = write("missing.json", no_count);
  CliResult r = gpulin("merge-reports" + good + torn + missing);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "") << "no merged report from bad input";
  EXPECT_NE(r.err.find("torn.json: not valid JSON"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("missing.json: missing field 'deadlocks'"), std::string::npos) << r.err;
  // Reports of another run, and the same shard twice.
  const CliResult other = gpulin(args + " --seed 7 --json --shard 1/2");
  const std::string other_file = write("other.json", other.out);
  r = gpulin("merge-reports" + good + other_file);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("other.json: field 'run.seed' differs"), std::string::npos) << r.err;
  const std::string again = write("again.json", shard1);
  r = gpulin("merge-reports" + good + again);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("again.json: shard 1/2 is also in"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

TEST(ScaleOut, ShardOptionIsChecked) {
  for (const char* bad : {"0/2", "3/2", "1", "a/b", "1/2x"}) {
    const CliResult r = gpulin(std::string("explore --schedules 5 --shard ") + bad);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
  }
}

// The merge splits like the rest (its runs are told apart by their outputs): an
// exhaustive DFS of one program, and PCT over fresh programs finding the planted
// window overrun.
TEST(ScaleOut, MergeShardsMergeToTheWholeRun) {
  expect_shards_merge_to_whole(
      "explore --structure merge --blocks 3 --len 12 --strategy dfs --preemptions 2 --schedules 100000000", 3,
      "dfs_merge");
  const std::string pct = "explore --structure merge --strategy pct --schedules 200 --mutant merge-window-overrun";
  expect_shards_merge_to_whole(pct, 4, "pct_merge");
  const ReportFields w = report_fields(gpulin(pct + " --json").out);
  EXPECT_GT(w.counts.at("violations"), 0u);  // the comparison covered failures
  EXPECT_EQ(w.first_replay.count("violation"), 1u);
}

// A folder with a good, a bad and a malformed history (and a file that is no
// history): one line per history, every category in the totals, exit 1.
TEST(CheckMany, FolderGivesOneLinePerFileAndEveryTotal) {
  const fs::path dir = scratch_dir("check_folder");
  const fs::path ex = kSource / "histories/examples";
  fs::copy_file(ex / "map_explicit.jsonl", dir / "good.jsonl");
  fs::copy_file(ex / "map_not_linearizable.jsonl", dir / "bad.jsonl");
  fs::copy_file(ex / "malformed/duplicate_t.jsonl", dir / "malformed.jsonl");
  std::ofstream(dir / "notes.txt") << "not a history\n";
  const CliResult r = gpulin("check --jobs 2 " + quote(dir.string()));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("good.jsonl: linearizable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bad.jsonl: violation"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("malformed.jsonl: error: " + (dir / "malformed.jsonl").string() + ":6:"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("notes.txt"), std::string::npos);
  EXPECT_NE(r.out.find("3 files, 1 linearizable, 1 violation, 0 undecided, 1 error"), std::string::npos) << r.out;
  EXPECT_EQ(gpulin("check --render page.html " + quote(dir.string())).code, 2);  // a page is of one history

  const CliResult j = gpulin("check --json " + quote(dir.string()));
  EXPECT_EQ(j.code, 1);
  simdjson::dom::parser parser;
  simdjson::dom::object obj;
  ASSERT_FALSE(parser.parse(j.out).get_object().get(obj)) << j.out;
  for (const auto& [name, n] : {std::pair<const char*, uint64_t>{"linearizable", 1}, {"violation", 1}, {"undecided", 0},
                                {"error", 1}}) {
    uint64_t v = 99;
    EXPECT_FALSE(obj["totals"][name].get_uint64().get(v)) << name;
    EXPECT_EQ(v, n) << name;
  }
  fs::remove_all(dir);
}

// A list of files: the exit says the worst outcome (violation, then error, then
// undecided), and a missing file is that file's error only.
TEST(CheckMany, ListExitSaysWhetherAnyFailed) {
  const fs::path ex = kSource / "histories/examples";
  const std::string good = quote((ex / "map_explicit.jsonl").string());
  const std::string pq_bad = quote((ex / "pq_batch_not_linearizable.jsonl").string());
  EXPECT_EQ(gpulin("check " + good + " " + quote((ex / "register.jsonl").string())).code, 0);
  const CliResult undecided = gpulin("check --budget 1 " + good + " " + pq_bad);
  EXPECT_EQ(undecided.code, 3) << undecided.out;
  EXPECT_NE(undecided.out.find("1 linearizable, 0 violation, 1 undecided, 0 error"), std::string::npos)
      << undecided.out;
  const CliResult missing = gpulin("check " + good + " /nonexistent/x.jsonl");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("map_explicit.jsonl: linearizable"), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find("/nonexistent/x.jsonl: error"), std::string::npos) << missing.out;
  EXPECT_EQ(gpulin("check " + pq_bad + " /nonexistent/x.jsonl").code, 1);
  EXPECT_EQ(gpulin("check --budget 1 " + pq_bad + " /nonexistent/x.jsonl").code, 2);
  EXPECT_EQ(gpulin("check " + quote(scratch_dir("empty").string())).code, 2);
}

}  // namespace
