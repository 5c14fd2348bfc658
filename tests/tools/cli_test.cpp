// `gpulin` as users run it: exit codes 0 pass, 1 violation, 2 bad input, 3 out of
// budget (naming which), and the explore -> replay and import -> check round trips.
#include <gtest/gtest.h>
#include <cuda_runtime.h>
#include <sys/wait.h>

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/tools/run_gpulin.h"

namespace {

namespace fs = std::filesystem;

using namespace cli_test;
using Result = CliResult;

TEST(CliCheck, ExamplesGiveTheirVerdicts) {
  const fs::path ex = kSource / "histories/examples";
  const std::pair<const char*, int> expected[] = {
      {"pq_batch_linearizable.jsonl", 0},
      {"pq_batch_not_linearizable.jsonl", 1},
      {"register.jsonl", 0},
      {"pending.jsonl", 0},
      {"map_explicit.jsonl", 0},
      {"map_points_fail.jsonl", 0},
      {"map_not_linearizable.jsonl", 1},
      {"map_no_lps.jsonl", 0},
      {"counters.jsonl", 0},
      {"counters_lost_update.jsonl", 1},
  };
  for (const auto& [file, code] : expected) {
    const Result r = gpulin("check " + quote((ex / file).string()));
    EXPECT_EQ(r.code, code) << file << "\n" << r.out << r.err;
  }
  // Every valid example is in the table.
  int files = 0;
  for (const auto& e : fs::directory_iterator(ex)) files += e.path().extension() == ".jsonl";
  EXPECT_EQ(files, 10);
}

// A keyed history with no lp events (the slab hash's warp rounds) is checked by the
// rets' order per key and the search on the keys it fails; the witness alone has no
// rule to check and says so (exit 2).
TEST(CliCheck, AKeyedHistoryWithoutLpsIsOrderedByItsRets) {
  const std::string file = quote((kSource / "histories/examples/map_no_lps.jsonl").string());
  const Result r = gpulin("check " + file);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ret order (per key), then search on 1 key"), std::string::npos) << r.out;
  const Result w = gpulin("check --method witness " + file);
  EXPECT_EQ(w.code, 2) << w.out << w.err;
  EXPECT_NE(w.err.find("lp_rule"), std::string::npos) << w.err;
}

TEST(CliCheck, MalformedExamplesExitTwoNamingFileAndLine) {
  const fs::path dir = kSource / "histories/examples/malformed";
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".jsonl") continue;
    ++seen;
    const std::string name = entry.path().filename().string();
    const Result r = gpulin("check " + quote(entry.path().string()));
    EXPECT_EQ(r.code, 2) << name << "\n" << r.out << r.err;
    // Some stderr line names the file, then ':' and a line number.
    bool located = false;
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) {
      const size_t at = line.find(name + ":");
      if (at != std::string::npos && at + name.size() + 1 < line.size() &&
          std::isdigit(static_cast<unsigned char>(line[at + name.size() + 1])))
        located = true;
    }
    EXPECT_TRUE(located) << name << ": no 'FILE:LINE' on stderr:\n" << r.err;
  }
  EXPECT_GE(seen, 40);
}

TEST(CliCheck, MissingFileAndBadUsageExitTwo) {
  EXPECT_EQ(gpulin("check " + quote((kSource / "histories/examples/no_such_file.jsonl").string())).code, 2);
  EXPECT_EQ(gpulin("check").code, 2);                                // file is required
  EXPECT_EQ(gpulin("").code, 2);                                     // a subcommand is required
  EXPECT_EQ(gpulin("frobnicate").code, 2);                           // unknown subcommand
  EXPECT_EQ(gpulin("check --method psychic x.jsonl").code, 2);       // bad option value
  EXPECT_EQ(gpulin("explore --structure gheap-xx").code, 2);         // bad structure
  EXPECT_EQ(gpulin("explore --actors 0").code, 2);                   // out of range
  EXPECT_EQ(gpulin("replay --schedule 'not a schedule'").code, 2);   // unparsable schedule
  EXPECT_EQ(gpulin("replay").code, 2);                               // --schedule required
  EXPECT_EQ(gpulin("import no-such-format x -o y").code, 2);
}

