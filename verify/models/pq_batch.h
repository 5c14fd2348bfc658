// pq-batch (param k >= 1): `ins [key, ...]` (1 to k keys) -> null adds every key;
// `del []` -> the min(k, |S|) smallest keys, ascending, removed.
#pragma once

#include <memory>
#include <string>

#include "verify/model.h"

namespace gpulin {

// `name` is "pq-batch", or "pq" for the k = 1 model that shares these semantics.
std::unique_ptr<Model> make_pq_batch_model(std::string name, int64_t k);

}  // namespace gpulin
