// The subcommands of `gpulin`, each registered on the CLI11 app by its own file.
// Exit codes follow history-format.md: 0 pass, 1 violation, 2 bad input or usage,
// 3 undecided.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace gpulin::cli {

enum Exit : int { kPass = 0, kViolation = 1, kBadInput = 2, kUndecided = 3 };

// Each adds its subcommand; `run` is set to the action when that subcommand is chosen.
void add_list(CLI::App& app, std::function<int()>& run);
void add_explore(CLI::App& app, std::function<int()>& run);
void add_check(CLI::App& app, std::function<int()>& run);
void add_replay(CLI::App& app, std::function<int()>& run);
void add_import(CLI::App& app, std::function<int()>& run);
void add_survey(CLI::App& app, std::function<int()>& run);
void add_stress(CLI::App& app, std::function<int()>& run);
void add_sssp(CLI::App& app, std::function<int()>& run);
void add_render(CLI::App& app, std::function<int()>& run);
void add_knapsack(CLI::App& app, std::function<int()>& run);
void add_merge_reports(CLI::App& app, std::function<int()>& run);
void add_litmus(CLI::App& app, std::function<int()>& run);
void add_ablate(CLI::App& app, std::function<int()>& run);

}  // namespace gpulin::cli