// n overlapping writes of a register, then a read of a value none wrote: not
// linearizable, but only after the search tries every subset of the writes
// (about n * 2^n steps), so any small budget runs out first. A register, so that
// the search decides it (the keyed pq checkers of `check` would not need one).
fs::path write_hard_history(const fs::path& dir, int n) {
  const fs::path p = dir / "hard.jsonl";
  std::ofstream out(p);
  out << "{\"history\": 1, \"model\": \"register\"}\n";
  for (int i = 1; i <= n; ++i) {
    out << "{\"t\": " << i << ", \"e\": \"inv\", \"op\": " << i << ", \"actor\": " << i
        << ", \"f\": \"write\", \"args\": [" << 10 + i << "]}\n";
    out << "{\"t\": " << 1000 + i << ", \"e\": \"ret\", \"op\": " << i << ", \"actor\": " << i
        << ", \"res\": null}\n";
  }
  out << "{\"t\": 2000, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"read\", \"args\": []}\n";
  out << "{\"t\": 2001, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": -1}\n";
  return p;
}

TEST(CliCheck, OutOfStepsExitsThreeNamingTheStepBudget) {
  const fs::path dir = scratch_dir("budget_steps");
  const std::string hard = quote(write_hard_history(dir, 30).string());
  const Result r = gpulin("check --budget 10 " + hard);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("step budget (10 steps"), std::string::npos) << r.out << r.err;
  const Result j = gpulin("check --json --budget 10 " + hard);
  EXPECT_EQ(j.code, 3) << j.out << j.err;
  EXPECT_NE(j.out.find("\"budget\":\"steps\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"steps\":10,"), std::string::npos) << j.out;
  // A budget that suffices decides it.
  const Result small = gpulin("check --budget 1000000 " + quote(write_hard_history(dir, 8).string()));
  EXPECT_EQ(small.code, 1) << small.out << small.err;
  fs::remove_all(dir);
}

TEST(CliCheck, OutOfMemoryExitsThreeNamingTheMemoryBudget) {
  const fs::path dir = scratch_dir("budget_memory");
  const std::string hard = quote(write_hard_history(dir, 30).string());
  const Result r = gpulin("check --memory 1K " + hard);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("memory budget (1024 bytes"), std::string::npos) << r.out << r.err;
  const Result j = gpulin("check --json --memory 1K " + hard);
  EXPECT_EQ(j.code, 3) << j.out << j.err;
  EXPECT_NE(j.out.find("\"budget\":\"memory\""), std::string::npos) << j.out;
  // Decided checks say no budget ran out.
  const Result ok = gpulin("check --json --memory 512M " +
                           quote((kSource / "histories/examples/register.jsonl").string()));
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("\"budget\":null"), std::string::npos) << ok.out;
  EXPECT_EQ(gpulin("check --memory lots " + hard).code, 2);
  fs::remove_all(dir);
}

TEST(CliCheck, OutOfTimeExitsThreeNamingTheTimeBudget) {
  const fs::path dir = scratch_dir("budget_time");
  const std::string hard = quote(write_hard_history(dir, 30).string());
  const Result r = gpulin("check --budget 0 --memory 0 --seconds 0.2 " + hard);
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("time budget (0.2 s; raise it with --seconds)"), std::string::npos) << r.out << r.err;
  const Result j = gpulin("check --json --budget 0 --memory 0 --seconds 0.2 " + hard);
  EXPECT_EQ(j.code, 3) << j.out << j.err;
  EXPECT_NE(j.out.find("\"budget\":\"time\""), std::string::npos) << j.out;
  EXPECT_EQ(gpulin("check --seconds -1 " + hard).code, 2);
  fs::remove_all(dir);
}

