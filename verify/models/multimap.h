// multimap: a list of (key, value) pairs in insertion order.
// `insert [key, value]` -> null appends; `search [key]` -> the value of the least
// recently inserted pair with that key, or null; `searchall [key]` -> every value
// with that key (any order); `delete [key]` -> null removes that least recent
// pair; `deleteall [key]` -> null removes every pair with the key.
// Partitionable by key.
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_multimap_model();

}  // namespace gpulin
