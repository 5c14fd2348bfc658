// gpulin litmus FILE...: PTX litmus tests (herd's format, tools/litmus/
// litmus_parse.h) run through the simulator under the ptx memory model (or, with
// --memory sc, with every load reading the newest store), every execution explored.
// A line per test: `NAME: holds` or `NAME: does not hold` for the test's own
// condition, the executions explored, and the deciding execution's schedule; --json
// prints one object per test instead. `--schedule PICKS` replays one execution of a
// single test and prints what each instruction read.
// Exit 0 when every test ran; 2 when a file is malformed or a test uses what the
// simulator does not model (refused: one message naming the file and line, on
// stderr, or the JSON object's "refused"); 3 when --max-executions ran out before a
// test was explored completely.
#include <fmt/core.h>

#include "histories/history.h"
#include "histories/value.h"
#include "sim/schedule_string.h"
#include "sim/memory/memory_mode.h"
#include "tools/commands.h"
#include "tools/litmus/litmus_parse.h"
#include "tools/litmus/litmus_run.h"

namespace gpulin::cli {

namespace {

int run_litmus_files(const std::vector<std::string>& files, bool json, uint64_t max_executions, litmus::MemoryMode memory) {
  int code = kPass;
  for (const std::string& file : files) {
    litmus::LitmusTest t;
    try {
      t = litmus::read_litmus_file(file);
    } catch (const FormatError& e) {
      if (json) fmt::print("{{\"file\":{},\"error\":{}}}\n", json_quoted(file), json_quoted(e.what()));
      else fmt::print(stderr, "gpulin litmus: {}\n", e.what());
      code = kBadInput;
      continue;
    }
    if (!t.refused.empty()) {
      if (json)
        fmt::print("{{\"name\":{},\"file\":{},\"refused\":{}}}\n", json_quoted(t.name), json_quoted(file),
                   json_quoted(t.refused));
      else fmt::print(stderr, "gpulin litmus: {} (test {} uses what the simulator does not model)\n", t.refused, t.name);
      code = kBadInput;
      continue;
    }
    const litmus::LitmusResult r = litmus::run_litmus(t, max_executions, memory);
    const std::string mode = memory == litmus::MemoryMode::Sc ? " --memory sc" : "";
    const std::string witness = r.has_witness ? sim::encode_picks(r.witness) : "";
    if (json) {
      fmt::print("{{\"name\":{},\"file\":{},\"memory\":\"{}\",\"holds\":{},\"complete\":{},\"executions\":{},"
                 "\"hung\":{},\"hangs\":{},\"outcomes\":{}{}}}\n",
                 json_quoted(t.name), json_quoted(file), sim::memory::to_string(memory), r.holds ? "true" : "false",
                 r.complete ? "true" : "false",
                 r.executions, r.hung, r.always_hangs() ? "true" : "false", r.distinct_outcomes,
                 r.has_witness ? ",\"witness\":" + json_quoted(witness) : std::string());
    } else {
      fmt::print("{}{}: {}  ({} executions{}, {} distinct final states{}){}\n", t.name,
                 memory == litmus::MemoryMode::Sc ? " (sc)" : "",
                 r.always_hangs() ? "hangs in every execution (a barrier never releases)"
                 : r.holds        ? "holds"
                                  : "does not hold",
                 r.executions, r.complete ? "" : ", NOT all: budget spent",
                 r.distinct_outcomes, r.hung ? fmt::format(", {} hung at a barrier", r.hung) : "",
                 r.has_witness
                     ? fmt::format("\n  deciding execution: gpulin litmus {}{} --schedule '{}'", file, mode, witness)
                     : "");
    }
    if (!r.complete && code == kPass) code = kUndecided;
  }
  return code;
}

int replay_litmus(const std::string& file, const std::string& schedule, litmus::MemoryMode memory) {
  try {
    const litmus::LitmusTest t = litmus::read_litmus_file(file);
    if (!t.refused.empty()) {
      fmt::print(stderr, "gpulin litmus: refused: {}\n", t.refused);
      return kBadInput;
    }
    fmt::print("{} ({}), schedule '{}':\n{}", t.name, file, schedule,
               litmus::describe_execution(t, sim::decode_picks(schedule), memory));
    return kPass;
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpulin litmus: {}\n", e.what());
    return kBadInput;
  }
}

}  // namespace

void add_litmus(CLI::App& app, std::function<int()>& run) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto max_executions = std::make_shared<uint64_t>(10'000'000);
  auto schedule = std::make_shared<std::string>();
  auto memory = std::make_shared<std::string>("ptx");
  CLI::App* sub = app.add_subcommand(
      "litmus", "run PTX litmus tests (herd format) under the ptx memory model, every execution explored");
  sub->add_option("files", *files, "litmus test files")->required();
  sub->add_flag("--json", *json, "one JSON object per test: name, holds or refused, executions, witness");
  sub->add_option("--max-executions", *max_executions, "executions explored per test before giving up (exit 3)");
  sub->add_option("--schedule", *schedule, "replay this execution of the (single) test and print what it read");
  sub->add_option("--memory", *memory, "ptx (the PTX memory model) or sc (every load reads the newest store)")
      ->check(CLI::IsMember({"sc", "ptx"}));
  sub->callback([files, json, max_executions, schedule, memory, &run] {
    run = [files, json, max_executions, schedule, memory] {
      const litmus::MemoryMode mode = *sim::memory::parse_memory_mode(*memory);
      if (!schedule->empty()) {
        if (files->size() != 1) {
          fmt::print(stderr, "gpulin litmus: --schedule replays one test: give one file\n");
          return int(kBadInput);
        }
        return replay_litmus(files->front(), *schedule, mode);
      }
      return run_litmus_files(*files, *json, *max_executions, mode);
    };
  });
}

}  // namespace gpulin::cli