// The ids of the ops of --json's "minimal" (a JSONL history in a string): its inv lines' ops.
std::vector<int64_t> minimal_ids(const std::string& json) {
  simdjson::dom::parser parser;
  std::string_view minimal;
  EXPECT_FALSE(parser.parse(json)["minimal"].get_string().get(minimal)) << json;
  std::vector<int64_t> ids;
  std::istringstream lines{std::string(minimal)};
  simdjson::dom::parser line_parser;
  for (std::string line; std::getline(lines, line);) {
    std::string_view e;
    int64_t op = 0;
    const simdjson::dom::element el = line_parser.parse(line);
    if (!el["e"].get_string().get(e) && e == "inv" && !el["op"].get_int64().get(op)) ids.push_back(op);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// The issue's map history: replace(7,1), replace(7,2) (running long), search(7) -> 2,
// then the stale search(7) -> 1, op 3, which the check names; and replace(8,5) beside
// them. The minimal history fails at op 3 too, with the writes the searches read:
// not search -> 2 alone, which fails only because its replace was dropped. The
// keyed path (auto), the search's, and the page's window agree.
TEST(CliCheck, MinimalHistoryFailsAtTheNamedOpAndIsThePagesWindow) {
  const fs::path d = scratch_dir("minimal");
  const fs::path file = d / "stale.jsonl";
  std::ofstream(file) << R"({"history": 1, "model": "map"}
{"t": 1, "e": "inv", "op": 0, "actor": 0, "f": "replace", "args": [7, 1]}
{"t": 2, "e": "ret", "op": 0, "actor": 0, "res": null}
{"t": 3, "e": "inv", "op": 1, "actor": 1, "f": "replace", "args": [7, 2]}
{"t": 4, "e": "inv", "op": 4, "actor": 3, "f": "replace", "args": [8, 5]}
{"t": 5, "e": "inv", "op": 2, "actor": 2, "f": "search", "args": [7]}
{"t": 6, "e": "ret", "op": 2, "actor": 2, "res": 2}
{"t": 7, "e": "inv", "op": 3, "actor": 0, "f": "search", "args": [7]}
{"t": 8, "e": "ret", "op": 3, "actor": 0, "res": 1}
{"t": 9, "e": "ret", "op": 4, "actor": 3, "res": null}
{"t": 20, "e": "ret", "op": 1, "actor": 1, "res": null}
)";
  const std::vector<int64_t> expected{0, 1, 2, 3};
  for (const char* method : {"auto", "search"}) {
    const Result j = gpulin(std::string("check --json --method ") + method + " " + quote(file.string()));
    EXPECT_EQ(j.code, 1) << j.out << j.err;
    EXPECT_NE(j.out.find("op 3 had responded by then"), std::string::npos) << j.out;
    EXPECT_EQ(minimal_ids(j.out), expected) << method << "\n" << j.out;
  }
  const Result t = gpulin("check " + quote(file.string()));
  EXPECT_NE(t.out.find("minimal failing sub-history (op 3 fails in it as in the whole history; kept with what its "
                       "failure depends on: op 0):"),
            std::string::npos)
      << t.out;
  const fs::path page = d / "stale.html";
  const Result r = gpulin("render " + quote(file.string()) + " -o " + quote(page.string()));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const std::string html = slurp(page);
  // Ops are indexed in invocation order: 0, 1, 4, 2, 3; the window is ops 0-3.
  EXPECT_NE(html.find("\"window\":[0,1,3,4]"), std::string::npos) << html.substr(html.find("\"window\""), 40);
  EXPECT_NE(html.find("\"failing\":4,"), std::string::npos);
  fs::remove_all(d);
}

TEST(CliExplore, DfsOnTheFixedTopDownHeapIsExhaustiveAndPasses) {
  const Result r = gpulin(
      "explore --structure gheap-td --variant fixed --actors 3 --ops 3 --k 4 --strategy dfs --preemptions 2 "
      "--schedules 1000000");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("exhaustive"), std::string::npos) << r.out << r.err;
}

// --time-limit: a search cut by it says so, in the text and in the JSON.
TEST(CliExplore, ATimeLimitCutsTheSearchAndTheReportSaysSo) {
  const std::string args = "explore --actors 3 --ops 3 --strategy dpor --schedules 100000000 --time-limit 0.3";
  const Result text = gpulin(args);
  EXPECT_EQ(text.code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("not complete: the time limit came first"), std::string::npos) << text.out;
  const Result json = gpulin(args + " --json");
  EXPECT_NE(json.out.find("\"timed_out\":true"), std::string::npos) << json.out.substr(0, 400);
  EXPECT_NE(json.out.find("\"complete\":false"), std::string::npos);
}

TEST(CliExplore, PaperTopDownFailsAndItsScheduleReplays) {
  const fs::path out = scratch_dir("explore");
  const Result r = gpulin("explore --structure gheap-td --variant paper --actors 4 --ops 8 --k 4 --strategy pct "
                          "--schedules 2000 --out " + quote(out.string()));
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  fs::path jsonl, schedule;
  for (const auto& e : fs::directory_iterator(out)) {
    if (e.path().extension() == ".jsonl") jsonl = e.path();
    if (e.path().extension() == ".schedule") schedule = e.path();
  }
  ASSERT_FALSE(jsonl.empty()) << "no .jsonl written";
  ASSERT_FALSE(schedule.empty()) << "no .schedule written";
  std::ifstream in(schedule);
  std::string first;
  std::getline(in, first);
  ASSERT_FALSE(first.empty());
  const Result replay = gpulin("replay --schedule " + quote(first));
  EXPECT_EQ(replay.code, 1) << first << "\n" << replay.out << replay.err;
  // The written history is itself a failing history for `check`, or at least valid input.
  const Result check = gpulin("check " + quote(jsonl.string()));
  EXPECT_NE(check.code, 2) << check.err;
  fs::remove_all(out);
}

