// Running the gpulin binary (GPULIN_BIN) as a user would, for the command-line
// tests: its exit code (128 + the signal when killed) and what it printed.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace cli_test {

inline const std::filesystem::path kSource = GPULIN_SOURCE_DIR;
inline const std::filesystem::path kShared = GPULIN_SHARED_DIR;

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Single-quoted for the shell.
inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A fresh folder under the test's temporary directory.
inline std::filesystem::path scratch_dir(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path d = fs::path(testing::TempDir()) / ("gpulin_cli_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// While it lives, the processes started (in the sanitized build) skip LeakSanitizer's
// exit-time check: ASAN_OPTIONS gains detect_leaks=0, and gets its value back after.
class NoLeakCheckInChildren {
 public:
  NoLeakCheckInChildren() {
    const char* was = std::getenv("ASAN_OPTIONS");
    had_ = was != nullptr;
    if (was) saved_ = was;
    ::setenv("ASAN_OPTIONS", (saved_ + (saved_.empty() ? "" : ":") + "detect_leaks=0").c_str(), 1);
  }
  ~NoLeakCheckInChildren() {
    if (had_)
      ::setenv("ASAN_OPTIONS", saved_.c_str(), 1);
    else
      ::unsetenv("ASAN_OPTIONS");
  }
  NoLeakCheckInChildren(const NoLeakCheckInChildren&) = delete;
  NoLeakCheckInChildren& operator=(const NoLeakCheckInChildren&) = delete;

 private:
  std::string saved_;
  bool had_ = false;
};

// A shell command line, stdin empty: its exit code and what it printed.
inline CliResult run_shell(const std::string& command) {
  static int n = 0;
  const std::filesystem::path d = scratch_dir("io" + std::to_string(n++));
  const std::string cmd = command + " >" + quote((d / "out").string()) + " 2>" + quote((d / "err").string()) +
                          " </dev/null";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(d / "out");
  r.err = slurp(d / "err");
  std::filesystem::remove_all(d);
  return r;
}

// `gpulin ARGS` (ARGS as shell text), stdin empty.
inline CliResult run_gpulin(const std::string& args) { return run_shell(quote(GPULIN_BIN) + " " + args); }
inline CliResult gpulin(const std::string& args) { return run_gpulin(args); }

}  // namespace cli_test
