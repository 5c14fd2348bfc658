// map, unique keys: `replace [key, value]` -> null, `delete [key]` -> null,
// `search [key]` -> value or null. Partitionable by key.
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_map_model();

}  // namespace gpulin
