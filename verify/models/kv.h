// kv: string keys to strings, every key initially "".
// `get [key]` -> string, `put [key, s]` -> null, `append [key, s]` -> null
// (concatenates). Partitionable by key.
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_kv_model();

}  // namespace gpulin
