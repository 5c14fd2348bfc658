// psync-pq (param r >= 1), the P-Sync parallel heap's cycle: `cycle [key, ...]`
// (0 to 2r new keys) adds them, then removes and returns the min(r, |S|) smallest,
// ascending.
#pragma once

#include <memory>

#include "verify/model.h"

namespace gpulin {

std::unique_ptr<Model> make_psync_pq_model(int64_t r);

}  // namespace gpulin
