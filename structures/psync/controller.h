// The host controller of the parallel heap (§IV-B): it keeps the heap's status -
// how many keys have arrived at the nodes, how many are reserved by insert-update
// processes still on their way, and every live process with its level - and turns
// each delete-insert cycle into the tasks of its three steps. Plain host code,
// shared by the GPU driver and the simulator; the processes' data (keys, the delete
// table's nodes) stay in the heap's memory.
//
// Slots: the keys of the heap fill slots in node order (node i holds slots
// [(i - 1) r, i r)). Arrived keys fill [0, arrived_end); insert-update processes
// reserve the slots after them in the order they start, and arrive in that order
// (a later process's target is at the same level or deeper, and every process
// moves one level a step), so arrived keys stay a prefix.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "structures/psync/psync_tasks.h"
#include "structures/psync/psync_view.h"

namespace gpulin::psync {

// Levels of a heap of `nodes` nodes.
inline uint32_t levels_of(uint64_t nodes) { return nodes == 0 ? 0 : node_level(static_cast<uint32_t>(nodes)) + 1; }
// Process slots a heap of up to `max_nodes` nodes needs: a process lives at most
// levels / 2 + 1 cycles, and a cycle starts at most two insert-update processes.
inline uint32_t insert_slots_for(uint32_t max_nodes) { return 2 * (levels_of(max_nodes) / 2 + 2); }
inline uint32_t delete_slots_for(uint32_t max_nodes) { return levels_of(max_nodes) / 2 + 2; }

struct CyclePlan {
  RootTask root;
  std::vector<RefillTask> refills;  // empty unless the cycle brought too few keys
};

class Controller {
 public:
  Controller(uint32_t r, uint32_t max_nodes) : r_(r), max_nodes_(max_nodes) {
    for (uint32_t s = insert_slots_for(max_nodes); s-- > 0;) free_inserts_.push_back(s);
    for (uint32_t s = delete_slots_for(max_nodes); s-- > 0;) free_deletes_.push_back(s);
  }

  // A heap that starts with n keys sorted in node order (nothing in flight).
  void start_full(uint64_t n) {
    if ((n + r_ - 1) / r_ > max_nodes_) throw std::length_error("the parallel heap is full");
    arrived_ = reserved_ = n;
  }

  // Step 1 of a cycle with k new keys (§III-B 1) that hands out the `deletes`
  // smallest keys (r in the paper's cycle; 0 for a cycle that only inserts, as the
  // generalized heap paper's Table 1 workload needs). Throws std::length_error
  // when the heap would outgrow max_nodes, std::invalid_argument when the keys
  // that go down would need more than two insert-update processes.
  CyclePlan begin_cycle(uint32_t k, int64_t op) { return begin_cycle(k, op, r_); }
  CyclePlan begin_cycle(uint32_t k, int64_t op, uint32_t deletes) {
    if (k > 2 * r_) throw std::invalid_argument("a cycle takes at most 2r = " + std::to_string(2 * r_) + " new keys");
    if (deletes > r_) throw std::invalid_argument("a cycle hands out at most r keys");
    CyclePlan plan;
    RootTask& t = plan.root;
    t.k = k;
    t.op = op;
    t.root_fill = static_cast<uint32_t>(std::min<uint64_t>(r_, arrived_));
    const uint32_t total = t.root_fill + k;
    t.out_count = std::min(deletes, total);
    t.root_keep = std::min(r_, total - t.out_count);
    const uint32_t extra = total - t.out_count - t.root_keep;
    if (extra > r_)
      throw std::invalid_argument("a cycle that hands out " + std::to_string(t.out_count) + " keys takes at most " +
                                  std::to_string(2 * r_ + t.out_count - t.root_fill) + " new keys here");
    if (t.root_keep == r_) {
      arrived_ = std::max<uint64_t>(arrived_, r_);
      reserved_ = std::max<uint64_t>(reserved_, r_);
      spawn(t, extra);
    } else if (reserved_ <= r_) {
      arrived_ = reserved_ = t.root_keep;  // the root is the whole heap
    } else {
      plan.refills = refill(t.root_keep);
    }
    t.delete_slot = take(free_deletes_, "delete");
    deletes_.push_back({t.delete_slot, 0});
    return plan;
  }