// --memory ptx: the heap authors' ordering races (both accesses named); under
// ptx-racy (races let be) it fails, and its replay string names the memory,
// carries its read choices and replays failing; under sc (the default, or replay
// --memory sc on the same string) the same runs pass. A word is refused.
TEST(CliExplore, TheMemoryModeIsChosenNamedAndReplayed) {
  const std::string shape = "explore --structure gheap-td --mutant relaxed-locks --actors 3 --ops 3 --schedules 300 ";
  const Result sc = gpulin(shape);
  EXPECT_EQ(sc.code, 0) << sc.out << sc.err;
  EXPECT_EQ(sc.out.find("memory=ptx"), std::string::npos) << sc.out;
  const Result ptx = gpulin(shape + "--memory ptx");
  ASSERT_EQ(ptx.code, 1) << ptx.out << ptx.err;
  EXPECT_NE(ptx.out.find("mutant=relaxed-locks memory=ptx"), std::string::npos) << ptx.out;
  EXPECT_NE(ptx.out.find("first race"), std::string::npos) << ptx.out;
  EXPECT_NE(ptx.out.find("write weak at structures/gheap/"), std::string::npos) << ptx.out;
  const Result racy = gpulin(shape + "--memory ptx-racy");
  ASSERT_EQ(racy.code, 1) << racy.out << racy.err;
  EXPECT_NE(racy.out.find("races                0"), std::string::npos) << racy.out;
  EXPECT_NE(racy.out.find("stale reads"), std::string::npos) << racy.out;
  size_t first_bug = racy.out.find("first violation");
  if (first_bug == std::string::npos) first_bug = racy.out.find("first invariant");
  ASSERT_NE(first_bug, std::string::npos) << racy.out;
  const size_t at = racy.out.find("replay --schedule '", first_bug);
  ASSERT_NE(at, std::string::npos) << racy.out;
  const size_t from = at + std::string("replay --schedule '").size();
  const std::string schedule = racy.out.substr(from, racy.out.find('\'', from) - from);
  EXPECT_NE(schedule.find(":memory=ptx-racy|"), std::string::npos) << schedule;
  EXPECT_NE(schedule.find(".r0"), std::string::npos) << "a stale read among the picks: " << schedule;
  EXPECT_EQ(gpulin("replay --schedule " + quote(schedule)).code, 1) << schedule;
  const Result under_sc = gpulin("replay --memory sc --schedule " + quote(schedule));
  EXPECT_EQ(under_sc.code, 0) << schedule << "\n" << under_sc.err;
  const Result json = gpulin(shape + "--memory ptx --json");
  EXPECT_NE(json.out.find("\"memory\":\"ptx\""), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"stale_reads\":"), std::string::npos) << json.out;
  for (const char* cmd : {"explore --memory tso", "survey --memory tso", "replay --memory tso --schedule x"}) {
    const Result bad = gpulin(cmd);
    EXPECT_EQ(bad.code, 2) << cmd << "\n" << bad.err;
    EXPECT_NE(bad.err.find("tso"), std::string::npos) << cmd << "\n" << bad.err;
  }
  const Result survey = gpulin("survey --memory ptx --only counter-array --schedules 50");
  EXPECT_EQ(survey.code, 0) << survey.out << survey.err;
  EXPECT_NE(survey.out.find("memory: ptx"), std::string::npos) << survey.out;
}

