#include "structures/bucket_heap/gpu/bucket_stress.h"
#include "common/wall_clock.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <set>
#include <stdexcept>

#include "common/cuda_support.h"
#include "structures/bucket_heap/gpu/bucket_heap_launch.h"
#include "cuda/watchdog_host.h"
#include "histories/device_recorder.h"
#include "histories/jsonl_writer.h"
#include "structures/bucket_heap/device_bucket_heap.h"
#include "structures/bucket_heap/operations.h"
#include "structures/bucket_heap/sim/bucket_run.h"
#include "structures/bucket_heap/gpu/bucket_program_upload.h"

namespace gpulin::stress {

namespace {

using bucket_heap::Element;
using cuda_support::check;

constexpr uint32_t kPrioRange = 1u << 30;

}  // namespace

explore::BucketProgram make_bucket_stress_program(uint32_t d, uint64_t ops, uint64_t seed) {
  using namespace bucket_heap;
  std::mt19937_64 rng(seed);
  auto pick = [&rng](uint64_t n) { return rng() % n; };
  // The values in the heap (live, with each one's slot there) and their priorities;
  // `by` orders them as the heap does (priority, then value).
  std::vector<uint32_t> live, slot_of, prio_of;
  std::set<std::pair<uint32_t, uint32_t>> by;
  auto remove = [&](uint32_t v) {
    by.erase({prio_of[v], v});
    const uint32_t last = live.back();
    live[slot_of[v]] = last;
    slot_of[last] = slot_of[v];
    live.pop_back();
  };
  // Past this many values a batch only decreases priorities, so that the heap holds
  // on (the relaxed hold of a Dijkstra run) and the drain stays short.
  const uint64_t max_live = std::max<uint64_t>(16 * uint64_t{d}, 4096);
  explore::BucketProgram p;
  for (uint64_t k = 0; k < ops; ++k) {
    explore::BucketOp op;
    const uint64_t roll = pick(100);
    if (roll < 55 || live.empty()) {
      op.fn = kFnUpdate;
      std::set<uint32_t> batch;
      const uint64_t n = 1 + pick(d);
      for (uint64_t tries = 0; batch.size() < n && tries < 2 * n; ++tries) {
        if (!live.empty() && (pick(3) == 0 || live.size() >= max_live)) {  // a smaller priority for a value in the heap
          const uint32_t v = live[pick(live.size())];
          if (prio_of[v] == 0 || batch.count(v)) continue;
          batch.insert(v);
          by.erase({prio_of[v], v});
          prio_of[v] = static_cast<uint32_t>(pick(prio_of[v]));
          by.emplace(prio_of[v], v);
        } else {  // a new value
          const auto v = static_cast<uint32_t>(prio_of.size());
          prio_of.push_back(static_cast<uint32_t>(pick(kPrioRange)));
          slot_of.push_back(static_cast<uint32_t>(live.size()));
          live.push_back(v);
          by.emplace(prio_of[v], v);
          batch.insert(v);
        }
      }
      for (uint32_t v : batch) op.updates.emplace_back(v, prio_of[v]);
    } else if (roll < 90) {
      op.fn = kFnExtractMin;
      remove(by.begin()->second);
    } else {
      op.fn = kFnDelete;
      op.value = live[pick(live.size())];
      remove(op.value);
    }
    p.ops.push_back(std::move(op));
  }
  for (size_t i = 0; i <= live.size(); ++i) p.ops.push_back(explore::BucketOp{kFnExtractMin, {}, 0});
  return p;
}

BucketStressResult run_bucket_stress(const BucketStressOptions& o) {
  if (o.d == 0 || o.d > (1u << 20)) throw std::invalid_argument("--d must be 1 .. 2^20");
  if (o.ops == 0 || o.ops > (uint64_t{1} << 26)) throw std::invalid_argument("--ops must be 1 .. 2^26");
  if (o.threads % 32 != 0 || o.threads == 0 || o.threads > 1024)
    throw std::invalid_argument("--threads must be a multiple of 32, at most 1024");
  return run_bucket_program_on_gpu(make_bucket_stress_program(o.d, o.ops, o.seed), o);
}

BucketStressResult run_bucket_program_on_gpu(const explore::BucketProgram& p, const BucketStressOptions& o) {
  using namespace bucket_heap;
  BucketStressResult r;
  explore::BucketConfig c;
  c.d = o.d;
  r.levels = explore::bucket_actors(c, p);
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "bucket stress: device");
  if (r.levels > static_cast<uint32_t>(sms))
    throw std::runtime_error("bucket stress: " + std::to_string(r.levels) + " levels, more than the " +
                             std::to_string(sms) + " SMs");
  for (const explore::BucketOp& op : p.ops) {
    r.extracts += op.fn == kFnExtractMin;
    r.deletes += op.fn == kFnDelete;
  }
  r.ops = p.ops.size();
  DeviceBucketHeap heap(o.d, r.levels);
  const UploadedBucketProgram up(p);
  r.updates = up.updates();
  std::unique_ptr<DeviceRecorder> rec;
  if (o.record)
    rec = std::make_unique<DeviceRecorder>(r.levels, static_cast<uint32_t>(4 * r.ops),
                                           static_cast<uint32_t>(2 * r.updates + 4 * r.ops));
  const DeviceRecorderRef ref = rec ? rec->ref() : DeviceRecorderRef{};
  // The recorded bucket-pq history, whole or (the watchdog stopped the run) partial.
  auto recorded_history = [&] {
    History h = expand(rec->download(explore::bucket_header("gpulin stress"), explore::bucket_fn_names(), "<gpu run>"));
    explore::pair_update_args(h);
    return h;
  };
  const cuda_exec::DeviceWatchdog watchdog(r.levels);
  cuda_support::GpuTimer timer;
  timer.start();
  check(launch_bucket_program(heap.view(), up.program(), o.threads, nullptr, rec ? &ref : nullptr, &watchdog.ref()),
        "bucket heap program");
  r.kernel_seconds = timer.stop("bucket heap program");
  if (const cuda_exec::WatchdogReport stop = watchdog.read(); stop.stopped) {
    r.failures.push_back(cuda_exec::describe(stop, [&](uint64_t a) { return heap.word_name(a); }));
    if (rec) {
      const std::string dir = o.out_dir.empty() ? std::string(".") : o.out_dir;
      std::filesystem::create_directories(dir);
      r.history_path = dir + "/bucket-heap-gpu-partial.jsonl";
      write_history_file(r.history_path, recorded_history());
    }
    return r;
  }

