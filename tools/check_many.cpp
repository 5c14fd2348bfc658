#include "tools/check_many.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <simdjson.h>

#include "histories/value.h"
#include "tools/commands.h"

extern char** environ;

namespace gpulin::cli {

namespace {
namespace fs = std::filesystem;

// The four outcomes a file can have; every one is counted and shown.
enum class Outcome { Linearizable, Violation, Undecided, Error };
constexpr Outcome kOutcomes[] = {Outcome::Linearizable, Outcome::Violation, Outcome::Undecided, Outcome::Error};
const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Linearizable: return "linearizable";
    case Outcome::Violation: return "violation";
    case Outcome::Undecided: return "undecided";
    case Outcome::Error: return "error";
  }
  return "?";
}

struct FileResult {
  std::string file;
  Outcome outcome = Outcome::Error;
  std::string method;
  uint64_t ops = 0;
  double seconds = 0;
  std::string detail;  // the failure, the budget that ran out, or the error (file:line: ...)
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line;
}

// `gpulin check --json FILE ARGS`, its output in files under `scratch`.
FileResult check_one(const std::string& file, const ManyCheckArgs& a, const fs::path& scratch, size_t index) {
  FileResult r;
  r.file = file;
  const std::string out = (scratch / fmt::format("{}.out", index)).string();
  const std::string err = (scratch / fmt::format("{}.err", index)).string();
  std::vector<std::string> argv = {"gpulin", "check", "--json", file};
  argv.insert(argv.end(), a.check_args.begin(), a.check_args.end());
  std::vector<char*> cargv;
  for (std::string& s : argv) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  posix_spawn_file_actions_addopen(&io, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&io, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&io, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, "/proc/self/exe", &io, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&io);
  if (spawned != 0) {
    r.detail = fmt::format("{}: could not start a check: {}", file, std::strerror(spawned));
    return r;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string stdout_text = slurp(out), stderr_text = slurp(err);
  if (!WIFEXITED(status)) {
    r.detail = fmt::format("{}: the check died of signal {}", file, WTERMSIG(status));
    return r;
  }
  const int code = WEXITSTATUS(status);
  if (code == kBadInput) {
    r.detail = first_line(stderr_text);
    return r;
  }
  simdjson::dom::parser parser;
  simdjson::dom::object obj;
  std::string_view method, detail, budget;
  if (parser.parse(stdout_text).get_object().get(obj) || obj["method"].get_string().get(method) ||
      obj["ops"].get_uint64().get(r.ops) || obj["seconds"].get_double().get(r.seconds) ||
      obj["detail"].get_string().get(detail)) {
    r.detail = fmt::format("{}: the check (exit {}) printed no report: {}", file, code, first_line(stderr_text));
    return r;
  }
  r.method = std::string(method);
  r.outcome = code == kPass ? Outcome::Linearizable : code == kViolation ? Outcome::Violation : Outcome::Undecided;
  if (r.outcome == Outcome::Undecided && !obj["budget"].get_string().get(budget))
    r.detail = fmt::format("{} budget exhausted", budget);
  else if (r.outcome != Outcome::Linearizable)
    r.detail = first_line(std::string(detail));
  return r;
}

int exit_of(const std::map<Outcome, size_t>& totals) {
  auto any = [&](Outcome o) { return totals.at(o) > 0; };
  if (any(Outcome::Violation)) return kViolation;
  if (any(Outcome::Error)) return kBadInput;
  if (any(Outcome::Undecided)) return kUndecided;
  return kPass;
}

std::string json_text(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

void print_json(const std::vector<FileResult>& results, const std::map<Outcome, size_t>& totals, int code) {
  std::string out = "{\"files\":[";
  for (size_t i = 0; i < results.size(); ++i) {
    const FileResult& r = results[i];
    out += fmt::format("{}{{\"file\":{},\"outcome\":\"{}\",\"method\":{},\"ops\":{},\"seconds\":{:.6f},\"detail\":{}}}",
                       i ? "," : "", json_text(r.file), outcome_name(r.outcome), json_text(r.method), r.ops, r.seconds,
                       json_text(r.detail));
  }
  out += "],\"totals\":{";
  for (Outcome o : kOutcomes) out += fmt::format("{}\"{}\":{}", o == Outcome::Linearizable ? "" : ",", outcome_name(o), totals.at(o));
  fmt::print("{}}},\"checked\":{},\"exit\":{}}}\n", out, results.size(), code);
}

void print_text(const std::vector<FileResult>& results, const std::map<Outcome, size_t>& totals) {
  for (const FileResult& r : results) {
    if (r.outcome == Outcome::Error)
      fmt::print("{}: error: {}\n", r.file, r.detail);
    else
      fmt::print("{}: {} ({}, {} operations, {:.3f} s){}\n", r.file, outcome_name(r.outcome), r.method, r.ops,
                 r.seconds, r.detail.empty() ? "" : ": " + r.detail);
  }
  std::string line;
  for (Outcome o : kOutcomes) line += fmt::format(", {} {}", totals.at(o), outcome_name(o));
  fmt::print("{} files{}\n", results.size(), line);
}
}  // namespace

std::vector<std::string> history_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      files.push_back(p);  // a file that is missing is reported as that file's error
      continue;
    }
    std::vector<std::string> inside;
    for (const auto& entry : fs::directory_iterator(p, ec)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".jsonl" || ext == ".bin")) inside.push_back(entry.path().string());
    }
    std::sort(inside.begin(), inside.end());
    files.insert(files.end(), inside.begin(), inside.end());
  }
  return files;
}

int check_many(const ManyCheckArgs& a) {
  const std::vector<std::string> files = history_files(a.paths);
  if (files.empty()) {
    fmt::print(stderr, "gpulin check: no history files (*.jsonl, *.bin) in {}\n", fmt::join(a.paths, ", "));
    return kBadInput;
  }
  const fs::path scratch = fs::temp_directory_path() / fmt::format("gpulin-check-{}", ::getpid());
  fs::create_directories(scratch);
  std::vector<FileResult> results(files.size());
  std::atomic<size_t> next{0};
  const unsigned jobs = std::max(1u, a.jobs ? a.jobs : std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < std::min<size_t>(jobs, files.size()); ++j)
    pool.emplace_back([&] {
      for (size_t i; (i = next++) < files.size();) results[i] = check_one(files[i], a, scratch, i);
    });
  for (std::thread& t : pool) t.join();
  fs::remove_all(scratch);
  std::map<Outcome, size_t> totals;
  for (Outcome o : kOutcomes) totals[o] = 0;
  for (const FileResult& r : results) ++totals[r.outcome];
  const int code = exit_of(totals);
  if (a.json)
    print_json(results, totals, code);
  else
    print_text(results, totals);
  return code;
}

}  // namespace gpulin::cli