// A race's page, from explore --render and from replay --render: the race drawn
// between its two operations (the data's "marks", a 1 for a race).
TEST(CliExplore, ARacesPageDrawsTheRace) {
  const fs::path dir = scratch_dir("race_page");
  const std::string page = (dir / "race.html").string();
  const Result r = gpulin("explore --structure gheap-td --mutant relaxed-locks --memory ptx --schedules 20 --render " +
                          quote(page));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(slurp(page).find("\"marks\":[[1,"), std::string::npos) << r.out;
  const std::string replayed = (dir / "replayed.html").string();
  const Result rr = gpulin("replay --render " + quote(replayed) + " --schedule " +
                           quote("gheap-td:fixed:k=4:t=2:mutant=relaxed-locks:memory=ptx|d;i31-28-19-33|1*8.0*2.r1*2"));
  EXPECT_EQ(rr.code, 1) << rr.err;
  EXPECT_NE(slurp(replayed).find("\"marks\":[[1,0,"), std::string::npos) << rr.err;
}

TEST(CliExplore, MergePassesAndItsOverrunMutantFailsAndReplays) {
  const Result ok = gpulin("explore --structure merge --strategy pct --schedules 500");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("violations           0"), std::string::npos) << ok.out;
  const fs::path out = scratch_dir("explore-merge");
  const Result bad = gpulin("explore --structure merge --mutant merge-window-overrun --strategy pct --schedules 500 "
                            "--out " + quote(out.string()));
  ASSERT_EQ(bad.code, 1) << bad.out << bad.err;
  fs::path schedule;
  for (const auto& e : fs::directory_iterator(out))
    if (e.path().extension() == ".schedule") schedule = e.path();
  ASSERT_FALSE(schedule.empty()) << "no .schedule written";
  std::ifstream in(schedule);
  std::string first;
  std::getline(in, first);
  const Result replay = gpulin("replay --schedule " + quote(first));
  EXPECT_EQ(replay.code, 1) << first << "\n" << replay.out << replay.err;
  EXPECT_NE(replay.err.find("wrong result"), std::string::npos) << replay.err;
  EXPECT_EQ(gpulin("explore --structure merge --mutant early-root-release --schedules 1").code, 2);
  EXPECT_EQ(gpulin("replay --schedule 'merge:blocks=3|a=0:2,1;b=0:;c=0|'").code, 2);
  fs::remove_all(out);
}

TEST(CliExplore, SlabMapAndSetPass) {
  for (const char* structure : {"slab-map", "slab-set"}) {
    const Result r = gpulin(std::string("explore --structure ") + structure + " --strategy pct --schedules 300");
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("schedules            300"), std::string::npos) << r.out;
    for (const char* line : {"violations           0", "invariant failures   0", "deadlocks            0",
                             "livelocks            0", "faults               0", "undecided            0"})
      EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    EXPECT_NE(r.out.find("proof-point failures "), std::string::npos) << r.out;
  }
}

// Each planted slab mutant fails `explore` (exit 1); every failure it wrote replays
// to the same kind through `replay`, and its history is valid input for `check`.
TEST(CliExplore, SlabMutantsAreCaughtAndTheirSchedulesReplay) {
  const Result help = gpulin("explore --help");
  EXPECT_EQ(help.code, 0) << help.err;
  for (const char* mutant : {"slab-search-first-slab", "slab-insert-no-reread", "slab-lost-next-cas"}) {
    EXPECT_NE(help.out.find(mutant), std::string::npos) << mutant << " is not in explore --help";
    const fs::path out = scratch_dir(mutant);
    const Result r = gpulin(std::string("explore --structure slab-map --mutant ") + mutant +
                            " --strategy pct --schedules 100 --out " + quote(out.string()));
    ASSERT_EQ(r.code, 1) << mutant << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("replay: gpulin replay --schedule 'slab-map:"), std::string::npos) << r.out;
    int replayed = 0;
    for (const auto& e : fs::directory_iterator(out)) {
      if (e.path().extension() != ".schedule") continue;
      std::ifstream in(e.path());
      std::string schedule, note;
      std::getline(in, schedule);
      std::getline(in, note);  // "# KIND: message"
      const std::string kind = note.substr(2, note.find(':') - 2);
      const Result again = gpulin("replay --schedule " + quote(schedule));
      EXPECT_EQ(again.code, kind == "proof-points" ? 0 : 1) << schedule << "\n" << again.err;
      EXPECT_NE(again.err.find("verdict: " + kind), std::string::npos) << schedule << "\n" << again.err;
      fs::path history = e.path();
      EXPECT_NE(gpulin("check " + quote(history.replace_extension(".jsonl").string())).code, 2) << history;
      ++replayed;
    }
    EXPECT_GE(replayed, 1) << mutant << ": no .schedule written";
    fs::remove_all(out);
  }
}

