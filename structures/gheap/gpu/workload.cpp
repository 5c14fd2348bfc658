#include "structures/gheap/gpu/workload.h"

#include <algorithm>

#include "structures/gheap/config.h"
#include "structures/gheap/gpu/workload_keys.h"

namespace gpulin::stress {

template <class Key>
Workload<Key> make_workload(const std::string& spec, uint64_t keys, uint32_t k, uint32_t blocks, uint64_t seed) {
  const WorkloadShape shape = plan_workload(spec, keys, k, blocks, seed);
  // The key stream: random, or sorted for ascend / descend.
  std::vector<Key> stream(shape.stream_keys);
  for (uint64_t i = 0; i < stream.size(); ++i) stream[i] = stream_key<Key>(seed, i);
  if (shape.order == KeyOrder::Ascend) std::sort(stream.begin(), stream.end());
  if (shape.order == KeyOrder::Descend) std::sort(stream.rbegin(), stream.rend());
  Workload<Key> w;
  w.total_inserts = shape.ins_ops;
  for (const ShapePhase& sp : shape.phases) {
    Phase<Key> p;
    p.name = sp.name;
    for (uint64_t i = sp.begin; i < sp.end; ++i) {
      p.fn.push_back(shape.fn[i]);
      p.n.push_back(shape.n[i]);
      const size_t base = p.keys.size();
      p.keys.resize(base + k, gheap::KeyLimits<Key>::max_value);  // unused slots MAX
      if (shape.fn[i] == gheap::kFnIns) {
        std::copy_n(stream.begin() + static_cast<long>(shape.off[i]), shape.n[i], p.keys.begin() + static_cast<long>(base));
        p.inserted_keys += shape.n[i];
      }
    }
    w.phases.push_back(std::move(p));
  }
  return w;
}
template Workload<uint32_t> make_workload(const std::string&, uint64_t, uint32_t, uint32_t, uint64_t);
template Workload<uint64_t> make_workload(const std::string&, uint64_t, uint32_t, uint32_t, uint64_t);

}  // namespace gpulin::stress
