#include "structures/slab_hash/gpu/slab_stress.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include "common/cuda_support.h"
#include "common/wall_clock.h"
#include "structures/slab_hash/gpu/slab_hash_launch.h"
#include "histories/device_recorder.h"
#include "histories/jsonl_writer.h"
#include "histories/key_clock_recorder.h"
#include "histories/result_shapes.h"
#include "histories/rules.h"
#include "structures/slab_hash/work_queue.h"
#include "structures/slab_hash/sim/slab_at_rest.h"
#include "structures/slab_hash/sim/slab_program.h"
#include "verify/keyed_linear/gpu_published_check.h"
#include "verify/keyed_linear/keyed_check.h"
#include "verify/search_checker.h"

namespace gpulin::stress {

using Clock = std::chrono::steady_clock;

namespace {

using cuda_support::check;

// The workload: initial keys (distinct, below 2^31) built first; then the mix,
// where inserts bring fresh keys, deletes and searches-for-present keys pick from
// the keys inserted so far, and searches-for-absent keys come from [2^31, 2^32 - 2).
struct SlabWorkload {
  std::vector<uint32_t> init_keys, init_values;
  std::vector<uint32_t> fn, key, value;
};

SlabWorkload make_slab_workload(const SlabStressOptions& o) {
  using namespace slab_hash;
  std::mt19937_64 rng(o.seed);
  SlabWorkload w;
  std::unordered_set<uint32_t> used;
  std::vector<uint32_t> present;
  auto fresh = [&] {
    for (;;) {
      const uint32_t k = static_cast<uint32_t>(rng() >> 33);  // below 2^31
      if (used.insert(k).second) return k;
    }
  };
  uint32_t next_value = 1;
  for (uint64_t i = 0; i < o.initial; ++i) {
    w.init_keys.push_back(fresh());
    w.init_values.push_back(next_value++);
    present.push_back(w.init_keys.back());
  }
  std::uniform_real_distribution<double> u(0, 1);
  for (uint64_t i = 0; i < o.ops; ++i) {
    const double r = u(rng);
    uint32_t f = kFnSearch, k = 0, v = 0;
    if (r < o.mix[0] || present.empty()) {
      f = kFnInsert, k = fresh(), v = o.mode == Mode::Set ? 0u : next_value++;
      present.push_back(k);
    } else if (r < o.mix[0] + o.mix[1]) {
      f = kFnDelete, k = present[rng() % present.size()];
    } else if (r < o.mix[0] + o.mix[1] + o.mix[2]) {
      k = present[rng() % present.size()];
    } else {
      k = 0x80000000u + static_cast<uint32_t>(rng() % 0x7FFFFFF0u);
    }
    w.fn.push_back(f), w.key.push_back(k), w.value.push_back(v);
  }
  return w;
}

// The initial keys and operations of partition `part` (SlabStressOptions::parts).
SlabWorkload keep_partition(const SlabWorkload& all, uint32_t part, uint32_t parts) {
  using namespace slab_hash;
  SlabWorkload w;
  for (size_t i = 0; i < all.init_keys.size(); ++i)
    if (slab_partition(all.init_keys[i], parts) == part)
      w.init_keys.push_back(all.init_keys[i]), w.init_values.push_back(all.init_values[i]);
  for (size_t i = 0; i < all.key.size(); ++i)
    if (slab_partition(all.key[i], parts) == part)
      w.fn.push_back(all.fn[i]), w.key.push_back(all.key[i]), w.value.push_back(all.value[i]);
  return w;
}

// The downloaded table, checked at rest on the host (slab_at_rest.h).
std::optional<std::string> table_at_rest(const slab_hash::DeviceSlabHash& t, slab_hash::Mode mode,
                                         slab_hash::Variant variant) {
  using namespace slab_hash;
  std::vector<uint32_t> base = t.base_words(), versions = t.version_words(), pool = t.pool_words(),
                        bitmaps = t.bitmap_words();
  std::vector<uint32_t*> supers;
  for (uint32_t s = 0; s < t.shape().supers; ++s) supers.push_back(pool.data() + s * t.shape().super_words());
  return with_slab_policy(mode, t.light(), variant, [&](auto policy) {
    SlabHashView<decltype(policy)> v = t.view<decltype(policy)>();
    v.base_slabs = base.data();
    v.versions = versions.data();
    v.alloc.bitmaps = bitmaps.data();
    v.alloc.pool = pool.data();
    v.alloc.super_blocks = supers.data();
    v.alloc.failures = nullptr;
    return explore::slab_table_at_rest(v);
  });
}

}  // namespace

std::array<double, 4> parse_mix(const std::string& text) {
  using namespace slab_hash;
  std::array<double, 4> mix{};
  std::istringstream in(text);
  std::string part;
  size_t i = 0;
  while (std::getline(in, part, ',')) {
    if (i == 4) throw std::invalid_argument("--mix: four fractions a,b,c,d (insert, delete, search, search-absent)");
    try {
      size_t used = 0;
      mix[i] = std::stod(part, &used);
      if (used != part.size() || mix[i] < 0) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw std::invalid_argument("--mix: '" + part + "' is not a fraction");
    }
    ++i;
  }
  const double sum = mix[0] + mix[1] + mix[2] + mix[3];
  if (i != 4 || sum < 0.999 || sum > 1.001)
    throw std::invalid_argument("--mix: four fractions a,b,c,d that sum to 1, e.g. 0.2,0.2,0.3,0.3 (Γ1)");
  return mix;
}

SlabStressResult run_slab_stress(const SlabStressOptions& o) {
  using namespace slab_hash;
  if (o.threads == 0 || o.threads % 32 || o.threads > 1024) throw std::invalid_argument("--threads: a multiple of 32 up to 1024");
  if (o.buckets == 0) throw std::invalid_argument("--buckets: at least 1");
  if (o.batch == 0 || o.batch % 32) throw std::invalid_argument("--batch: a positive multiple of 32");
  if (o.variant == Variant::Fixed && o.mode != Mode::Multimap)
    throw std::invalid_argument("--variant fixed: the multimap's (map and set have one variant)");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) throw std::runtime_error("no CUDA device");
  if (o.check != "device" && o.check != "host") throw std::invalid_argument("--check: device or host");
  if (o.parts == 0 || o.part >= o.parts) throw std::invalid_argument("slab stress: part " + std::to_string(o.part) +
                                                                     " of " + std::to_string(o.parts));
  SlabStressResult res;
  const SlabWorkload w = o.parts == 1 ? make_slab_workload(o) : keep_partition(make_slab_workload(o), o.part, o.parts);
  const uint32_t buckets = (o.buckets + o.parts - 1) / o.parts;
  // Slabs for every key ever inserted at 30 % fill, as SlabAlloc-light memory blocks.
  const uint64_t inserts =
      (o.parts == 1 ? o.initial + static_cast<uint64_t>(o.ops * o.mix[0] * 1.2)
                    : w.init_keys.size() + static_cast<uint64_t>(1.2 * std::count(w.fn.begin(), w.fn.end(), kFnInsert))) +
      1024;
  const uint64_t slabs = buckets + inserts / 4;
  SlabHashShape shape;
  shape.buckets = buckets;
  shape.blocks_per_super = static_cast<uint32_t>(std::min<uint64_t>(16384, (slabs + kUnitsPerBlock - 1) / kUnitsPerBlock));
  shape.supers = static_cast<uint32_t>((slabs / kUnitsPerBlock + shape.blocks_per_super) / shape.blocks_per_super);
  shape.hash_seed = o.seed;
  DeviceSlabHash table(shape, o.light);

