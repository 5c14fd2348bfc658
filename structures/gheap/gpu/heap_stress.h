// gpulin stress: a heap on the GPU under a generated workload, checked. Without
// recording: every deleted batch sorted, nothing lost or invented, the invariant at
// the end. With recording: also the whole history by the witness checker of the
// heap's rule (explore::lp_rule_for).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "structures/gheap/config.h"
#include "structures/gheap/operation.h"

namespace gpulin::stress {

struct StressOptions {
  gheap::Flavor flavor = gheap::Flavor::TopDown;
  gheap::Variant variant = gheap::Variant::Fixed;
  uint32_t blocks = 128;
  uint32_t threads = 512;
  uint32_t k = 1024;
  std::string workload = "random";
  uint64_t keys = 1 << 20;
  uint64_t seed = 1;
  // The heap's key type: 32 (uint32_t) or 64 (uint64_t, keys drawn from [0, 2^63):
  // workload.h). Each has its own kernels, recorder words and checks.
  uint32_t key_bits = 32;
  bool record = false;
  // Where the checks run: "device" (the GPU: conservation, the heap at rest and,
  // with --record, the per-key witness check straight from the recorder's
  // buffers) or "host" (download everything; the host versions of each check).
  std::string check = "device";
  std::string out_dir;  // with --record: the history as JSON Lines goes here (downloaded only then)
  // Tests: corrupt one recorded delete (its first returned key + 1) before the
  // check, to see the failure found and explained.
  bool plant_bad_delete = false;
  // With --record, under the root-release rule: which holds are recorded. Root
  // (the default): node 1's holds, numbered on the root (hold versions,
  // histories/device_events.h), the only ones the rule compares; All: every
  // node's, each numbered on its node (what a full timeline shows). The last-lock
  // rule (the paper's BU heap) compares holds of different nodes: every node's
  // holds, a ticket from the one counter each, whichever is asked. (Tickets for
  // the other heaps too, --holds tickets, were retired: the holds of All at a
  // higher cost.)
  enum class Holds { Root, All };
  Holds holds = Holds::Root;
  // The GPU watchdog's test: lost-root-release (a deadlock; fixed TD heap, 32-bit
  // keys) is the one mutant built into the kernels; None otherwise.
  gheap::Mutant mutant = gheap::Mutant::None;
  // Re-reads a wait may make before the watchdog stops the run (cuda/watchdog.h).
  uint64_t spin_bound = uint64_t{1} << 24;
  // Names the run in its progress lines on standard error ("gpu 1": several run
  // at once under --gpus).
  std::string label;
};

struct PhaseTiming {
  std::string name;
  uint64_t ops = 0;
  double seconds = 0;
};

struct StressResult {
  std::vector<PhaseTiming> phases;
  uint64_t ops = 0, inserted_keys = 0, deleted_keys = 0;
  uint64_t events = 0, tuples = 0;  // recorded events; keys the witness check looked at
  double workload_seconds = 0;      // planning the operations (host) and drawing the keys (GPU)
  double kernel_seconds = 0;        // the heap's kernels, all phases
  double at_rest_seconds = 0;       // conservation and the heap at rest
  double check_seconds = 0;         // witness check (on the GPU, or on the host after the download)
  double download_seconds = 0;      // copying the recording back (host check, --out, or an irregular recording)
  double verdict_seconds = 0;       // from the end of the kernels to the verdict
  std::vector<std::pair<std::string, double>> check_phases;  // the GPU check's steps
  std::string witness_failure;      // the witness's explanation, when it failed
  std::vector<std::string> failures;  // empty: pass
  std::string history_path;
  // The watchdog stopped the run: who waited on what (failures holds it too), and,
  // with --record, the partial history (history_path) with its pending operations.
  std::string watchdog;
  uint64_t pending_ops = 0;
};

// Throws std::runtime_error when the GPU cannot run it (no device, no memory),
// std::invalid_argument for bad options (key_bits neither 32 nor 64, ...).
StressResult run_stress(const StressOptions& o);

}  // namespace gpulin::stress
