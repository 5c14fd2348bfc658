// gpulin check FILE: one history against its model, by the proof's witness, the
// general search, or both (auto). Several files or folders: check_many.h.
#include <chrono>
#include <filesystem>

#include <fmt/core.h>

#include "histories/binary_format.h"
#include "tools/check_keyed.h"
#include "tools/check_many.h"
#include "tools/check_report.h"
#include "tools/commands.h"
#include "tools/render_page.h"
#include "verify/minimise.h"
#include "verify/model_registry.h"
#include "verify/search_checker.h"
#include "verify/witness_checker.h"

namespace gpulin::cli {

namespace {
struct CheckArgs {
  std::vector<std::string> files;  // one history, or several, or folders of them
  std::string file;
  unsigned jobs = 0;
  std::string method = "auto";
  uint64_t budget = SearchOptions{}.max_steps;        // search steps, whole check
  size_t memory = SearchOptions{}.max_memory_bytes;  // bytes of the search's memo
  // Wall-clock seconds of the search: a backstop where steps are slow (large states),
  // so that no check runs without end whatever the machine.
  double seconds = SearchOptions{}.max_seconds;     // wall-clock seconds, whole check
  bool json = false;
  bool no_partition = false;
  size_t minimise_max_ops = 200;
  std::string render;  // also write the history's timeline page here
};

int check_file(const CheckArgs& a) {
  SearchOptions so;
  so.max_steps = a.budget;
  so.max_memory_bytes = a.memory;
  so.max_seconds = a.seconds;
  so.partition = !a.no_partition;
  // With --render, the page of the history the check read (the keyed path reads its
  // lean form itself: the page then reads the file).
  auto with_page = [&](int code, const History* read) {
    if (a.render.empty() || code == kBadInput) return code;
    try {
      fmt::print(stderr, "page: {}\n", write_timeline_page(read ? *read : read_history_any(a.file), a.render, a.file));
    } catch (const std::exception& e) {
      fmt::print(stderr, "{}\n", e.what());
      return int(kBadInput);
    }
    return code;
  };
  if (auto decided = check_keyed({a.file, a.method, a.json, so, a.minimise_max_ops})) return with_page(*decided, nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  History h;
  try {
    h = read_history_any(a.file);
    model_for(h).validate_ops(h);
  } catch (const FormatError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kBadInput;
  }
  CheckReport out;
  out.file = a.file;
  const bool has_rule = !h.header.lp_rule.empty();
  if (a.method == "witness" && !has_rule) {
    fmt::print(stderr, "{}:1: --method witness needs an lp_rule in the header\n", a.file);
    return kBadInput;
  }
  if (has_rule && a.method != "search") {
    WitnessOptions wo;
    wo.explain = true;
    wo.search = so;
    const WitnessResult w = check_witness(h, wo);
    out.method = "witness " + h.header.lp_rule;
    out.verdict = w.verdict;
    if (w.violation) out.detail = w.violation->message;
    if (w.explanation) out.detail += "\n  window search: " + w.explanation->message;
  }
  if (a.method == "search" || (a.method == "auto" && (!has_rule || out.verdict != Verdict::Linearizable))) {
    const SearchResult s = check_search(h, so);
    if (!out.method.empty()) out.detail = "the proof's points fail: " + out.detail + "\n  ";
    out.method = out.method.empty() ? "search" : out.method + ", then search";
    out.verdict = s.verdict;
    out.states = s.states_explored;
    out.steps = s.steps;
    out.budget = s.budget;
    out.detail += s.message;
  }
  out.ops = h.ops.size();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (out.verdict == Verdict::NotLinearizable && h.ops.size() <= a.minimise_max_ops) {
    // By the method whose verdict is reported, so that it blames the op the detail names.
    const bool by_search = out.method.find("search") != std::string::npos;
    set_minimal(out, minimise(h, by_search ? CheckMethod::Search : CheckMethod::Witness, so));
  }
  return with_page(print_report(out, a.json), &h);
}
// Several files or a folder: each checked alone, in parallel, and summarised.
int check_files(CheckArgs& a) {
  std::error_code ec;
  if (a.files.size() == 1 && !std::filesystem::is_directory(a.files[0], ec)) {
    a.file = a.files[0];
    return check_file(a);
  }
  if (!a.render.empty()) {
    fmt::print(stderr, "gpulin check: --render takes one history file\n");
    return kBadInput;
  }
  ManyCheckArgs many{a.files, {}, a.jobs, a.json};
  many.check_args = {"--method",  a.method, "--budget", std::to_string(a.budget), "--memory", std::to_string(a.memory),
                     "--seconds", fmt::format("{}", a.seconds), "--minimise-max-ops", "0"};
  if (a.no_partition) many.check_args.push_back("--no-partition");
  return check_many(many);
}
}  // namespace

void add_check(CLI::App& app, std::function<int()>& run) {
  auto a = std::make_shared<CheckArgs>();
  CLI::App* sub = app.add_subcommand("check", "check a history file, or many files and folders in parallel (exit 0 pass, "
                                              "1 violation, 2 bad input, 3 undecided)");
  sub->add_option("files", a->files,
                  "history, JSON Lines (history-format v1) or its binary form; several files or folders (their *.jsonl "
                  "and *.bin) are checked in parallel, one line per file and the totals of every verdict")
      ->required();
  sub->add_option("--jobs", a->jobs, "files checked at once (several files or folders; default: one per core)")
      ->check(CLI::Range(1u, 4096u));
  sub->add_option("--method", a->method, "auto, search or witness")->check(CLI::IsMember({"auto", "search", "witness"}));
  sub->add_option("--budget", a->budget,
                  "search budget in steps over the whole check, 0 for none (then: undecided, exit 3)")
      ->capture_default_str();
  // AsSizeValue(false): suffixes K, M, G... (or KB, KiB) count in powers of 1024.
  sub->add_option("--memory", a->memory,
                  "memory budget of the search, in bytes with an optional suffix (512M, 2G), 0 for none "
                  "(then: undecided, exit 3)")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  sub->add_option("--seconds", a->seconds, "time budget of the search in seconds, 0 for none (then: undecided, exit 3)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_flag("--json", a->json, "one JSON object on standard output");
  sub->add_flag("--no-partition", a->no_partition, "search without partitioning by key");
  sub->add_option("--render", a->render, "also write the history's timeline page here (gpulin render)");
  sub->add_option("--minimise-max-ops", a->minimise_max_ops, "minimise violations of histories up to this many ops");
  sub->callback([a, &run] { run = [a] { return check_files(*a); }; });
}

}  // namespace gpulin::cli
