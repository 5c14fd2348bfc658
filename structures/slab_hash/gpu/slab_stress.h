// gpulin stress --structure slab-map|slab-set|slab-multimap: the slab hash on the
// GPU under the paper's concurrent workload (§VI-C): a table built from `initial`
// keys, then `ops` operations drawn from the mix Γ = (a, b, c, d) - insert,
// delete, search for a key in the table, search for a key never inserted - one
// per GPU thread, in batches. Checked at rest (the table's structure and
// allocator, every run) and, with --record, the whole history: the explicit-rule
// witness per key and, for keys where it fails, the search.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "structures/slab_hash/slab_hash_view.h"

namespace gpulin::stress {

struct SlabStressOptions {
  slab_hash::Mode mode = slab_hash::Mode::Map;
  slab_hash::Variant variant = slab_hash::Variant::Paper;  // Fixed: the multimap's (bucket_version.h)
  bool light = true;
  uint32_t buckets = 1 << 16;
  uint64_t initial = 1 << 20;            // keys built before the mix
  uint64_t ops = 1 << 22;                // operations of the mix
  std::array<double, 4> mix{0.2, 0.2, 0.3, 0.3};  // Γ1
  uint64_t batch = 1 << 20;              // operations per launch
  uint32_t threads = 128;
  uint64_t seed = 1;
  bool record = false;
  // With record: "published" (histories/key_clock_records.h: a warp round's inv a
  // load of the one clock G, its ret on its multiprocessor's clock, published to G
  // by a ticker block; 16-byte records, no lp events; map and set), "warp-rounds"
  // (one record an operation, a warp round's tickets from one clock, no lp events),
  // "key-clocks" (the same with each operation's inv, lp and ret tickets from its
  // key's clock), "events" (every event from the one global ticket counter), or
  // "auto": a published clock where it applies, else events.
  std::string recorder = "auto";
  std::string out_dir;                   // with record: the history as JSON Lines
  // Where a recorded history is checked: "device" (a published-clock recording of
  // the map or set is checked on the GPU from the recorder's buffers, the search
  // deciding the keys ret order fails on the host from their operations alone;
  // verify/keyed_linear/gpu_published_check.h), or "host" (download and assemble
  // the whole history, check it by key on every core). The other recorders, and a
  // recording the GPU finds irregular, are checked on the host either way.
  std::string check = "device";
  // One part of a table split over `parts` GPUs by key (stress --gpus): the run
  // draws the whole workload from `seed`, keeps the initial keys and operations
  // whose key is in partition `part` (slab_partition), in their order, and builds
  // its share of the buckets (ceil(buckets / parts)). Parts share no key, so the
  // whole run is linearizable exactly when every part's history is (linearizability
  // is local: Herlihy and Wing, Theorem 1).
  uint32_t part = 0, parts = 1;
};

// The partition of `key` among `parts` (a multiplicative hash, so that the fresh
// keys, the present ones and the absent ones all spread evenly).
inline uint32_t slab_partition(uint32_t key, uint32_t parts) {
  return static_cast<uint32_t>((static_cast<uint64_t>(key * 0x9E3779B1u) * parts) >> 32);
}

struct SlabStressResult {
  uint64_t build_ops = 0, mix_ops = 0;  // keys built, operations of the mix (this part's, under parts > 1)
  uint64_t ops = 0, events = 0;
  double build_seconds = 0, mix_seconds = 0;            // GPU time of the kernels (sum over launches)
  double build_span_seconds = 0, mix_span_seconds = 0;  // wall clock, first launch to last kernel's end
  double download_seconds = 0, check_seconds = 0;
  std::string checked_on;       // with record: "GPU" or "host"
  std::string irregular;        // why the GPU handed the check to the host, when it did
  std::vector<std::pair<std::string, double>> check_phases;  // the GPU check's steps
  double verdict_seconds = 0;   // end of the kernels to the verdict (download, assembly, check, search)
  uint64_t keys_checked = 0, keys_searched = 0;  // partitions: all, and those the witness could not settle
  uint32_t alloc_failures = 0;
  std::string recorder;         // the recorder that ran ("published", "warp-rounds", "key-clocks", "events")
  uint64_t ticks = 0;           // published: the ticker's sightings (each a ret published to G)
  std::string witness_failure;  // why the explicit-rule (or ret) order failed, when it did (the search then decides)
  std::string history_path;
  std::vector<std::string> failures;  // empty: pass
};

// Parses "a,b,c,d" (fractions summing to 1); throws std::invalid_argument.
std::array<double, 4> parse_mix(const std::string& text);
// Throws std::runtime_error when the GPU cannot run it, std::invalid_argument on
// bad options.
SlabStressResult run_slab_stress(const SlabStressOptions& o);

}  // namespace gpulin::stress