  // The next update step (§III-B 2 and 3, alternately): every live process works
  // on its level and moves one level down.
  StepTasks step() {
    StepTasks s;
    auto task_at = [&s](uint32_t level) -> LevelTask& {
      for (uint32_t i = 0; i < s.levels; ++i)
        if (s.level[i].level == level) return s.level[i];
      if (s.levels == kMaxLevels) throw std::logic_error("psync controller: more levels than a step holds");
      LevelTask& t = s.level[s.levels++];
      t.level = level;
      return t;
    };
    std::vector<Insert> live;
    for (Insert& p : inserts_) {
      LevelTask& t = task_at(p.level);
      if (t.inserts == kMaxInsertsPerLevel) throw std::logic_error("psync controller: three insert-update processes on a level");
      const uint32_t target_level = node_level(p.target);
      InsertStep& is = t.insert[t.inserts++];
      is.slot = p.slot;
      is.node = p.target >> (target_level - p.level);
      is.count = p.count;
      is.arrives = p.level == target_level;
      is.fill = is.arrives ? p.offset : r_;
      if (!is.arrives) {
        ++p.level;
        live.push_back(p);
        continue;
      }
      if (slot_of(p) != arrived_) throw std::logic_error("psync controller: an insert-update process arrives out of order");
      arrived_ += p.count;
      free_inserts_.push_back(p.slot);
    }
    inserts_ = std::move(live);
    std::vector<Delete> going;
    for (Delete& d : deletes_) {
      if (d.level + 1 >= levels()) {  // no children below: the process is over
        free_deletes_.push_back(d.slot);
        continue;
      }
      LevelTask& t = task_at(d.level);
      t.has_delete = 1;
      t.delete_slot = d.slot;
      ++d.level;
      going.push_back(d);
    }
    deletes_ = std::move(going);
    s.arrived_end = arrived_;
    return s;
  }

  bool in_flight() const {
    return !inserts_.empty() ||
           std::any_of(deletes_.begin(), deletes_.end(), [this](const Delete& d) { return d.level + 1 < levels(); });
  }
  uint32_t r() const { return r_; }
  uint64_t arrived_end() const { return arrived_; }
  uint64_t reserved_end() const { return reserved_; }  // keys in the heap, arrived or on their way
  uint32_t levels() const { return levels_of((reserved_ + r_ - 1) / r_); }

 private:
  struct Insert {
    uint32_t slot, target, offset, count, level;
  };
  struct Delete {
    uint32_t slot, level;
  };

  uint64_t slot_of(const Insert& p) const { return static_cast<uint64_t>(p.target - 1) * r_ + p.offset; }

  static uint32_t take(std::vector<uint32_t>& free, const char* what) {
    if (free.empty()) throw std::logic_error(std::string("psync controller: no free ") + what + "-update slot");
    const uint32_t s = free.back();
    free.pop_back();
    return s;
  }

  // The extra keys of a cycle reserve the slots after the heap's end: one process
  // per node they reach (two when they cross into a new node, §III-B).
  void spawn(RootTask& t, uint32_t extra) {
    while (extra > 0) {
      const uint32_t target = static_cast<uint32_t>(reserved_ / r_) + 1, offset = static_cast<uint32_t>(reserved_ % r_);
      if (target > max_nodes_)
        throw std::length_error("the parallel heap is full (" + std::to_string(max_nodes_) + " nodes of r = " +
                                std::to_string(r_) + ")");
      const uint32_t count = std::min(extra, r_ - offset);
      const uint32_t slot = take(free_inserts_, "insert");
      inserts_.push_back({slot, target, offset, count, 0});
      t.spawn_slot[t.spawned] = slot;
      t.spawn_count[t.spawned] = count;
      ++t.spawned;
      reserved_ += count;
      extra -= count;
    }
  }

  // The root keeps `kept` keys and needs r - kept more: from the newest
  // insert-update processes (their keys reserve the last slots), then from the end
  // of the arrived keys (§IV-C).
  std::vector<RefillTask> refill(uint32_t kept) {
    std::vector<RefillChunk> chunks;
    uint32_t need = r_ - kept;
    while (need > 0 && !inserts_.empty()) {
      Insert& p = inserts_.back();
      const uint32_t n = std::min(need, p.count);
      chunks.push_back({1, p.slot, p.count - n, n});
      p.count -= n;
      reserved_ -= n;
      need -= n;
      if (p.count == 0) {
        free_inserts_.push_back(p.slot);
        inserts_.pop_back();
      }
    }
    while (need > 0 && arrived_ > r_) {
      const uint32_t node = static_cast<uint32_t>((arrived_ - 1) / r_) + 1;
      const uint32_t fill = static_cast<uint32_t>(arrived_ - static_cast<uint64_t>(node - 1) * r_);
      const uint32_t n = std::min(need, fill);
      chunks.push_back({0, node, fill - n, n});
      arrived_ -= n;
      reserved_ -= n;
      need -= n;
    }
    if (need > 0) arrived_ = reserved_ = r_ - need;  // every key is at the root now
    std::vector<RefillTask> tasks;
    uint32_t root = kept;
    for (size_t i = 0; i < chunks.size(); i += kRefillChunks) {
      RefillTask t;
      t.root_fill = root;
      for (size_t j = i; j < std::min(chunks.size(), i + kRefillChunks); ++j) {
        t.chunk[t.chunks++] = chunks[j];
        root += chunks[j].count;
      }
      tasks.push_back(t);
    }
    return tasks;
  }

  uint32_t r_, max_nodes_;
  uint64_t arrived_ = 0, reserved_ = 0;
  std::vector<Insert> inserts_;  // in the order they started (slot order)
  std::vector<Delete> deletes_;
  std::vector<uint32_t> free_inserts_, free_deletes_;
};

}  // namespace gpulin::psync
