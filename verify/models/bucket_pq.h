// bucket-pq, the parallel bucket heap: a map value -> priority (integers).
// `update [[value, priority], ...]` -> null sets each priority (replacing);
// `extractmin []` -> [value, priority] of least priority (ties: any), or null when
// empty; `delete [value]` -> null removes the value if present.
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_bucket_pq_model();

}  // namespace gpulin