TEST(CliExplore, BadSlabInputExitsTwoNamingTheField) {
  const std::pair<const char*, const char*> bad[] = {
      {"replay --schedule 'slab-map:buckets=0|i1=2|'", "buckets"},
      {"replay --schedule 'slab-map:buckets=1|i1=x|'", "value"},
      {"replay --schedule 'slab-map:buckets=1:mutant=nope|i1=2|'", "mutant"},
      {"replay --schedule 'slab-map:buckets=1|i1=2;s1|9'", "does not fit"},
      {"explore --structure slab-map --ops 33", "--ops"},
      {"explore --structure slab-set --mutant early-root-release", "unknown slab-set mutant"},
  };
  for (const auto& [args, field] : bad) {
    const Result r = gpulin(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(field), std::string::npos) << args << "\n" << r.err;
  }
}

// The P-Sync parallel heap: explore passes, each planted mutant (listed by explore
// --help) fails with exit 1 and a replay string that `replay` reproduces; bad psync
// input exits 2 naming the field.
TEST(CliExplore, PsyncPassesAndItsMutantsAreCaught) {
  const Result pass = gpulin("explore --structure psync --r 3 --cycles 20 --schedules 300");
  EXPECT_EQ(pass.code, 0) << pass.out << pass.err;
  for (const char* line : {"violations           0", "invariant failures   0", "deadlocks            0"})
    EXPECT_NE(pass.out.find(line), std::string::npos) << line << "\n" << pass.out;
  const Result help = gpulin("explore --help");
  for (const char* mutant : {"psync-two-levels", "psync-no-barrier", "psync-refill-wrong-end"}) {
    EXPECT_NE(help.out.find(mutant), std::string::npos) << mutant << " is not in explore --help";
    const Result r = gpulin(std::string("explore --structure psync --schedules 1000 --mutant ") + mutant);
    ASSERT_EQ(r.code, 1) << mutant << "\n" << r.out << r.err;
    const size_t at = r.out.find("replay: gpulin replay --schedule '");
    ASSERT_NE(at, std::string::npos) << r.out;
    const size_t from = r.out.find('\'', at) + 1;
    const std::string schedule = r.out.substr(from, r.out.find('\'', from) - from);
    EXPECT_EQ(schedule.rfind(std::string("psync:r=2:mutant=") + mutant, 0), 0u) << schedule;
    const Result again = gpulin("replay --schedule " + quote(schedule));
    EXPECT_EQ(again.code, 1) << schedule << "\n" << again.err;
    EXPECT_NE(again.out.find("\"model\":\"psync-pq\""), std::string::npos) << again.out;
  }
  const std::pair<const char*, const char*> bad[] = {
      {"replay --schedule 'psync:r=1|1,2,3|'", "at most 2r"},
      {"replay --schedule 'psync:r=2|1;2|9*9'", "does not fit"},
      {"explore --structure psync --mutant slab-lost-next-cas", "psync mutant"},
  };
  for (const auto& [args, field] : bad) {
    const Result r = gpulin(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(field), std::string::npos) << args << "\n" << r.err;
  }
}

// gpulin sssp on the CPU and in the simulator: the paper's DAG, every distance
// checked; bad input exits 2 naming the field. (The GPU methods run in the gpu tests.)
TEST(CliSssp, CpuDijkstraOnTheDagIsCheckedAndBadInputRefused) {
  const Result ok = gpulin("sssp --graph dag:500:20000 --method cpu --backend cpu --check");
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("500 vertices reached, the farthest at 499"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("every distance equals"), std::string::npos) << ok.out;
  const Result sim = gpulin("sssp --graph dag:300:5000 --method pardijkstra --backend sim --check");
  EXPECT_EQ(sim.code, 0) << sim.out << sim.err;
  EXPECT_NE(sim.out.find("every distance equals"), std::string::npos) << sim.out;
  const std::pair<const char*, const char*> bad[] = {
      {"sssp --graph dag:500 --method cpu --backend cpu", "want dag:N:M"},
      {"sssp --graph dag:500:10 --method cpu --backend cpu", "499 to 124750 edges"},
      {"sssp --graph dag:500:600 --method cpu --backend cpu --source 500", "--source 500"},
      {"sssp --graph dag:500:600 --method delta --backend cpu", "runs on --backend gpu"},
      {"sssp --graph dag:500:600 --method pardijkstra --backend cpu", "runs on --backend gpu or sim"},
  };
  for (const auto& [args, field] : bad) {
    const Result r = gpulin(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(field), std::string::npos) << args << "\n" << r.err;
  }
}

