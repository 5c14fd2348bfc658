#include "structures/psync/gpu/psync_stress.h"
#include "common/wall_clock.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <queue>
#include <random>
#include <stdexcept>

#include "common/cuda_support.h"
#include "structures/psync/gpu/psync_launch.h"
#include "histories/device_recorder.h"
#include "histories/jsonl_writer.h"
#include "structures/psync/controller.h"
#include "structures/psync/device_psync_heap.h"
#include "structures/psync/sim/psync_at_rest.h"
#include "structures/psync/sim/psync_program.h"
#include "verify/witness_checker.h"

namespace gpulin::stress {

namespace {

using cuda_support::check;

// Every cycle's new keys (sorted, back to back) and what the controller made of
// them: the workload, decided on the host before anything runs.
struct PsyncWorkload {
  std::vector<uint32_t> keys;
  std::vector<uint64_t> offset;  // cycle c's keys at keys[offset[c], offset[c + 1])
  std::vector<uint32_t> out_count;
};

PsyncWorkload make_workload(const PsyncStressOptions& o, uint32_t max_nodes, PsyncStressResult& r) {
  PsyncWorkload w;
  std::mt19937_64 rng(o.seed);
  psync::Controller ctl(o.r, max_nodes);
  uint32_t handed_out = 0;
  for (uint64_t c = 0; c < o.cycles; ++c) {
    uint32_t k = 2 * o.r;
    if (ctl.reserved_end() >= o.grow_to) {  // the relaxed hold model: 0, 1 or 2 new keys per key handed out
      k = 0;
      for (uint32_t i = 0; i < handed_out; ++i) k += static_cast<uint32_t>(rng() % 3);
    }
    w.offset.push_back(w.keys.size());
    for (uint32_t i = 0; i < k; ++i) w.keys.push_back(static_cast<uint32_t>(rng() >> 33));
    std::sort(w.keys.end() - k, w.keys.end());
    const psync::CyclePlan plan = ctl.begin_cycle(k, static_cast<int64_t>(c));
    handed_out = plan.root.out_count;
    w.out_count.push_back(handed_out);
    r.refills += plan.refills.empty() ? 0 : 1;
    r.two_insert_cycles += plan.root.spawned == 2 ? 1 : 0;
    r.levels = std::max(r.levels, ctl.levels());
    ctl.step();
    ctl.step();
  }
  w.offset.push_back(w.keys.size());
  return w;
}

}  // namespace

PsyncStressResult run_psync_stress(const PsyncStressOptions& o) {
  if (o.r == 0 || o.r > (1u << 20)) throw std::invalid_argument("--r must be 1 .. 2^20");
  PsyncStressResult r;
  // Room for the growth phase and a random walk of the relaxed hold far beyond its
  // spread (about sqrt(cycles * r) keys).
  const uint64_t nodes = o.grow_to / o.r + o.cycles / 2 + 16;
  if (nodes > (uint64_t{1} << 31)) throw std::invalid_argument("--grow-to / --r: too many nodes");
  const auto max_nodes = static_cast<uint32_t>(nodes);
  const PsyncWorkload w = make_workload(o, max_nodes, r);
  r.cycles = o.cycles;
  r.new_keys = w.keys.size();

  psync::DevicePsyncHeap heap(o.r, max_nodes, std::max<uint64_t>(w.keys.size(), 1), o.cycles * o.r);
  check(cudaMemcpy(heap.new_keys(), w.keys.data(), w.keys.size() * sizeof(uint32_t), cudaMemcpyHostToDevice),
        "psync stress: new keys");
  std::unique_ptr<DeviceRecorder> rec;
  if (o.record)
    rec = std::make_unique<DeviceRecorder>(1, static_cast<uint32_t>(3 * o.cycles),
                                           static_cast<uint32_t>(w.keys.size() + o.cycles * o.r));
  const DeviceRecorderRef ref = rec ? rec->ref() : DeviceRecorderRef{};

  // The run: every launch enqueued on one stream, the controller planning ahead of
  // the GPU (nothing it decides depends on what the kernels compute).
  psync::Controller ctl(o.r, max_nodes);
  cudaStream_t stream = nullptr;
  cuda_support::GpuTimer timer;
  timer.start(stream);
  const psync::View<uint32_t>& h = heap.view();
  auto steps = [&] {
    check(psync::launch_psync_step(h, ctl.step(), stream), "psync step 2");
    check(psync::launch_psync_step(h, ctl.step(), stream), "psync step 3");
  };
  for (uint64_t c = 0; c < o.cycles; ++c) {
    psync::CyclePlan plan = ctl.begin_cycle(static_cast<uint32_t>(w.offset[c + 1] - w.offset[c]), static_cast<int64_t>(c));
    plan.root.new_offset = w.offset[c];
    plan.root.out_offset = c * o.r;
    check(psync::launch_psync_root(h, plan.root, stream, rec ? &ref : nullptr), "psync root step");
    for (const psync::RefillTask& t : plan.refills) check(psync::launch_psync_refill(h, t, stream), "psync refill");
    steps();
  }
  while (ctl.in_flight()) steps();  // the drain: every process to its end
  r.kernel_seconds = timer.stop("psync stress: the run", stream);

  const auto c0 = std::chrono::steady_clock::now();
  // Each cycle against a sequential priority queue (cycles do not overlap: the
  // history is sequential, its results exactly determined).
  const std::vector<uint32_t> out = heap.out(o.cycles * o.r);
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> model;
  for (uint64_t c = 0; c < o.cycles && r.failures.size() < 5; ++c) {
    for (uint64_t i = w.offset[c]; i < w.offset[c + 1]; ++i) model.push(w.keys[i]);
    for (uint32_t i = 0; i < w.out_count[c]; ++i, model.pop()) {
      if (model.empty() || out[c * o.r + i] != model.top()) {
        r.failures.push_back("cycle " + std::to_string(c) + " handed out " + std::to_string(out[c * o.r + i]) +
                             " as its key " + std::to_string(i) + "; a priority queue hands out " +
                             (model.empty() ? std::string("nothing") : std::to_string(model.top())));
        break;
      }
    }
    r.out_keys += w.out_count[c];
  }
  // At rest: the heap property everywhere and exactly the keys not handed out.
  r.keys_at_end = ctl.arrived_end();
  std::vector<uint32_t> left = heap.nodes(ctl.arrived_end());
  if (auto bad = explore::psync_heap_property(left.data(), o.r, ctl.arrived_end(), {}))
    r.failures.push_back("heap at rest: " + *bad);
  std::sort(left.begin(), left.end());
  std::vector<uint32_t> expected;
  for (; !model.empty(); model.pop()) expected.push_back(model.top());
  if (r.failures.empty() && left != expected)
    r.failures.push_back("heap at rest: " + std::to_string(left.size()) + " keys, not the " +
                         std::to_string(expected.size()) + " a priority queue still holds");
  r.check_seconds = seconds_since(c0);

  if (rec) {
    const auto d0 = std::chrono::steady_clock::now();
    const KeyHistory kh = rec->download(explore::psync_header(o.r, "gpulin stress"), explore::psync_fn_names(), "<gpu run>");
    r.download_seconds = seconds_since(d0);
    const auto w0 = std::chrono::steady_clock::now();
    const History hist = expand(kh);
    r.events = kh.events.size();
    const WitnessResult wr = check_witness(hist);
    if (wr.verdict != Verdict::Linearizable)
      r.failures.push_back("witness (explicit): " + (wr.violation ? wr.violation->message : std::string("failed")));
    r.check_seconds += seconds_since(w0);
    if (!o.out_dir.empty()) {
      std::filesystem::create_directories(o.out_dir);
      r.history_path = o.out_dir + "/psync-gpu.jsonl";
      write_history_file(r.history_path, hist);
    }
  }
  return r;
}

}  // namespace gpulin::stress