  const uint64_t total = w.init_keys.size() + w.fn.size();
  const uint64_t warps_per_launch = (o.batch + 31) / 32;
  const uint64_t launches = (w.init_keys.size() + o.batch - 1) / o.batch + (w.fn.size() + o.batch - 1) / o.batch;
  if (o.recorder != "auto" && o.recorder != "published" && o.recorder != "warp-rounds" && o.recorder != "key-clocks" &&
      o.recorder != "events")
    throw std::invalid_argument("--recorder: auto, published, warp-rounds, key-clocks or events");
  if (o.recorder != "auto" && o.recorder != "events" && o.mode == Mode::Multimap)
    throw std::invalid_argument("--recorder " + o.recorder +
                                ": not for the multimap (a SEARCHALL returns a list); use events");
  const bool by_clocks = o.record && o.mode != Mode::Multimap && o.recorder != "events";
  // auto: a published clock, the cheapest
  const std::string clock_recorder = o.recorder == "auto" ? "published" : o.recorder;
  if (o.record) res.recorder = by_clocks ? clock_recorder : "events";
  std::unique_ptr<KeyClockRecorder> clocks;
  if (by_clocks && clock_recorder == "published")
    clocks = std::make_unique<KeyClockRecorder>(KeyClockRecorder::published(total));
  else if (by_clocks && clock_recorder == "warp-rounds")
    clocks = std::make_unique<KeyClockRecorder>(KeyClockRecorder::warp_rounds(total));
  else if (by_clocks)
    clocks = std::make_unique<KeyClockRecorder>(total);
  std::unique_ptr<DeviceRecorder> rec;
  if (o.record && !by_clocks) {
    const uint64_t cap = launches * 32 * 3 + 64;  // inv, lp, ret per op; a warp's 32 ops per launch
    if (cap > 0xFFFFFFFFull) throw std::invalid_argument("--record: too many launches for the recorder");
    rec = std::make_unique<DeviceRecorder>(static_cast<uint32_t>(warps_per_launch), static_cast<uint32_t>(cap),
                                           static_cast<uint32_t>(cap));
  }
  DeviceRecorderRef ref = rec ? rec->ref() : DeviceRecorderRef{};
  check(load_slab_kernels(o.mode, o.light, o.variant), "slab stress: loading the kernels");

