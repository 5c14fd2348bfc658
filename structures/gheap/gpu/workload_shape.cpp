#include "structures/gheap/gpu/workload_shape.h"

#include <algorithm>
#include <stdexcept>

#include "structures/gheap/config.h"

namespace gpulin::stress {

namespace {

uint64_t parse_param(const std::string& spec, size_t colon) {
  try {
    if (colon == std::string::npos) throw std::invalid_argument("");
    return std::stoull(spec.substr(colon + 1));
  } catch (...) {
    throw std::invalid_argument("workload '" + spec + "': bad number");
  }
}

// SplitMix64: the partial sizes, the same on every machine and compiler.
struct SplitMix {
  uint64_t s;
  uint64_t operator()() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

struct Builder {
  WorkloadShape& w;
  void ins(uint32_t n) {
    w.fn.push_back(gheap::kFnIns);
    w.n.push_back(n);
    w.off.push_back(w.stream_keys);
    w.stream_keys += n;
    ++w.ins_ops;
  }
  void del() {
    w.fn.push_back(gheap::kFnDel);
    w.n.push_back(0);
    w.off.push_back(0);
  }
  void phase(const std::string& name, uint64_t begin, bool timed) { w.phases.push_back({name, begin, w.ops(), timed}); }
};

}  // namespace

WorkloadShape plan_workload(const std::string& spec, uint64_t keys, uint32_t k, uint32_t blocks, uint64_t seed) {
  if (k == 0) throw std::invalid_argument("workload '" + spec + "': k must be at least 1");
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  WorkloadShape w;
  w.name = spec;
  w.k = k;
  Builder b{w};
  if (kind == "random" || kind == "ascend" || kind == "descend" || kind == "partial") {
    if (kind != "partial" && colon != std::string::npos) throw std::invalid_argument("workload '" + spec + "' takes no parameter");
    const uint64_t percent = kind == "partial" ? parse_param(spec, colon) : 0;
    if (percent > 100) throw std::invalid_argument("workload '" + spec + "': percent above 100");
    w.order = kind == "ascend" ? KeyOrder::Ascend : kind == "descend" ? KeyOrder::Descend : KeyOrder::Random;
    SplitMix rng{seed * 0x2545f4914f6cdd1dull + percent};
    while (w.stream_keys < keys) {
      uint32_t n = k;
      if (percent && k > 1 && rng() % 100 < percent) n = 1 + static_cast<uint32_t>(rng() % (k - 1));
      b.ins(static_cast<uint32_t>(std::min<uint64_t>(n, keys - w.stream_keys)));
    }
    b.phase("insert", 0, true);
    const uint64_t ins_end = w.ops();
    for (uint64_t d = 0; d < (keys + k - 1) / k + 1; ++d) b.del();
    b.phase("delete", ins_end, true);
    w.timed_keys = keys;
    return w;
  }
  if (kind == "insdel") {
    const uint64_t levels = parse_param(spec, colon);
    if (levels < 1 || levels > 24) throw std::invalid_argument("workload '" + spec + "': levels from 1 to 24");
    const uint64_t fill = (1ull << levels) - 1, pairs = std::max<uint64_t>(1, keys / k);
    const uint64_t round = std::max<uint32_t>(blocks, 1);
    for (uint64_t i = 0; i < fill; ++i) b.ins(k);
    b.phase("fill", 0, false);
    const uint64_t pairs_begin = w.ops();
    for (uint64_t done = 0; done < pairs;) {
      const uint64_t g = std::min(round, pairs - done);
      for (uint64_t i = 0; i < g; ++i) b.ins(k);
      for (uint64_t i = 0; i < g; ++i) b.del();
      done += g;
    }
    b.phase("pairs", pairs_begin, true);
    w.timed_keys = pairs * k;
    // After the pairs lastelem is back at `fill`; two spare deletes empty the rest.
    const uint64_t drain_begin = w.ops();
    for (uint64_t i = 0; i < fill + 2; ++i) b.del();
    b.phase("drain", drain_begin, false);
    return w;
  }
  throw std::invalid_argument("unknown workload '" + spec + "' (random, ascend, descend, partial:P, insdel:L)");
}

}  // namespace gpulin::stress
