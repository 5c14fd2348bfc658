// Exit codes are a contract (issue 14): every subcommand, given hostile input, exits
// 0, 1, 2 or 3 (pass, violation, bad input, out of budget); never aborts, crashes,
// throws past main or exits otherwise; and bad input (exit 2) gets one message that
// names the file and line, or, for a schedule string or an option, the part at fault.
// The inputs are seeded mutations of valid ones (histories, imported logs, replay
// strings) and every numeric option of every subcommand given a non-number; the
// seeds are fixed, so a failure here names an input that fails again.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tools/run_gpulin.h"

namespace {

namespace fs = std::filesystem;

using namespace cli_test;
using Result = CliResult;

fs::path scratch() {
  static const fs::path d = [] {
    fs::path p = fs::path(testing::TempDir()) / ("gpulin_contract_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}


// What no run may show, whatever its input.
void expect_within_contract(const Result& r, const std::string& what) {
  EXPECT_TRUE(r.code >= 0 && r.code <= 3) << what << ": exit " << r.code << "\n" << r.err;
  for (const char* bad : {"terminate called", "Aborted", "Segmentation", "runtime error:", "AddressSanitizer"})
    EXPECT_EQ(r.err.find(bad), std::string::npos) << what << ": '" << bad << "' on stderr\n" << r.err;
}

// Whether some stderr line names `name`, then ':' and a line number.
bool names_file_and_line(const std::string& err, const std::string& name) {
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);)
    for (size_t at = line.find(name + ":"); at != std::string::npos; at = line.find(name + ":", at + 1))
      if (at + name.size() + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[at + name.size() + 1])))
        return true;
  return false;
}

// One seeded mutation of text: a character deleted, replaced or inserted (from the
// formats' own punctuation and digits), a span duplicated or cut, or a truncation.
std::string mutate(std::string s, std::mt19937_64& rng) {
  static const std::string alphabet = "0123456789|;,.*-=:adix \n{}[]\"ef-9\x7f";
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits; ++e) {
    const size_t at = pick(s.size() + 1);
    switch (rng() % 6) {
      case 0:
        if (at < s.size()) s.erase(at, 1);
        break;
      case 1:
        if (at < s.size()) s[at] = alphabet[pick(alphabet.size())];
        break;
      case 2: s.insert(at, 1, alphabet[pick(alphabet.size())]); break;
      case 3: {
        const size_t len = std::min<size_t>(1 + pick(40), s.size() - std::min(at, s.size()));
        s.insert(at, s.substr(at, len));
        break;
      }
      case 4: s.erase(at, pick(40)); break;
      default: s.resize(at); break;
    }
  }
  return s;
}

std::vector<std::string> nonempty_lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) v.push_back(line);
  return v;
}

// Every mutated input through `run`, which returns the result and what the one
// line of the message must hold: "FILE:" followed by a line number (file inputs),
// or a prefix it must start with (schedule strings: "gpulin replay: ").
struct Expect {
  std::string file;
  std::string prefix;
};
// The sweeps' gpulin processes skip LeakSanitizer's exit-time scan (their hundreds of
// launches are this test's cost): they hold exit codes and messages, and every other
// command-line test keeps the leak check on the same code paths.
template <class Run>
void sweep(const std::vector<std::string>& seeds, int per_seed, uint64_t seed, const std::string& prefix, Run&& run) {
  const NoLeakCheckInChildren no_leak_check;
  std::mt19937_64 rng(seed);
  int bad_input = 0, total = 0;
  for (const std::string& s : seeds)
    for (int i = 0; i < per_seed; ++i) {
      const std::string input = mutate(s, rng);
      const auto [r, want] = run(input, total++);
      const std::string what = prefix + " input #" + std::to_string(total - 1) + " (seed " + std::to_string(seed) + ")";
      expect_within_contract(r, what);
      if (r.code != 2) continue;
      ++bad_input;
      const std::vector<std::string> lines = nonempty_lines(r.err);
      EXPECT_EQ(lines.size(), 1u) << what << ": one message, not " << lines.size() << " lines\n" << r.err;
      if (!want.file.empty()) {
        EXPECT_TRUE(names_file_and_line(r.err, want.file)) << what << ": no FILE:LINE\n" << r.err;
      }
      if (!want.prefix.empty()) {
        EXPECT_EQ(r.err.rfind(want.prefix, 0), 0u) << what << ": not '" << want.prefix << "'\n" << r.err;
      }
    }
  std::printf("[ contract ] %s: %d inputs, %d refused as bad input\n", prefix.c_str(), total, bad_input);
  EXPECT_GT(bad_input, 0) << prefix << ": no mutation was bad input; the sweep tests nothing";
}

std::vector<std::string> files_in(const fs::path& dir, const std::string& ext) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) v.push_back(slurp(e.path()));
  return v;
}