  // Every operation's call stays on the GPU for the whole run, at its op id (the
  // build's keys first): the launches read them, and the check on the GPU reads
  // them again (a published clock's records leave the calls out).
  std::vector<uint32_t> all_keys = w.init_keys, all_values = w.init_values;
  all_keys.insert(all_keys.end(), w.key.begin(), w.key.end());
  all_values.insert(all_values.end(), w.value.begin(), w.value.end());
  const cuda_support::DeviceBuffer<uint32_t> d_keys(all_keys), d_values(all_values), d_fn(w.fn);
  // A copy from pageable memory may return before its DMA ends: without this
  // wait the first launch's time would include the upload's tail.
  check(cudaDeviceSynchronize(), "slab stress: upload");

  // Each launch timed by its own pair of events: the sum is the GPU time of the
  // kernels; the span from the first start to the last stop (host gaps between
  // launches included) is reported beside it. Ops [first, first + count) of the
  // calls; `fn` null: every op is `uniform`.
  auto run_batches = [&](const uint32_t* fn, uint32_t uniform, uint64_t first, uint64_t count, int64_t& op_base) {
    std::vector<std::unique_ptr<cuda_support::GpuTimer>> timers;
    const auto t0 = Clock::now();
    for (uint64_t off = 0; off < count; off += o.batch) {
      SlabOpBatch ops;
      ops.fn = fn ? fn + off : nullptr;
      ops.uniform_fn = uniform;
      ops.key = d_keys.get() + first + off;
      ops.value = d_values.get() + first + off;
      ops.count = std::min<uint64_t>(o.batch, count - off);
      timers.push_back(std::make_unique<cuda_support::GpuTimer>());
      timers.back()->start();
      if (clocks)
        check(launch_slab_batch(o.mode, table, ops, o.threads, nullptr, clocks->next_launch(), op_base),
              "slab stress: launch");
      else
        check(launch_slab_batch(o.mode, o.variant, table, ops, o.threads, nullptr, rec ? &ref : nullptr, op_base),
              "slab stress: launch");
      timers.back()->record_stop();
      op_base += static_cast<int64_t>(ops.count);
    }
    double kernels = 0;
    for (auto& t : timers) kernels += t->stop("slab stress: kernels");
    return std::pair{kernels, seconds_since(t0)};
  };
  int64_t op_base = 0;
  const uint64_t built = w.init_keys.size();
  std::tie(res.build_seconds, res.build_span_seconds) = run_batches(nullptr, kFnInsert, 0, built, op_base);
  std::tie(res.mix_seconds, res.mix_span_seconds) = run_batches(d_fn.get(), kFnSearch, built, w.fn.size(), op_base);
  res.ops = total;
  res.build_ops = built;
  res.mix_ops = w.fn.size();
  res.alloc_failures = table.failures();
  if (res.alloc_failures)
    res.failures.push_back(std::to_string(res.alloc_failures) + " allocations found no free slab (pool too small)");
  const std::optional<std::string> broken = table_at_rest(table, o.mode, o.variant);
  if (broken) res.failures.push_back("table at rest: " + *broken);
  if (!o.record) return res;

