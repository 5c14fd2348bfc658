// pq: pq-batch with k = 1 (`ins [key]`, `del []` -> [] or [min]).
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_pq_model();

}  // namespace gpulin
