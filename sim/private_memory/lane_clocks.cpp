#include "sim/private_memory/lane_clocks.h"

#include <algorithm>

#include "sim/simulator.h"

namespace gpulin::sim {

void LaneClocks::enable() {
  if (enabled()) return;
  const uint32_t threads = warps_ * kLanes;
  clocks_.assign(threads, LaneClock(threads, 0));
  for (uint32_t t = 0; t < threads; ++t) clocks_[t][t] = 1;  // epoch 0 is "no access"
}

void LaneClocks::attach(uint32_t actor, uint32_t warp) {
  if (actor >= warp_of_.size()) {
    warp_of_.resize(actor + 1, 0);
    lane_of_.resize(actor + 1, 0);
    code_of_.resize(actor + 1, 0);
  }
  warp_of_[actor] = warp;
  if (codes_.empty()) codes_.push_back({LaneCode::Uniform, {}});  // code 0: a warp's start
}

uint32_t LaneClocks::intern(LaneCode kind, const memory::SourceSite& at) {
  for (uint32_t i = 0; i < codes_.size(); ++i)
    if (codes_[i].kind == kind && codes_[i].at.line == at.line && codes_[i].at.file == at.file) return i;
  codes_.push_back({kind, at});
  return static_cast<uint32_t>(codes_.size() - 1);
}

void LaneClocks::code(uint32_t actor, LaneCode kind, const memory::SourceSite& at) {
  if (!enabled()) return;
  const Code& c = codes_[code_of_[actor]];
  if (c.kind == kind && c.at.line == at.line && c.at.file == at.file) return;
  code_of_[actor] = intern(kind, at);
}

LaneAccess LaneClocks::now(uint32_t t) const {
  return {t, clocks_[t][t], code_of_[sim_.current()]};
}

void LaneClocks::read(LaneShadow& s, uint64_t word) {
  const uint32_t t = thread(sim_.current());
  if (!ordered(s.write, t)) report(s.write, "wrote", "read", word);
  // Reads this one is ordered after need not be kept: a later write that races
  // with one of them races with this read too.
  const LaneClock& c = clocks_[t];
  std::erase_if(s.reads, [&](const LaneAccess& r) { return r.thread == t || r.clock <= c[r.thread]; });
  s.reads.push_back(now(t));
}

void LaneClocks::write(LaneShadow& s, uint64_t word) {
  const uint32_t t = thread(sim_.current());
  if (!ordered(s.write, t)) report(s.write, "wrote", "wrote", word);
  for (const LaneAccess& r : s.reads)
    if (!ordered(r, t)) report(r, "read", "wrote", word);
  s.reads.clear();
  s.write = now(t);
}

void LaneClocks::release(uint32_t actor, LaneClock& into) {
  if (!enabled()) return;
  const uint32_t t = thread(actor);
  LaneClock& c = clocks_[t];
  if (into.empty()) into.assign(c.size(), 0);
  for (size_t i = 0; i < c.size(); ++i) into[i] = std::max(into[i], c[i]);
  ++c[t];
}

void LaneClocks::acquire_warp(uint32_t actor, const LaneClock& from) {
  if (!enabled() || from.empty()) return;
  const uint32_t first = warp_of_[actor] * kLanes;
  for (uint32_t t = first; t < first + kLanes; ++t)
    for (size_t i = 0; i < from.size(); ++i) clocks_[t][i] = std::max(clocks_[t][i], from[i]);
}

void LaneClocks::warp_sync(uint32_t actor) {
  if (!enabled()) return;
  const uint32_t first = warp_of_[actor] * kLanes;
  LaneClock joined(clocks_[first].size(), 0);
  for (uint32_t t = first; t < first + kLanes; ++t)
    for (size_t i = 0; i < joined.size(); ++i) joined[i] = std::max(joined[i], clocks_[t][i]);
  for (uint32_t t = first; t < first + kLanes; ++t) {
    clocks_[t] = joined;
    ++clocks_[t][t];
  }
}

void LaneClocks::block_barrier() {
  if (!enabled()) return;
  LaneClock joined(clocks_.size(), 0);
  for (const LaneClock& c : clocks_)
    for (size_t i = 0; i < joined.size(); ++i) joined[i] = std::max(joined[i], c[i]);
  for (size_t t = 0; t < clocks_.size(); ++t) {
    clocks_[t] = joined;
    ++clocks_[t][t];
  }
}

std::string LaneClocks::describe(const LaneAccess& a, const char* did) const {
  const Code& c = codes_[a.code];
  std::string who = "lane " + std::to_string(a.thread % kLanes) + " of warp " + std::to_string(a.thread / kLanes);
  switch (c.kind) {
    case LaneCode::Lanes: return who + " " + did + " it in the for_each_lane at " + memory::site_text(c.at);
    case LaneCode::BulkCopy: return who + "'s bulk copy issued at " + memory::site_text(c.at) + " " + did + " it";
    case LaneCode::Uniform:
      return who + " (warp-uniform code) " + did + " it " +
             (c.at.line == 0 ? std::string("before the warp's first barrier operation")
                             : "after " + memory::site_text(c.at));
  }
  return who;
}

void LaneClocks::report(const LaneAccess& first, const char* first_did, const char* second_did, uint64_t word) {
  const LaneAccess second = now(thread(sim_.current()));
  sim_.race("data race in a block's shared memory (warp actors): word " + std::to_string(word) + ": " +
            describe(first, first_did) + ", then " + describe(second, second_did) +
            ", and no barrier of the block (an mbarrier phase, __syncwarp, __syncthreads) orders them");
}

void LaneClocks::out_of_bounds(uint64_t word, uint64_t words) {
  sim_.fault("a block's shared memory: an access at word " + std::to_string(word) + ", which has " +
             std::to_string(words) + " words");
}

}  // namespace gpulin::sim
