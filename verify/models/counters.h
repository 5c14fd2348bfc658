// counters, an array of integer counters starting at 0: `add [i, d]` -> null adds d
// to counter i; `get [i]` -> [value] (a one-key array, as an executor's recorder
// writes results). Partitionable by i. The model of the example structure
// (structures/counter_array/counter_array.h, docs/architecture.md).
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_counters_model();

}  // namespace gpulin
