#include "tools/cli_main.h"

#include <cstdio>

#include "tools/commands.h"

namespace gpulin::cli {

int run_main(int argc, char** argv) {
  CLI::App app{"gpulin: a testbed for concurrent GPU data structures"};
  app.require_subcommand(1);
  std::function<int()> run;
  add_list(app, run);
  add_explore(app, run);
  add_check(app, run);
  add_replay(app, run);
  add_import(app, run);
  add_survey(app, run);
  add_stress(app, run);
  add_sssp(app, run);
  add_render(app, run);
  add_knapsack(app, run);
  add_merge_reports(app, run);
  add_litmus(app, run);
  add_ablate(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kBadInput;
  }
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulin: %s\n", e.what());
    return kBadInput;
  }
}

}  // namespace gpulin::cli
