#include "tools/stress/workload.h"

#include <algorithm>
#include <random>

#include "structures/gheap/config.h"

namespace gpulin::stress {

namespace {
constexpr uint32_t kMaxKey = 0xfffffffeu;  // MAX_VALUE itself marks empty slots
}  // namespace

Workload make_workload(const std::string& spec, uint64_t keys, uint32_t k, uint32_t blocks, uint64_t seed) {
  const WorkloadShape shape = plan_workload(spec, keys, k, blocks, seed);
  // The key stream: random, or sorted for ascend / descend.
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> stream(shape.stream_keys);
  for (auto& x : stream) x = static_cast<uint32_t>(rng() % kMaxKey);
  if (shape.order == KeyOrder::Ascend) std::sort(stream.begin(), stream.end());
  if (shape.order == KeyOrder::Descend) std::sort(stream.rbegin(), stream.rend());
  Workload w;
  w.total_inserts = shape.ins_ops;
  for (const ShapePhase& sp : shape.phases) {
    Phase p{sp.name};
    for (uint64_t i = sp.begin; i < sp.end; ++i) {
      p.fn.push_back(shape.fn[i]);
      p.n.push_back(shape.n[i]);
      const size_t base = p.keys.size();
      p.keys.resize(base + k, 0xffffffffu);  // unused slots MAX
      if (shape.fn[i] == gheap::kFnIns) {
        std::copy_n(stream.begin() + static_cast<long>(shape.off[i]), shape.n[i], p.keys.begin() + static_cast<long>(base));
        p.inserted_keys += shape.n[i];
      }
    }
    w.phases.push_back(std::move(p));
  }
  return w;
}

}  // namespace gpulin::stress
