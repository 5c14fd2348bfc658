// What `gpulin explore --structure bucket-heap` runs: d, the variant (paper, fixed;
// lazy: fixed with RESOLVE(0)'s lazy refill; pipelined: lazy with two signal
// buffers a level, PARDIJKSTRA's heap; config.h) and the compile-time mutant, and
// the program - one actor's operations, UPDATE (a BULKUPDATE of up to d
// value/priority pairs), EXTRACTMIN, DELETE - while the
// levels' RESOLVEs run as actors of their own. Programs are Dijkstra-like, the use
// the paper designs for: a value's priority only decreases, and a value extracted or
// deleted is never updated again (so a pending DELETE meets no later update).
// Priorities are unique, so each EXTRACTMIN's answer is determined. Replay strings:
//   bucket-heap:d=D:variant=V[:mutant=NAME]|OPS|PICKS
// OPS comma-separated: u5=3/7=2 (update value 5 to 3 and 7 to 2), x (extractmin), d5.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/memory/memory_mode.h"
#include "histories/history.h"
#include "structures/bucket_heap/config.h"

namespace gpulin::explore {

struct BucketConfig {
  uint32_t d = 2;
  bucket_heap::Variant variant = bucket_heap::Variant::Fixed;
  bucket_heap::Mutant mutant = bucket_heap::Mutant::None;
  bucket_heap::Refill refill = bucket_heap::Refill::Full;  // Lazy: the variants lazy and pipelined
  bucket_heap::SignalBuffers buffers = bucket_heap::SignalBuffers::One;  // Two: pipelined
  sim::memory::MemorySetting memory;  // the simulator's memory (replay strings name it)
  // Threads of a level's block in the simulator: how many can race in its scratch
  // (sim/private_memory/barrier_phases.h); the schedules do not depend on it.
  uint32_t threads = 2;
  // Generation only:
  uint32_t ops = 40;
};

struct BucketOp {
  uint32_t fn = 0;  // bucket_heap::Fn
  std::vector<std::pair<uint32_t, uint32_t>> updates;  // kFnUpdate: (value, priority), sorted by value
  uint32_t value = 0;                                  // kFnDelete
};

struct BucketProgram {
  std::vector<BucketOp> ops;
  uint64_t elements() const;  // updates and DELETEs over the program (a bound on the heap's size)
};

Header bucket_header(const std::string& source);
std::vector<std::string> bucket_fn_names();
// The recorder's flat update arguments [v0, p0, v1, p1, ...] as the model's pairs.
void pair_update_args(History& h);

// "paper", "fixed", "lazy" (the fixed variant with the lazy refill) or "pipelined"
// (lazy with two signal buffers a level).
std::string bucket_variant_name(const BucketConfig& c);
// Sets c's variant, refill and signal buffers from a name bucket_variant_name
// gives; false if unknown.
bool set_bucket_variant(BucketConfig& c, const std::string& name);
std::string bucket_mutant_name(bucket_heap::Mutant m);
std::optional<bucket_heap::Mutant> parse_bucket_mutant(const std::string& s);
const std::vector<std::string>& bucket_mutant_names();

BucketProgram generate_bucket_program(const BucketConfig& c, uint64_t seed);
// What a sequential priority queue answers the program's EXTRACTMINs (value << 32 |
// priority, kNoElement when empty; kNoElement at the other operations too).
std::vector<bucket_heap::Element> bucket_pq_answers(const BucketProgram& p);

bool is_bucket_replay(const std::string& replay);  // starts with "bucket-heap:"
std::string bucket_replay_string(const BucketConfig& c, const BucketProgram& p, const std::vector<uint32_t>& picks);
struct BucketReplayInput {
  BucketConfig config;
  BucketProgram program;
  std::vector<uint32_t> picks;
};
BucketReplayInput parse_bucket_replay_string(const std::string& s);  // throws std::invalid_argument

}  // namespace gpulin::explore
