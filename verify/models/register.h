// register: one cell, initially null or the header's params.init.
// `write [v]` -> null, `read []` -> v, `cas [old, new]` -> true/false.
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_register_model(Value init);

}  // namespace gpulin
