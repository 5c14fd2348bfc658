// set: `insert [key]` -> null, `delete [key]` -> null, `contains [key]` ->
// true/false. Partitionable by key.
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_set_model();

}  // namespace gpulin
