// The models a history may name (history-format.md, "Models"), with the header
// parameters each requires: the one list the readers, the header rules, the
// checkers' model registry (verify/model_registry.h) and `gpulin list` read. A
// program with a structure of its own adds its model here through
// verify's register_model, which also gives the checker its sequential model.
#pragma once

#include <string>
#include <deque>
#include <vector>

namespace gpulin {

struct ModelInfo {
  std::string name;
  std::vector<std::string> positive_params;  // header params that must be integers >= 1
  std::string summary;                       // one line for `gpulin list`
};

// The built-in models in history-format.md's order, then those a program added
// (a deque: entries stay where they are as models are added).
const std::deque<ModelInfo>& model_catalog();
const ModelInfo* find_model_info(const std::string& name);
// Adds a model; throws std::invalid_argument when its name is taken.
void add_model_info(ModelInfo info);

}  // namespace gpulin