  const auto header = explore::slab_header(o.mode, "gpulin stress");
  const auto fn_names = explore::slab_fn_names(o.mode);
  const auto verdict_start = Clock::now();
  if (o.check == "device" && clocks && clock_recorder == "published") {
    const auto t0 = Clock::now();
    const KeyClockRecorder::PublishedOnDevice dev = clocks->published_on_device();
    const PublishedCheckResult g = check_published_keyed_on_gpu(
        {dev.records, d_keys.get(), d_values.get(), total, dev.ticks, dev.tick_count, dev.overflow, header.model, fn_names});
    res.ticks = dev.tick_count;
    if (!g.irregular) {
      res.checked_on = "GPU";
      res.check_phases = g.phases;
      res.events = total + g.completed;
      res.keys_checked = g.keys;
      if (!g.failing_keys.empty()) {
        // The search decides the keys ret order failed on, from their operations
        // alone (linearizability is local), as check_keyed_linear does.
        res.witness_failure = g.witness.violation->message;
        res.keys_searched = g.failing_keys.size();
        Header sub_header = header;
        sub_header.lp_rule.clear();  // no lp events to order by
        KeyHistory sub = assemble_published_ops(g.failing.records, g.failing.calls, g.failing.ids, g.failing.ticks,
                                                false, std::move(sub_header), fn_names, "gpu");
        apply_result_shapes(sub, explore::slab_result_shapes());
        check_events(sub.events, sub.source);
        const SearchResult search = check_search(expand(std::move(sub)));
        if (search.verdict == Verdict::NotLinearizable) res.failures.push_back("not linearizable: " + search.message);
        if (search.verdict == Verdict::Undecided) res.failures.push_back("undecided: " + search.message);
      }
      res.check_seconds = seconds_since(t0);
      res.verdict_seconds = seconds_since(verdict_start);
      if (!o.out_dir.empty()) {
        const auto t1 = Clock::now();
        std::vector<PublishedCall> calls;
        calls.reserve(total);
        for (uint64_t i = 0; i < total; ++i) calls.push_back({all_keys[i], all_values[i]});
        KeyHistory h = clocks->download_published(total, calls, header, fn_names, "gpu");
        apply_result_shapes(h, explore::slab_result_shapes());
        res.download_seconds = seconds_since(t1);
        std::filesystem::create_directories(o.out_dir);
        res.history_path = o.out_dir + "/slab-" + explore::slab_mode_name(o.mode) + ".jsonl";
        write_history_file(res.history_path, h);
      }
      return res;
    }
    res.irregular = g.why;  // the host names it exactly
  }
  res.checked_on = "host";

  const auto t0 = Clock::now();
  // The lean form throughout: a run of 10^7 operations is checked key by key on
  // every core (verify/keyed_linear), never expanded into Values.
  KeyHistory h;
  if (clock_recorder == "published" && clocks) {
    // The records leave out the calls: the workload's, in op id order.
    std::vector<PublishedCall> calls;
    calls.reserve(total);
    for (uint64_t i = 0; i < total; ++i) calls.push_back({all_keys[i], all_values[i]});
    h = clocks->download_published(total, calls, header, fn_names, "gpu");
    res.ticks = clocks->published_ticks();
  } else {
    h = clocks ? clocks->download(total, header, fn_names, "gpu") : rec->download(header, fn_names, "gpu");
  }
  apply_result_shapes(h, explore::slab_result_shapes());
  res.events = h.events.size();
  res.download_seconds = seconds_since(t0);
  const auto t1 = Clock::now();
  check_header(h.header, h.source, 0);
  check_events(h.events, h.source);  // the format's rules, exactly
  const KeyedCheckResult r = check_keyed_linear(h);
  if (!r.applicable) throw std::runtime_error("slab stress: the recorded history cannot be checked by key: " + r.why);
  res.keys_checked = r.keys;
  if (r.witness.verdict != Verdict::Linearizable) {
    // On the GPU an lp's ticket is taken after its deciding access, so another warp
    // can observe a CAS's effect before the writer's ticket: the explicit order may
    // fail where the history is linearizable. Recorded by warp rounds or a published
    // clock, the order is the rets', which fails wherever a key's concurrent
    // operations took effect in another order. The search on the failing keys
    // decides then.
    res.witness_failure = r.witness.violation ? r.witness.violation->message : "the witness check failed";
    res.keys_searched = r.failing_keys.size();
    if (r.verdict == Verdict::NotLinearizable) res.failures.push_back("not linearizable: " + r.search->message);
    if (r.verdict == Verdict::Undecided) res.failures.push_back("undecided: " + r.search->message);
  }
  res.check_seconds = seconds_since(t1);
  res.verdict_seconds = seconds_since(verdict_start);
  if (!o.out_dir.empty()) {
    std::filesystem::create_directories(o.out_dir);
    res.history_path = o.out_dir + "/slab-" + explore::slab_mode_name(o.mode) + ".jsonl";
    write_history_file(res.history_path, h);
  }
  return res;
}

}  // namespace gpulin::stress