TEST(ExitContract, MutatedHistoriesThroughCheckAndRender) {
  const std::vector<std::string> seeds = files_in(kSource / "histories/examples", ".jsonl");
  ASSERT_GE(seeds.size(), 5u);
  for (const char* sub : {"check", "render"}) {
    sweep(seeds, 10, 14, sub, [&](const std::string& text, int i) {
      const std::string name = "h" + std::to_string(i) + ".jsonl";
      std::ofstream(scratch() / name, std::ios::binary) << text;
      const std::string extra = std::string(sub) == "render" ? " -o " + quote((scratch() / "page.html").string())
                                                             : " --seconds 20";
      return std::pair{gpulin(std::string(sub) + " " + quote((scratch() / name).string()) + extra), Expect{name, ""}};
    });
  }
}

TEST(ExitContract, MutatedLogsThroughBothImporters) {
  const fs::path ext = kShared / "external/porcupine";
  const std::pair<const char*, std::vector<std::string>> formats[] = {
      {"jepsen-etcd", {slurp(ext / "jepsen/etcd_000.log"), slurp(ext / "jepsen/etcd_002.log")}},
      {"porcupine-kv", {slurp(ext / "kv/c01-ok.txt"), slurp(ext / "kv/c01-bad.txt")}},
  };
  for (const auto& [name_of_format, seeds] : formats) {
    const char* format = name_of_format;  // a lambda below uses it (clang 14 cannot capture a structured binding)
    ASSERT_FALSE(seeds[0].empty()) << format << ": seed log missing";
    sweep(seeds, 25, 15, std::string("import ") + format, [&](const std::string& text, int i) {
      const std::string name = "log" + std::to_string(i) + ".txt";
      std::ofstream(scratch() / name, std::ios::binary) << text;
      return std::pair{gpulin(std::string("import ") + format + " " + quote((scratch() / name).string()) + " -o " +
                              quote((scratch() / "imported.jsonl").string())),
                       Expect{name, ""}};
    });
  }
}

// The issue found 7 % of mutated schedule strings aborting `gpulin replay`.
TEST(ExitContract, MutatedScheduleStringsThroughReplay) {
  const std::vector<std::string> seeds = {
      "gheap-td:paper:k=4:t=2|i25-41-42-48;i46-63-36-27,d|1*8.0*11.1*9",
      "gheap-bu:fixed:k=2:t=2|i55-59;i21-5,i41-34,i38-42,i33;i5-54,d,d|1*58.0*12.2*119",
      "gheap-bu:paper:k=4:t=2|i6-40-33-3;i31-46-33-34,d|1*8.0*11.1*10",
      "slab-multimap:buckets=1|i0=1,i0=2,d0,i0=3,s0|",
      "bucket-heap:d=1:variant=paper|u1=463345,u2=540690,u3=355497,u2=441934,x,x,x,x|2.0*152",
      "merge:blocks=0|a=0:;b=0:;c=0|",
  };
  sweep(seeds, 30, 16, "replay", [&](const std::string& text, int) {
    std::string one_line = text;
    for (char& c : one_line)
      if (c == '\n' || c == '\0') c = ' ';
    return std::pair{gpulin("replay --schedule " + quote(one_line)), Expect{"", "gpulin replay: "}};
  });
}

// Litmus tests (tests/litmus/ptx/), mutated: each run, refused or malformed with
// one message naming the file and line.
TEST(ExitContract, MutatedLitmusTestsThroughLitmus) {
  const std::vector<std::string> seeds = files_in(kSource / "tests/litmus/ptx", ".litmus");
  ASSERT_GE(seeds.size(), 10u);
  sweep(seeds, 4, 17, "litmus", [&](const std::string& text, int i) {
    const std::string name = "t" + std::to_string(i) + ".litmus";
    std::ofstream(scratch() / name, std::ios::binary) << text;
    return std::pair{gpulin("litmus --max-executions 2000 " + quote((scratch() / name).string())), Expect{name, ""}};
  });
}

// Every numeric option of every subcommand, given a word: exit 2 naming the option,
// before any work starts.
TEST(ExitContract, EveryNumericOptionRefusesAWord) {
  int tried = 0;
  for (const char* sub : {"explore", "check", "replay", "import", "survey", "stress", "sssp", "render", "knapsack", "litmus"}) {
    const Result help = gpulin(std::string(sub) + " --help");
    EXPECT_EQ(help.code, 0) << sub << " --help\n" << help.err;
    // CLI11's help: "  --name UINT ..." (or INT, FLOAT, ...).
    static const std::regex numeric(R"(^\s*(?:-\w,\s*)?(--[\w-]+)\s+(UINT|INT|FLOAT|NUMBER|ENUM:value in)\b)");
    std::istringstream lines(help.out);
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, numeric)) continue;
      const std::string opt = m[1];
      const Result r = gpulin(std::string(sub) + " " + opt + " twelve");
      ++tried;
      expect_within_contract(r, std::string(sub) + " " + opt + " twelve");
      EXPECT_EQ(r.code, 2) << sub << " " << opt << " twelve\n" << r.out << r.err;
      const std::vector<std::string> lines = nonempty_lines(r.err);
      EXPECT_TRUE(!lines.empty() && lines[0].find(opt) != std::string::npos)
          << sub << " " << opt << ": the message does not name it\n" << r.err;
    }
  }
  std::printf("[ contract ] %d numeric options given a word\n", tried);
  EXPECT_GE(tried, 30);
}

}  // namespace