  const auto c0 = std::chrono::steady_clock::now();
  const std::vector<Element> out = up.answers();
  const std::vector<Element> want = explore::bucket_pq_answers(p);
  auto show = [](Element e) {
    return e == kNoElement ? std::string("empty")
                           : "value " + std::to_string(value_of(e)) + " at priority " + std::to_string(prio_of(e));
  };
  for (uint64_t k = 0; k < r.ops && r.failures.size() < 5; ++k) {
    if (p.ops[k].fn != kFnExtractMin) continue;
    r.empty_extracts += want[k] == kNoElement;
    if (out[k] != want[k])
      r.failures.push_back("EXTRACTMIN (operation " + std::to_string(k) + ") returned " + show(out[k]) +
                           "; a priority queue returns " + show(want[k]));
  }
  r.check_seconds = seconds_since(c0);
  if (rec) {
    const auto d0 = std::chrono::steady_clock::now();
    const History h = recorded_history();
    r.download_seconds = seconds_since(d0);
    r.events = h.events.size();
    const auto w0 = std::chrono::steady_clock::now();
    const explore::Judgement j = explore::judge_history(h, explore::JudgeOptions{0, 0});
    if (j.failure != explore::Failure::None) r.failures.push_back("the recorded history: " + j.message);
    r.check_seconds += seconds_since(w0);
    if (!o.out_dir.empty()) {
      std::filesystem::create_directories(o.out_dir);
      r.history_path = o.out_dir + "/bucket-heap-gpu.jsonl";
      write_history_file(r.history_path, h);
    }
  }
  return r;
}

}  // namespace gpulin::stress
