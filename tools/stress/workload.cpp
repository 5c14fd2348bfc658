#include "tools/stress/workload.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "structures/gheap/config.h"

namespace gpulin::stress {

namespace {
constexpr uint32_t kMaxKey = 0xfffffffeu;  // MAX_VALUE itself marks empty slots

void push_insert(Phase& p, uint32_t k, const uint32_t* keys, uint32_t n) {
  p.fn.push_back(gheap::kFnIns);
  p.n.push_back(n);
  const size_t base = p.keys.size();
  p.keys.resize(base + k, 0xffffffffu);
  std::copy(keys, keys + n, p.keys.begin() + static_cast<long>(base));
  p.inserted_keys += n;
}
void push_delete(Phase& p, uint32_t k) {
  p.fn.push_back(gheap::kFnDel);
  p.n.push_back(0);
  p.keys.resize(p.keys.size() + k, 0xffffffffu);
}
uint64_t parse_param(const std::string& spec, size_t colon) {
  try {
    return std::stoull(spec.substr(colon + 1));
  } catch (...) {
    throw std::invalid_argument("workload '" + spec + "': bad number");
  }
}
}  // namespace

Workload make_workload(const std::string& spec, uint64_t keys, uint32_t k, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Workload w;
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  if (kind == "random" || kind == "ascend" || kind == "descend" || kind == "partial") {
    const uint64_t partial = kind == "partial" ? parse_param(spec, colon) : 0;
    if (partial > 100) throw std::invalid_argument("workload '" + spec + "': percent above 100");
    std::vector<uint32_t> all(keys);
    for (auto& x : all) x = static_cast<uint32_t>(rng() % kMaxKey);
    if (kind == "ascend") std::sort(all.begin(), all.end());
    if (kind == "descend") std::sort(all.rbegin(), all.rend());
    Phase ins{"insert"}, del{"delete"};
    for (uint64_t i = 0; i < keys;) {
      uint32_t n = k;
      if (partial && k > 1 && rng() % 100 < partial) n = 1 + static_cast<uint32_t>(rng() % (k - 1));
      n = static_cast<uint32_t>(std::min<uint64_t>(n, keys - i));
      push_insert(ins, k, all.data() + i, n);
      i += n;
    }
    // Enough deletes to empty the heap: each returns k keys while full nodes last.
    for (uint64_t d = 0; d < (keys + k - 1) / k + 1; ++d) push_delete(del, k);
    w.total_inserts = ins.fn.size();
    w.phases.push_back(std::move(ins));
    w.phases.push_back(std::move(del));
    return w;
  }
  if (kind == "insdel") {
    const uint64_t levels = parse_param(spec, colon);
    if (levels < 1 || levels > 24) throw std::invalid_argument("workload '" + spec + "': levels from 1 to 24");
    Phase fill{"fill"}, pairs{"insert-delete pairs"};
    std::vector<uint32_t> batch(k);
    for (uint64_t i = 0; i < (1ull << levels) - 1; ++i) {
      for (auto& x : batch) x = static_cast<uint32_t>(rng() % kMaxKey);
      push_insert(fill, k, batch.data(), k);
    }
    for (uint64_t i = 0; i < (keys + k - 1) / k; ++i) {
      for (auto& x : batch) x = static_cast<uint32_t>(rng() % kMaxKey);
      push_insert(pairs, k, batch.data(), k);
      push_delete(pairs, k);
    }
    w.total_inserts = fill.fn.size() + pairs.fn.size() / 2;
    w.phases.push_back(std::move(fill));
    w.phases.push_back(std::move(pairs));
    return w;
  }
  throw std::invalid_argument("unknown workload '" + spec + "' (random, ascend, descend, partial:P, insdel:L)");
}

}  // namespace gpulin::stress
