// The lock stack on the GPU, gpulin stress-style: a generated program (a list of
// pushes and pops an actor, every pushed value distinct), run by gpulin's generic
// kernel a thread block an actor, then checked:
//   * the watchdog: no wait passed its bound (a deadlock stops the run, never hangs);
//   * at rest: the lock free, the top within the slots, and conservation (every
//     pushed value popped exactly once or still on the stack, nothing else popped);
//   * with --record: the history downloaded and checked on the `stack` model by
//     the witness checker (root-release: each operation's hold of the lock), a
//     failure explained by the search on a window around it. --out DIR writes it
//     as JSON Lines (own-stack check, own-stack render read it).
#include "lock_stack_stress.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "common/cuda_support.h"
#include "cuda/watchdog_host.h"
#include "histories/device_recorder.h"
#include "histories/jsonl_writer.h"
#include "lock_stack_gpu.h"
#include "tools/commands.h"
#include "tools/explore/op_program.h"
#include "verify/witness_checker.h"

namespace own {

namespace {

using gpulin::cuda_support::check;
using gpulin::cuda_support::DeviceBuffer;

// Each actor's calls: pushes outnumber pops 3 to 2 in its first half and the other
// way round in its second, so that the stack grows, then drains, and pops meet an
// empty stack too. Pushed values are 1, 2, 3, ... in program order.
gpulin::explore::OpProgram stress_program(uint32_t actors, uint32_t calls_each, uint64_t seed) {
  std::mt19937_64 rng(seed);
  gpulin::explore::OpProgram p;
  p.actors.resize(actors);
  uint32_t next = 1;
  for (auto& calls : p.actors)
    for (uint32_t i = 0; i < calls_each; ++i) {
      const bool push = rng() % 5 < (i < calls_each / 2 ? 3u : 2u);
      calls.push_back(push ? gpulin::explore::OpCall{kFnPush, {next++}} : gpulin::explore::OpCall{kFnPop, {}});
    }
  return p;
}

}  // namespace

std::vector<gpulin::registry::Param> lock_stack_stress_params() {
  return {{"blocks", "thread blocks, an actor each", "128", 1, 1u << 16},
          {"threads", "threads per block", "64", 1, 1024},
          {"ops", "calls in all, spread over the blocks", "65536", 1, uint64_t{1} << 30},
          {"spin-bound", "re-reads a wait may make before the watchdog stops the run", "16777216", 1,
           uint64_t{1} << 40}};
}

int run_lock_stack_stress(const gpulin::registry::StressArgs& a) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    throw std::runtime_error("no CUDA device (stress runs lock-stack on a GPU; explore runs it in the simulator)");
  const uint32_t blocks = a.selection.u32("blocks");
  const uint32_t threads = a.selection.u32("threads");
  const uint64_t total = a.selection.num("ops");
  const uint32_t calls_each = static_cast<uint32_t>((total + blocks - 1) / blocks);
  const gpulin::explore::OpProgram program = stress_program(blocks, calls_each, a.seed);
  uint32_t pushes = 0;
  for (const auto& calls : program.actors)
    for (const auto& c : calls) pushes += c.fn == kFnPush;
  fmt::print("lock-stack on the GPU: {} blocks x {} threads, {} calls a block ({} pushes, {} pops), seed {}{}\n", blocks,
             threads, calls_each, pushes, program.op_count() - pushes, a.seed, a.record ? ", recorded" : "");

  // The stack's memory: a lock word, the top, a slot for every push.
  const gpulin::cuda_exec::OpCallsOnDevice calls(program);
  DeviceBuffer<uint32_t> lock(1), top(1), slots(pushes), out(program.op_count());
  lock.fill_bytes(0);
  top.fill_bytes(0);
  out.fill_bytes(0);
  const LockStackView stack{pushes, lock.get(), top.get(), slots.get()};
  const gpulin::cuda_exec::DeviceWatchdog watchdog(blocks, a.selection.num("spin-bound"));
  // Room an actor: each call records inv and ret, and its hold's acq and rel; a push
  // its value, a pop at most one.
  std::unique_ptr<gpulin::DeviceRecorder> rec;
  if (a.record) rec = std::make_unique<gpulin::DeviceRecorder>(blocks, 4 * calls_each + 4, calls_each + 1);
  const gpulin::DeviceRecorderRef ref = rec ? rec->ref() : gpulin::DeviceRecorderRef{};

