// Lowe's version of the Wing-Gong search, as in Porcupine, on one partition of a
// history, resumable so that partitions can take turns: a hard partition does
// not hold up an easy one that already shows a violation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "histories/history.h"
#include "verify/model.h"
#include "verify/search/config_cache.h"
#include "verify/search/state_table.h"
#include "verify/verdict.h"

namespace gpulin {

class PartitionSearch {
 public:
  // `ops` indexes h.ops (in h.ops' order); the search numbers them 0..n-1.
  PartitionSearch(const History& h, const Model& model, std::vector<size_t> ops, const State& initial);

  // Runs up to `steps` more steps: the verdict when done (Linearizable or
  // NotLinearizable), nullopt when not yet. Budgets are the caller's: it gives
  // each call only the steps it may still spend, and each step adds at most one
  // configuration.
  std::optional<Verdict> advance(uint64_t steps);

  uint64_t steps() const { return steps_; }  // taken so far, over all advance() calls
  uint64_t explored() const { return cache_.size(); }
  size_t bytes() const { return cache_.bytes() + table_.bytes() + entries_.capacity() * sizeof(Entry); }
  const std::vector<size_t>& ops() const { return ops_; }

  // After NotLinearizable, as local op numbers: the longest linearizable
  // sequence found, the state it reaches, and the ops none of which could come
  // next (first the one that had already responded).
  std::vector<uint32_t> best;
  std::vector<uint32_t> stuck;
  std::string best_state;

 private:
  // The entry list: a call and (for a completed op) a return entry per op, in
  // real-time order, doubly linked so that linearizing an op (lifting both its
  // entries) and undoing it are O(1).
  struct Entry {
    int32_t prev = -1, next = -1;
    uint32_t op = 0;
    int32_t match = -1;  // a call's return entry; -1 for a return or a pending call
    bool call = false;
  };
  struct Frame {
    int32_t entry;        // the call entry linearized
    uint32_t prev_state;  // the state before it
    uint32_t alt;         // which of its successor states was taken
  };

  void build_entries();
  bool step();  // one step of the search; false when it has no linearization
  void unlink(int32_t e);
  void relink(int32_t e);
  void lift(int32_t call);
  void unlift(int32_t call);
  void flip(uint32_t op);
  void note_push(uint32_t op);
  void note_stuck(int32_t ret_entry);

  const History& h_;
  std::vector<size_t> ops_;
  uint64_t steps_ = 0;
  StateTable table_;
  ConfigCache cache_;
  std::vector<Entry> entries_;  // [0] is the list head
  std::vector<uint64_t> bits_;  // the linearized ops
  uint64_t set_hash_ = 0;       // Zobrist hash of bits_
  std::vector<Frame> stack_;
  // Where the search stands between advance() calls.
  uint32_t state_ = 0;
  size_t remaining_ = 0;  // completed ops not linearized; pending ones need not be
  int32_t at_ = 0;        // the entry looked at
  uint32_t alt_start_ = 0;
  size_t common_ = 0;     // length of the common prefix of stack_ and best
  bool stuck_noted_ = false;
};

}  // namespace gpulin
