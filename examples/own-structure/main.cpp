// own-stack: gpulin's command line with one more structure. The model and the row
// are added before the command line runs; then every subcommand knows them:
//   own-stack list | explore --structure lock-stack | replay --schedule '...' |
//   survey --only lock-stack | stress --structure lock-stack --record | check FILE
#include "lock_stack_row.h"
#include "stack_model.h"
#include "tools/cli_main.h"
#include "tools/registry/registry.h"

int main(int argc, char** argv) {
  own::register_stack_model();
  gpulin::registry::structures().add(own::lock_stack_row());
  return gpulin::cli::run_main(argc, argv);
}
