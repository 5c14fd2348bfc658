#include "verify/search/partition_search.h"

#include <algorithm>
#include <cassert>

namespace gpulin {

PartitionSearch::PartitionSearch(const History& h, const Model& model, std::vector<size_t> ops, const State& initial)
    : h_(h), ops_(std::move(ops)), table_(model, ops_.size()), cache_((ops_.size() + 63) / 64),
      bits_((ops_.size() + 63) / 64, 0) {
  build_entries();
  state_ = table_.intern(initial);
  cache_.insert(set_hash_, bits_, state_);
  at_ = entries_[0].next;
}

void PartitionSearch::build_entries() {
  struct Ev {
    uint64_t t;
    bool ret;
    uint32_t op;
  };
  std::vector<Ev> evs;
  evs.reserve(2 * ops_.size());
  for (uint32_t i = 0; i < ops_.size(); ++i) {
    const Operation& op = h_.ops[ops_[i]];
    evs.push_back({op.inv_t, false, i});
    if (!op.pending()) {
      evs.push_back({op.ret_t, true, i});
      ++remaining_;
    }
  }
  // A call and a return at one time are taken as overlapping: calls first.
  std::sort(evs.begin(), evs.end(), [](const Ev& a, const Ev& b) { return a.t != b.t ? a.t < b.t : a.ret < b.ret; });
  entries_.resize(evs.size() + 1);
  std::vector<int32_t> call_of(ops_.size(), -1);
  for (size_t i = 0; i < evs.size(); ++i) {
    const auto e = static_cast<int32_t>(i + 1);
    entries_[e].op = evs[i].op;
    entries_[e].call = !evs[i].ret;
    entries_[e].prev = e - 1;
    entries_[e - 1].next = e;
    if (evs[i].ret) entries_[call_of[evs[i].op]].match = e;
    else call_of[evs[i].op] = e;
  }
}

void PartitionSearch::unlink(int32_t e) {
  entries_[entries_[e].prev].next = entries_[e].next;
  if (entries_[e].next >= 0) entries_[entries_[e].next].prev = entries_[e].prev;
}

void PartitionSearch::relink(int32_t e) {
  entries_[entries_[e].prev].next = e;
  if (entries_[e].next >= 0) entries_[entries_[e].next].prev = e;
}

void PartitionSearch::lift(int32_t call) {
  unlink(call);
  if (entries_[call].match >= 0) unlink(entries_[call].match);
}

void PartitionSearch::unlift(int32_t call) {  // lift undone, in reverse order
  if (entries_[call].match >= 0) relink(entries_[call].match);
  relink(call);
}

void PartitionSearch::flip(uint32_t op) {
  bits_[op / 64] ^= uint64_t{1} << (op % 64);
  set_hash_ ^= mix64(op + 0x5bd1e995ULL);
}

// Keeps `best` the longest stack seen, copying only what differs from it.
void PartitionSearch::note_push(uint32_t op) {
  const size_t d = stack_.size();
  if (common_ == d - 1 && best.size() >= d && best[d - 1] == op) common_ = d;
  if (d > best.size()) {
    best.resize(common_);
    for (size_t i = common_; i < d; ++i) best.push_back(entries_[stack_[i].entry].op);
    common_ = d;
    stuck_noted_ = false;
  }
}

// At the deepest point the first return entry blocks: remember who was stuck.
void PartitionSearch::note_stuck(int32_t ret_entry) {
  if (stuck_noted_ || stack_.size() != best.size() || common_ != best.size()) return;
  stuck_noted_ = true;
  const uint32_t blocked = entries_[ret_entry].op;
  stuck.assign(1, blocked);
  for (int32_t e = entries_[0].next; e != ret_entry; e = entries_[e].next)
    if (entries_[e].op != blocked) stuck.push_back(entries_[e].op);
  best_state = table_.state(state_).describe();
}

std::optional<Verdict> PartitionSearch::advance(uint64_t steps) {
  for (uint64_t i = 0; i < steps; ++i) {
    if (remaining_ == 0) return Verdict::Linearizable;
    ++steps_;
    if (!step()) return Verdict::NotLinearizable;
  }
  return remaining_ == 0 ? std::optional<Verdict>(Verdict::Linearizable) : std::nullopt;
}

bool PartitionSearch::step() {
  // Some return entry is still listed, and the scan never passes one.
  assert(at_ >= 0);
  const Entry& en = entries_[at_];
  if (en.call) {
    const Operation& op = h_.ops[ops_[en.op]];
    const auto succ = table_.successors(state_, en.op, op);
    flip(en.op);
    for (uint32_t a = alt_start_; a < succ.size(); ++a) {
      if (!cache_.insert(set_hash_, bits_, succ[a])) continue;  // explored before
      stack_.push_back({at_, state_, a});
      state_ = succ[a];
      lift(at_);
      if (!op.pending()) --remaining_;
      note_push(en.op);
      at_ = entries_[0].next;
      alt_start_ = 0;
      return true;
    }
    alt_start_ = 0;
    flip(en.op);
    at_ = en.next;
    return true;
  }
  // This op responded before anything left could be linearized: backtrack.
  note_stuck(at_);
  if (stack_.empty()) return false;
  const Frame f = stack_.back();
  stack_.pop_back();
  common_ = std::min(common_, stack_.size());
  const uint32_t op = entries_[f.entry].op;
  flip(op);
  state_ = f.prev_state;
  unlift(f.entry);
  if (!h_.ops[ops_[op]].pending()) ++remaining_;
  at_ = f.entry;  // its other successor states next, then the entries after it
  alt_start_ = f.alt + 1;
  return true;
}

}  // namespace gpulin