// The parallel bucket heap: the fixed variant passes, the paper's EXTRACTMIN fails
// (docs/findings.md B1), each mutant (listed by explore --help) fails with exit 1.
TEST(CliExplore, BucketHeapVariantsAndMutants) {
  const Result pass = gpulin("explore --structure bucket-heap --d 2 --ops 60 --schedules 300");
  EXPECT_EQ(pass.code, 0) << pass.out << pass.err;
  EXPECT_NE(pass.out.find("invariant failures   0"), std::string::npos) << pass.out;
  const Result paper = gpulin("explore --structure bucket-heap --variant paper --schedules 1000");
  EXPECT_EQ(paper.code, 1) << paper.out << paper.err;
  EXPECT_NE(paper.out.find("replay: gpulin replay --schedule 'bucket-heap:d=2:variant=paper|"), std::string::npos)
      << paper.out;
  const Result help = gpulin("explore --help");
  for (const char* mutant :
       {"bucket-every-third", "bucket-adjacent-overlap", "bucket-keep-duplicates", "bucket-shift-in-place"}) {
    EXPECT_NE(help.out.find(mutant), std::string::npos) << mutant << " is not in explore --help";
    EXPECT_EQ(gpulin(std::string("explore --structure bucket-heap --schedules 1000 --mutant ") + mutant).code, 1)
        << mutant;
  }
  EXPECT_EQ(gpulin("explore --structure bucket-heap --mutant psync-no-barrier").code, 2);
}

TEST(CliImport, JepsenEtcdZeroIsNotLinearizable) {
  const fs::path log = kShared / "external/porcupine/jepsen/etcd_000.log";
  if (!fs::exists(log)) GTEST_SKIP() << "no " << log;
  const fs::path dir = scratch_dir("import");
  const fs::path hist = dir / "etcd_000.jsonl";
  const Result imp = gpulin("import jepsen-etcd " + quote(log.string()) + " -o " + quote(hist.string()));
  ASSERT_EQ(imp.code, 0) << imp.out << imp.err;
  ASSERT_TRUE(fs::exists(hist));
  const Result check = gpulin("check " + quote(hist.string()));
  EXPECT_EQ(check.code, 1) << check.out << check.err;
  fs::remove_all(dir);
}

TEST(CliImport, MissingInputExitsTwo) {
  const fs::path dir = scratch_dir("import_missing");
  EXPECT_EQ(gpulin("import jepsen-etcd " + quote((dir / "nope.log").string()) + " -o " +
                   quote((dir / "x.jsonl").string()))
                .code,
            2);
  fs::remove_all(dir);
}

}  // namespace

