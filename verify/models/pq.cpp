#include "verify/models/pq.h"

#include "verify/models/pq_batch.h"

namespace gpulin {

// The format defines pq as pq-batch with k = 1; sharing the code keeps them equal.
std::unique_ptr<Model> make_pq_model() { return make_pq_batch_model("pq", 1); }

}  // namespace gpulin
