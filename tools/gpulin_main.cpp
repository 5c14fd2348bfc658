// gpulin: list, explore, check, replay, import, survey, stress, sssp, render, knapsack, merge-reports. See README.md.
#include "tools/cli_main.h"

int main(int argc, char** argv) { return gpulin::cli::run_main(argc, argv); }