// gpulin render and --render: every example history gets a page (the verdict in its
// data), a malformed one exits 2 naming file and line and writes nothing, and
// explore, check and replay write the page they are asked for.
TEST(CliRender, PagesForExamplesAndTheFlags) {
  const fs::path ex = kSource / "histories/examples";
  const fs::path d = scratch_dir("render");
  for (const auto& [file, verdict] : {std::pair<const char*, const char*>{"pq_batch_not_linearizable.jsonl", "not linearizable"},
                                      {"register.jsonl", "linearizable"},
                                      {"map_explicit.jsonl", "linearizable"}}) {
    const fs::path page = d / (std::string(file) + ".html");
    const Result r = gpulin("render " + quote((ex / file).string()) + " -o " + quote(page.string()));
    EXPECT_EQ(r.code, 0) << file << "\n" << r.out << r.err;
    const std::string html = slurp(page);
    EXPECT_NE(html.find(std::string("\"verdict\":\"") + verdict + "\""), std::string::npos) << file;
    EXPECT_NE(html.find("window.gpulin"), std::string::npos) << file;
  }
  for (const auto& e : fs::directory_iterator(ex / "malformed")) {
    const fs::path page = d / "malformed.html";
    const Result r = gpulin("render " + quote(e.path().string()) + " -o " + quote(page.string()));
    EXPECT_EQ(r.code, 2) << e.path();
    EXPECT_NE(r.err.find(e.path().filename().string() + ":"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(page)) << "no page for a malformed history";
  }
  const fs::path explored = d / "explore.html";
  const Result x = gpulin("explore --structure gheap-td --variant paper --actors 3 --ops 3 --k 4 --strategy pct "
                          "--schedules 2000 --seed 1 --render " + quote(explored.string()));
  EXPECT_EQ(x.code, 1) << x.out << x.err;
  EXPECT_NE(x.out.find("page: " + explored.string()), std::string::npos) << x.out;
  EXPECT_NE(slurp(explored).find("\"note\":\""), std::string::npos);
  const fs::path checked = d / "check.html";
  const Result c = gpulin("check " + quote((ex / "pq_batch_not_linearizable.jsonl").string()) + " --render " +
                          quote(checked.string()));
  EXPECT_EQ(c.code, 1);
  EXPECT_NE(slurp(checked).find("\"verdict\":\"not linearizable\""), std::string::npos);
  const fs::path replayed = d / "replay.html";
  const Result p = gpulin("replay --schedule " +
                          quote("bucket-heap:d=1:variant=paper|u1=463345,u2=540690,u3=355497,u2=441934,x,x,x,x|2.0*152") +
                          " --render " + quote(replayed.string()));
  EXPECT_EQ(p.code, 1) << p.err;
  EXPECT_NE(slurp(replayed).find("\"verdict\":\"not linearizable\""), std::string::npos) << p.err;
}

// Schedule strings that do not fit their program, or ask for billions of picks, are
// bad input (exit 2, one message), never an abort or an allocation without end.
TEST(CliReplay, SchedulesThatDoNotFitExitTwo) {
  for (const char* schedule : {"gheap-td:fixed|d;d;d|0", "gheap-td:fixed:k=4:t=2|d;d;d|0*1073741824",
                               "gheap-bu:fixed:k=4:t=2|i1-2-3-4;d|1*3"}) {
    const Result r = gpulin(std::string("replay --schedule ") + quote(schedule));
    EXPECT_EQ(r.code, 2) << schedule << "\n" << r.err;
    EXPECT_NE(r.err.find("gpulin replay: "), std::string::npos) << r.err;
  }
}


// stress --gpus takes the heaps and the slab hash (bad input for the other
// structures, before anything runs); without a GPU it says so and exits 2.
// Each structure takes its own options: another structure's is refused by name.
TEST(CliStress, GpusIsForHeapsAndTheSlabHashAndNeedsADevice) {
  for (const char* structure : {"psync", "bucket-heap"}) {
    const Result r = gpulin(std::string("stress --structure ") + structure + " --gpus all");
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--gpus runs gheap-td, gheap-bu, slab-map"), std::string::npos) << r.err;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) return;  // tests/gpu/multi_gpu_stress_test.cpp runs it
  for (const char* run : {"gheap-td --keys 4096", "slab-map --initial 4096"}) {
    const Result none = gpulin(std::string("stress --structure ") + run + " --gpus all");
    EXPECT_EQ(none.code, 2) << none.out << none.err;
    EXPECT_NE(none.err.find("no CUDA device"), std::string::npos) << none.err;
  }
}

TEST(CliStress, AnotherStructuresOptionIsRefusedByName) {
  const Result r = gpulin("stress --structure slab-map --keys 4096");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--keys is not an option of slab-map (its options: --buckets"), std::string::npos) << r.err;
  const Result m = gpulin("stress --structure gheap-td --mutant early-root-release");
  EXPECT_EQ(m.code, 2) << m.out << m.err;
  EXPECT_NE(m.err.find("the GPU kernels build one mutant, lost-root-release"), std::string::npos) << m.err;
}

// A run that releases a node it does not hold (the paper BU heap's delete, findings
// F5) broke the lock protocol: a fault, as the survey's columns count it, even
// where only the witness checker meets the stray release (the run itself ends).
TEST(CliReplay, AStrayReleaseIsAFaultNotAViolation) {
  const Result r = gpulin("replay --schedule " +
                          quote("gheap-bu:paper:k=4:t=2|i55-27-48-16,d;i43-39-45-48;d,d,i57-26,i46-60-59-53;i18-21-13-6|"
                                "2*27.3*6.0*2.1*2.0*35.1*2.3*3.1*18.3*7"));
  EXPECT_EQ(r.code, 1) << r.err;
  const std::string said = r.out + r.err;  // the history on stdout, the verdict on stderr
  EXPECT_NE(said.find("run: completed"), std::string::npos) << said;
  EXPECT_NE(said.find("verdict: fault: lock protocol:"), std::string::npos) << said;
  EXPECT_NE(said.find("rel of node 2 by op 1 without a preceding acq"), std::string::npos) << said;
}