  gpulin::cuda_support::GpuTimer timer;
  timer.start();
  check(launch_lock_stack(stack, out.get(), calls.ref(), threads, rec ? &ref : nullptr, watchdog.ref()), "launch");
  const double kernel_seconds = timer.stop("the lock stack's kernel");
  check(cudaDeviceSynchronize(), "the lock stack's kernel");
  fmt::print("  kernel {:.4f} s ({:.2f} M calls/s)\n", kernel_seconds,
             program.op_count() / std::max(kernel_seconds, 1e-12) / 1e6);

  std::vector<std::string> failures;
  const gpulin::cuda_exec::WatchdogReport stopped = watchdog.read();
  if (stopped.stopped)
    failures.push_back("stopped by the watchdog: " +
                       gpulin::cuda_exec::describe(stopped, [&](uint64_t word) {
                         return word == reinterpret_cast<uint64_t>(lock.get()) ? std::string("the stack's lock")
                                                                                : std::string();
                       }));

  // At rest.
  const uint32_t lock_at_end = lock.at(0), top_at_end = top.at(0);
  if (lock_at_end != 0) failures.push_back(fmt::format("at rest: the lock is {} (held)", lock_at_end));
  if (top_at_end > pushes) failures.push_back(fmt::format("at rest: the top {} is past the {} slots", top_at_end, pushes));
  if (!stopped.stopped && top_at_end <= pushes) {
    // Conservation: each value pushed once, so each must come out exactly once.
    std::vector<uint32_t> seen(pushes + 1, 0);
    const std::vector<uint32_t> popped = gpulin::cuda_support::download(out.get(), program.op_count());
    const std::vector<uint32_t> left = gpulin::cuda_support::download(slots.get(), top_at_end);
    uint64_t pops_found = 0, bad = 0;
    auto count = [&](uint32_t v) {
      if (v != kNoValue && v <= pushes)
        ++seen[v];
      else
        ++bad;
    };
    for (uint32_t v : popped)
      if (v != kNoValue) ++pops_found, count(v);
    for (uint32_t v : left) count(v);
    uint64_t lost = 0, twice = 0;
    for (uint32_t v = 1; v <= pushes; ++v) lost += seen[v] == 0, twice += seen[v] > 1;
    if (lost || twice || bad)
      failures.push_back(fmt::format("conservation: {} pushed values lost, {} came out more than once, {} never pushed",
                                     lost, twice, bad));
    fmt::print("  at rest: {} values popped, {} left on the stack; lock free: {}\n", pops_found, left.size(),
               lock_at_end == 0 ? "yes" : "no");
  }

  if (rec) {
    const auto d0 = std::chrono::steady_clock::now();
    gpulin::Header header;
    header.model = "stack";
    header.lp_rule = "root-release";
    header.extra = {{"structure", "\"lock-stack\""}, {"source", "\"own-stack stress\""}};
    gpulin::History h = gpulin::expand(rec->download(header, {"push", "pop"}, "<gpu run>"));
    const double download_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - d0).count();
    if (!a.out_dir.empty()) {
      std::filesystem::create_directories(a.out_dir);
      const std::string path = a.out_dir + "/lock-stack-gpu.jsonl";
      gpulin::write_history_file(path, h);
      fmt::print("  history: {}\n", path);
    }
    const auto c0 = std::chrono::steady_clock::now();
    gpulin::WitnessOptions wo;
    wo.explain = true;  // a failure: the search on a window around it
    const gpulin::WitnessResult w = gpulin::check_witness(h, wo);
    const double check_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
    fmt::print("  recorded: {} operations, {} events; download {:.3f} s; witness (root-release) {:.3f} s: {}\n",
               h.ops.size(), h.events.size(), download_seconds, check_seconds,
               w.verdict == gpulin::Verdict::Linearizable ? "linearizable" : "NOT linearizable by the lock's holds");
    if (w.violation) {
      std::string why = "history: " + w.violation->message;
      if (w.explanation) why += "; the window's search: " + w.explanation->message;
      failures.push_back(why);
    }
  }
  for (const auto& f : failures) fmt::print("  FAIL: {}\n", f);
  fmt::print("  verdict: {}\n", failures.empty() ? "pass" : "FAIL");
  return failures.empty() ? gpulin::cli::kPass : gpulin::cli::kViolation;
}

}  // namespace own
