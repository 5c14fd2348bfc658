// A registered structure's parameters on the command line, shared by `explore`
// (a row's params) and `stress` (its stress_params): every name some row declares
// is one option, and the selected row checks the values given
// (registry::set_param, set_stress_param).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tools/registry/registry.h"

namespace gpulin::cli {

using ParamsOf = std::function<const std::vector<registry::Param>&(const registry::StructureRow&)>;

// Adds --NAME for every parameter of every row (params_of(row)) once, as a text
// option whose help names each row that takes it, with its range and default; a
// value given lands in given[NAME].
void add_param_options(CLI::App* sub, const ParamsOf& params_of, std::map<std::string, std::string>& given);

// What a parameter takes: "1-64", "light, regular", "text".
std::string param_range(const registry::Param& p);

// "--k 4 (1-1024), --alloc light (light, regular)": a row's parameters for `list`.
std::vector<std::string> param_summaries(const std::vector<registry::Param>& params);

}  // namespace gpulin::cli
