// gpulin: explore, merge-reports, check, replay, import, survey, stress, sssp, render, knapsack. See README.md.
#include <cstdio>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"gpulin: a testbed for concurrent GPU data structures"};
  app.require_subcommand(1);
  std::function<int()> run;
  gpulin::cli::add_explore(app, run);
  gpulin::cli::add_check(app, run);
  gpulin::cli::add_replay(app, run);
  gpulin::cli::add_import(app, run);
  gpulin::cli::add_survey(app, run);
  gpulin::cli::add_stress(app, run);
  gpulin::cli::add_sssp(app, run);
  gpulin::cli::add_render(app, run);
  gpulin::cli::add_knapsack(app, run);
  gpulin::cli::add_merge_reports(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return gpulin::cli::kBadInput;
  }
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulin: %s\n", e.what());
    return gpulin::cli::kBadInput;
  }
}
