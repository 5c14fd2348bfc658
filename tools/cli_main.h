// The `gpulin` command line as a function, so that a program of its own (one that
// registers a structure first, docs/own-structure.md) gets every subcommand:
//
//   int main(int argc, char** argv) {
//     gpulin::registry::structures().add(my_structure_row());
//     return gpulin::cli::run_main(argc, argv);
//   }
#pragma once

namespace gpulin::cli {

// Parses argv, runs the chosen subcommand; the exit code as history-format.md's
// (0 pass, 1 violation, 2 bad input or usage, 3 undecided).
int run_main(int argc, char** argv);

}  // namespace gpulin::cli
