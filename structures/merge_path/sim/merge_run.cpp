#include "structures/merge_path/sim/merge_run.h"

#include <algorithm>
#include <string>

#include "structures/merge_path/sim/merge_sim.h"

namespace gpulin::explore {

namespace {

constexpr uint32_t kFromB = 0x80000000u;
constexpr uint32_t kPoison = 0xffffffffu;  // never a key (keys < 2^31) nor a tag
constexpr uint32_t kGuard = 4;              // output slots past the end that must stay poisoned

// A 16-byte aligned array with `off` elements before the data.
struct Placed {
  std::vector<uint32_t> buf;
  uint32_t* p;
  Placed(size_t n, uint32_t off, uint32_t fill) : buf(n + off + 4 + kGuard, fill) {
    const auto addr = reinterpret_cast<uintptr_t>(buf.data());
    p = buf.data() + ((16 - addr % 16) % 16) / sizeof(uint32_t) + off;
  }
};

std::string describe(uint32_t key, uint32_t tag) {
  if (key == kPoison && tag == kPoison) return "nothing (never written)";
  return std::to_string(key) + " (" + ((tag & kFromB) ? "B[" : "A[") + std::to_string(tag & ~kFromB) + "])";
}

}  // namespace

uint32_t merge_actors(const MergeConfig& c, const MergeProgram& p) {
  const uint64_t blocks = std::clamp<uint32_t>(c.blocks, 1, kMergeMaxBlocks);
  return static_cast<uint32_t>(merge_path::sim_merge_blocks<ExploreMergePolicy>(p.a.size(), p.b.size(), blocks) *
                               merge_path::block_warps<ExploreMergePolicy>());
}

MergeExecution execute_merge(const MergeConfig& c, const MergeProgram& p, sim::Strategy& strategy,
                             uint64_t max_points, bool begun) {
  const size_t na = p.a.size(), nb = p.b.size(), n = na + nb;
  // Values sit at other 16-byte phases than their keys: placement works per array.
  Placed ka(na, p.off_a, 0), kb(nb, p.off_b, 0), ta(na, p.off_b, 0), tb(nb, p.off_a, 0);
  std::copy(p.a.begin(), p.a.end(), ka.p);
  std::copy(p.b.begin(), p.b.end(), kb.p);
  for (size_t i = 0; i < na; ++i) ta.p[i] = static_cast<uint32_t>(i);
  for (size_t j = 0; j < nb; ++j) tb.p[j] = kFromB | static_cast<uint32_t>(j);
  Placed kc(n, p.off_c, kPoison), tc(n, (p.off_c + 1) % 4, kPoison);

  merge_path::MergeArgs<uint32_t, uint32_t, merge_path::Less> args{ka.p, ta.p, na, kb.p, tb.p, nb,
                                                                  kc.p, tc.p, 0,    merge_path::Less()};
  const uint64_t blocks = std::clamp<uint32_t>(c.blocks, 1, kMergeMaxBlocks);
  merge_path::SimMergeStats st;
  // The mutant is a template argument: each instantiation is a separate merge.
  using merge_path::MergeMutant;
  auto run = [&]<MergeMutant M>() {
    return merge_path::sim_merge_impl<ExploreMergePolicy, M>(args, blocks, strategy, max_points, begun, c.memory);
  };
  switch (c.mutant) {
    case MergeMutant::None: st = run.template operator()<MergeMutant::None>(); break;
    case MergeMutant::WindowOverrun: st = run.template operator()<MergeMutant::WindowOverrun>(); break;
    case MergeMutant::EarlyRelease: st = run.template operator()<MergeMutant::EarlyRelease>(); break;
    case MergeMutant::NoWarpSync: st = run.template operator()<MergeMutant::NoWarpSync>(); break;
  }

  MergeExecution e;
  e.run = std::move(st.run);
  e.ran = n == 0 || st.runs > 0;
  e.keys.assign(kc.p, kc.p + n + kGuard);
  e.tags.assign(tc.p, tc.p + n + kGuard);
  // The specification: std::merge of the tagged inputs by key (stable: A first).
  std::vector<std::pair<uint32_t, uint32_t>> x, y, z(n);
  for (size_t i = 0; i < na; ++i) x.emplace_back(p.a[i], ta.p[i]);
  for (size_t j = 0; j < nb; ++j) y.emplace_back(p.b[j], tb.p[j]);
  std::merge(x.begin(), x.end(), y.begin(), y.end(), z.begin(),
             [](const auto& l, const auto& r) { return l.first < r.first; });
  for (const auto& [k, t] : z) e.expected_keys.push_back(k), e.expected_tags.push_back(t);
  for (uint32_t g = 0; g < kGuard; ++g) e.expected_keys.push_back(kPoison), e.expected_tags.push_back(kPoison);
  return e;
}

Judgement judge_merge(const MergeExecution& e) {
  if (auto stopped = judge_stopped_run(e.run)) return *stopped;
  const size_t n = e.expected_keys.size() - kGuard;
  for (size_t k = 0; k < e.expected_keys.size(); ++k) {
    if (e.keys[k] == e.expected_keys[k] && e.tags[k] == e.expected_tags[k]) continue;
    const std::string where = k < n ? "output[" + std::to_string(k) + "]" : "past the end, output[" + std::to_string(k) + "]";
    return {Failure::Violation,
            "wrong result: " + where + " is " + describe(e.keys[k], e.tags[k]) + ", std::merge has " +
                describe(e.expected_keys[k], e.expected_tags[k]),
            false};
  }
  return {};
}

}  // namespace gpulin::explore
