#include "structures/gheap/gpu/heap_stress.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "common/cuda_support.h"
#include "common/wall_clock.h"
#include "structures/gheap/gpu/gheap_launch.h"
#include "cuda/watchdog_host.h"
#include "histories/device_recorder.h"
#include "histories/jsonl_writer.h"
#include "histories/rules.h"
#include "structures/gheap/bit_reversal.h"
#include "structures/gheap/gpu/device_heap.h"
#include "structures/gheap/sim/heap_at_rest.h"
#include "structures/gheap/sim/heap_config.h"
#include "structures/gheap/gpu/device_checks.h"
#include "structures/gheap/gpu/device_workload.h"
#include "verify/pq_batch_witness.h"
#include "verify/pq_linear/gpu_check.h"
#include "verify/pq_linear/linear_check.h"

namespace gpulin::stress {

namespace {

// LSD radix sort of the keys (8-bit passes, four for 32-bit keys, eight for
// 64-bit): the conservation check sorts up to 2^29 keys, where std::sort or a hash
// map would take minutes.
template <class Key>
void radix_sort(std::vector<Key>& v) {
  std::vector<Key> tmp(v.size());
  for (int shift = 0; shift < int(8 * sizeof(Key)); shift += 8) {
    size_t count[257] = {};
    for (Key x : v) ++count[((x >> shift) & 0xff) + 1];
    for (int i = 0; i < 256; ++i) count[i + 1] += count[i];
    for (Key x : v) tmp[count[(x >> shift) & 0xff]++] = x;
    v.swap(tmp);
  }
}

using cuda_support::check;

// Whether a recorded run records the root's holds alone (--holds root under the
// root-release rule; the last-lock rule compares every node's and tickets them).
bool root_holds_only(const StressOptions& o) {
  return o.holds == StressOptions::Holds::Root && std::string(explore::lp_rule_for(o.flavor, o.variant)) == "root-release";
}

// The history's header for the recorded run.
Header stress_header(const StressOptions& o) {
  Header header;
  header.model = "pq-batch";
  header.params = Value::object({{"k", Value::integer(o.k)}});
  header.lp_rule = explore::lp_rule_for(o.flavor, o.variant);
  header.extra.emplace_back("source", "\"gpulin stress\"");
  header.extra.emplace_back("key_bits", std::to_string(o.key_bits));
  // Which locks' holds the history holds (only node 1's: the others were not recorded).
  header.extra.emplace_back("holds", root_holds_only(o) ? "\"node 1 only\"" : "\"every node\"");
  std::string gpu = "\"unknown\"";
  cudaDeviceProp prop{};
  int device = 0;  // the run's: the host thread's current device (--gpus runs one a thread)
  if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    gpu.clear();
    append_json_string(gpu, prop.name);
  }
  header.extra.emplace_back("gpu", gpu);
  return header;
}

// Tests: the first delete that returned keys gets its first key + 1, in the
// recorder's key buffer (so both checks see it).
template <class Key>
void plant_bad_delete(const BasicDeviceRecorder<Key>& rec, uint32_t actors) {
  const BasicDeviceRecorderRef<Key> ref = rec.ref();
  std::vector<uint32_t> counts(actors);
  check(cudaMemcpy(counts.data(), ref.event_count, 4 * actors, cudaMemcpyDeviceToHost), "plant");
  for (uint32_t a = 0; a < actors; ++a) {
    std::vector<DeviceEvent> ev(std::min(counts[a], ref.event_cap));
    check(cudaMemcpy(ev.data(), ref.events + size_t(a) * ref.event_cap, ev.size() * sizeof(DeviceEvent),
                     cudaMemcpyDeviceToHost),
          "plant");
    for (const DeviceEvent& e : ev)
      if (e.kind == uint32_t(EventKind::Ret) && !e.is_null && e.key_len > 0) {
        Key* p = ref.keys + size_t(a) * ref.key_cap + e.key_off;
        Key v = 0;
        check(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost), "plant");
        ++v;
        check(cudaMemcpy(p, &v, sizeof v, cudaMemcpyHostToDevice), "plant");
        return;
      }
  }
}


// The watchdog stopped a phase: nothing after it runs, and no check of a heap
// left mid-operation means anything. The report names the word each block waited
// on; with --record the partial history (its cut-off operations pending) goes to
// --out, or to the working folder.
template <class Key>
StressResult stopped_run(const StressOptions& o, StressResult r, const cuda_exec::WatchdogReport& stop,
                         const gheap::DeviceHeap<Key>& heap, const BasicDeviceRecorder<Key>* rec) {
  r.watchdog = cuda_exec::describe(stop, [&](uint64_t a) { return heap.word_name(a); }, "block",
                                   [&](uint64_t a, uint32_t v) { return heap.value_name(a, v); });
  r.failures.push_back(r.watchdog);
  if (!rec) {
    r.failures.push_back("no history: rerun with --record for the partial history of the stopped run");
    return r;
  }
  try {
    const KeyHistory c = rec->download(stress_header(o), {"ins", "del"}, "<gpu run>");
    for (const KeyOp& op : c.ops) r.pending_ops += op.pending();
    const std::string dir = o.out_dir.empty() ? std::string(".") : o.out_dir;
    std::filesystem::create_directories(dir);
    r.history_path = dir + "/" + explore::structure_name(o.flavor) + "-" + explore::variant_name(o.variant) +
                     "-gpu-partial.jsonl";
    write_history_file(r.history_path, expand(c));
    r.failures.push_back("partial history (" + std::to_string(c.ops.size()) + " operations, " +
                         std::to_string(r.pending_ops) + " pending): " + r.history_path);
  } catch (const FormatError& e) {
    r.failures.push_back(std::string("the partial history could not be assembled: ") + e.what());
  }
  return r;
}

// The run with the heap's key type fixed: its kernels, recorder and checks.
template <class Key>
StressResult run_stress_as(const StressOptions& o) {
  // Stages on standard error as they finish, so that a long run shows where it is.
  const auto started = std::chrono::steady_clock::now();
  const std::string who = o.label.empty() ? "" : o.label + " ";
  auto stage = [&](const std::string& what) {
    std::fprintf(stderr, "[stress %s%7.1f s] %s\n", who.c_str(), seconds_since(started), what.c_str());
  };
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) throw std::runtime_error("no CUDA device");
  // The operations are planned on the host (per operation: small); the keys are
  // drawn on the GPU, phase by phase, where the kernels read them.
  const auto w0 = std::chrono::steady_clock::now();
  const DeviceWorkload<Key> w(plan_workload(o.workload, o.keys, o.k, o.blocks, o.seed), o.seed);
  const WorkloadShape& shape = w.shape();
  StressResult r;
  r.workload_seconds = seconds_since(w0);
  stage("workload planned");
  gheap::DeviceHeap<Key> heap(o.k, shape.ins_ops + 1);
  const auto memory = heap.memory();
  const bool on_device = o.check == "device";
  const cuda_exec::DeviceWatchdog watchdog(o.blocks, o.spin_bound);

  std::unique_ptr<BasicDeviceRecorder<Key>> rec;
  if (o.record) {
    // Room per block: its share of operations, each with inv, ret and two events a
    // held node on at most the path's length plus a delete's children.
    const uint64_t total_ops = shape.ops();
    const uint64_t per_block = (total_ops + o.blocks - 1) / o.blocks + 1;
    const uint32_t levels = gheap::floor_log2(heap.capacity()) + 1;
    const uint64_t events = per_block * (2 + 2 * (2 * levels + 4));
    const uint64_t keys = per_block * o.k;
    if (events > 0xffffffffull || keys > 0xffffffffull) throw std::runtime_error("recording buffers too large");
    rec = std::make_unique<BasicDeviceRecorder<Key>>(o.blocks, static_cast<uint32_t>(events), static_cast<uint32_t>(keys));
    // The root-release rule compares the root's holds only: by default they alone
    // are recorded, numbered on the root, not ticketed (histories/device_events.h),
    // for the host's checks and the GPU's (verify/pq_linear/gpu_check.cu) alike.
    // Nothing is recorded inside a root hold (inv and ret lie outside), so each is
    // one record after its release, its acq implied. --holds all numbers every
    // node's holds; the last-lock rule tickets them.
    if (root_holds_only(o))
      rec->version_holds(gheap::kRootHoldNodes, true);
    else if (o.holds == StressOptions::Holds::All && std::string(explore::lp_rule_for(o.flavor, o.variant)) == "root-release")
      rec->version_holds(uint64_t{heap.capacity()} + 1);
  }

  // Conservation: the keys inserted equal the keys deleted plus the keys left in
  // the heap, as multisets (compared sorted), on the GPU or on the host.
  std::unique_ptr<DeviceConservation<Key>> conserve;
  if (on_device) conserve = std::make_unique<DeviceConservation<Key>>(shape.stream_keys);
  std::vector<Key> inserted, removed;
  int64_t op_base = 0;
  for (size_t phase = 0; phase < shape.phases.size(); ++phase) {
    const ShapePhase& sp = shape.phases[phase];
    // The phase's operations, keys and outputs on the device, freed at its end.
    const auto d0 = std::chrono::steady_clock::now();
    const DevicePhase<Key> p = w.phase(phase);
    r.workload_seconds += seconds_since(d0);
    const uint32_t* pn = shape.n.data() + sp.begin;  // the phase's operations, on the host
    const uint32_t* pfn = shape.fn.data() + sp.begin;
    if (!on_device) {
      const std::vector<Key> keys = cuda_support::download(p.keys.get(), p.keys.size());
      for (size_t i = 0; i < p.ops; ++i)
        inserted.insert(inserted.end(), keys.begin() + i * o.k, keys.begin() + i * o.k + pn[i]);
    }
    const cuda_support::DeviceBuffer<uint32_t>& fn = p.fn;
    const cuda_support::DeviceBuffer<uint32_t>& n = p.n;
    const cuda_support::DeviceBuffer<Key>& keys = p.keys;
    const cuda_support::DeviceBuffer<Key> out(keys.size());
    cuda_support::DeviceBuffer<uint32_t> out_n(p.ops);
    out_n.fill_bytes(0);
    gheap::GpuOpBatch<Key> b;
    b.count = p.ops;
    b.fn = fn.get();
    b.n = n.get();
    b.keys = keys.get();
    b.out = out.get();
    b.out_n = out_n.get();
    const BasicDeviceRecorderRef<Key> ref = rec ? rec->ref() : BasicDeviceRecorderRef<Key>{};
    check(cudaDeviceSynchronize(), "upload");  // a pageable copy's DMA may still run: not kernel time
    cuda_support::GpuTimer timer;
    timer.start();
    check(gheap::launch_heap_batch(o.flavor, o.variant, memory, b, o.blocks, o.threads, nullptr, rec ? &ref : nullptr,
                                   op_base, &watchdog.ref(), o.mutant),
          "heap kernel launch (" + sp.name + ")");
    const double seconds = timer.stop("heap kernel (" + sp.name + ")");
    if (const cuda_exec::WatchdogReport stop = watchdog.read(); stop.stopped) {
      stage("the watchdog stopped phase '" + sp.name + "'");
      return stopped_run(o, std::move(r), stop, heap, rec.get());
    }
    r.phases.push_back({sp.name, p.ops, seconds});
    r.kernel_seconds += seconds;
    r.ops += p.ops;
    r.inserted_keys += p.inserted_keys;
    if (on_device) {
      conserve->add_phase(fn.get(), n.get(), keys.get(), out.get(), out_n.get(), p.ops, o.k);
    } else {
      // Every delete's batch sorted; every deleted key one that was inserted.
      std::vector<Key> h_out(keys.size());
      std::vector<uint32_t> h_n(p.ops);
      check(cudaMemcpy(h_out.data(), out.get(), h_out.size() * sizeof(Key), cudaMemcpyDeviceToHost), "download");
      check(cudaMemcpy(h_n.data(), out_n.get(), h_n.size() * 4, cudaMemcpyDeviceToHost), "download");
      for (size_t i = 0; i < p.ops; ++i) {
        if (pfn[i] != gheap::kFnDel) continue;
        const Key* d = h_out.data() + i * o.k;
        r.deleted_keys += h_n[i];
        if (h_n[i] > o.k && r.failures.size() < 10)
          r.failures.push_back("delete " + std::to_string(op_base + i) + " returned more than k keys");
        for (uint32_t j = 0; j < h_n[i] && j < o.k; ++j) {
          if (j && d[j] < d[j - 1] && r.failures.size() < 10)
            r.failures.push_back("delete " + std::to_string(op_base + i) + " returned an unsorted batch");
          removed.push_back(d[j]);
        }
      }
    }
    op_base += static_cast<int64_t>(p.ops);
    stage("phase '" + sp.name + "' done");
  }

  // From here on, the clock of "end of the kernels to the verdict".
  const auto after_kernels = std::chrono::steady_clock::now();
  if (on_device) {
    for (auto& f : conserve->finish(memory)) r.failures.push_back(f);
    r.deleted_keys = conserve->deleted();
    if (auto bad = check_device_heap_at_rest(memory)) r.failures.push_back("invariant: " + *bad);
  } else {
    // What the heap still holds must be exactly what was inserted and not deleted.
    const gheap::HeapImage<Key> img = heap.download();
    for (uint32_t i = 1; i <= img.lastelem; ++i) {
      const uint32_t x = gheap::node_of(i);
      removed.insert(removed.end(), img.keys.begin() + size_t(x) * o.k, img.keys.begin() + size_t(x + 1) * o.k);
    }
    removed.insert(removed.end(), img.pbuffer.begin(), img.pbuffer.begin() + img.psize);
    radix_sort(inserted);
    radix_sort(removed);
    if (inserted != removed) {
      const auto [a, b] = std::mismatch(inserted.begin(), inserted.end(), removed.begin(), removed.end());
      r.failures.push_back("keys not conserved: " + std::to_string(inserted.size()) + " inserted, " +
                           std::to_string(removed.size()) + " deleted or left in the heap; first difference at " +
                           (a == inserted.end() ? std::string("end") : "inserted key " + std::to_string(*a)) + " / " +
                           (b == removed.end() ? std::string("end") : "key out " + std::to_string(*b)));
    }
    if (auto bad = explore::check_heap_at_rest(img, gheap::Mutant::None)) r.failures.push_back("invariant: " + *bad);
  }
  r.at_rest_seconds = seconds_since(after_kernels);
  stage("conservation and invariant checked on the " + std::string(on_device ? "GPU" : "host"));

  if (rec) {
    if (o.plant_bad_delete) plant_bad_delete(*rec, o.blocks);
    const Header header = stress_header(o);
    const auto c0 = std::chrono::steady_clock::now();
    std::optional<WitnessResult> verdict;
    bool need_host = !on_device;
    if (on_device) {
      BasicGpuCheckInput<Key> in;
      in.rec = rec->ref();
      in.actors = o.blocks;
      in.ops = r.ops;
      in.k = o.k;
      in.rule = lp_rule_of(header, "<gpu run>");
      const GpuCheckResult g = check_pq_batch_on_gpu(in);
      r.events = g.events;
      r.tuples = g.tuples;
      r.check_phases = g.phases;
      if (g.irregular) {
        stage("the GPU check saw an irregular recording (" + g.why + "); deciding on the host");
        need_host = true;
      } else {
        verdict = g.linear.witness;
      }
    }
    r.check_seconds = seconds_since(c0);
    std::optional<KeyHistory> c;
    if (need_host || !o.out_dir.empty()) {
      const auto d0 = std::chrono::steady_clock::now();
      try {
        c = rec->download(header, {"ins", "del"}, "<gpu run>");
      } catch (const FormatError& e) {
        // A 64-bit key above 2^63 - 1 was recorded: no workload inserts one, and no
        // history integer holds it (the GPU check saw it too: irregular).
        r.failures.push_back(std::string("malformed device history: ") + e.what());
        need_host = false;
      }
      r.download_seconds = seconds_since(d0);
      stage("history downloaded");
    }
    if (need_host) {
      const auto h0 = std::chrono::steady_clock::now();
      try {
        check_events(c->events, c->source);  // the format's rules, exactly
        r.events = c->events.size();
        const LinearCheckResult lin = check_pq_batch_linear(*c);
        r.tuples = lin.tuples;
        verdict = lin.applicable ? lin.witness : check_witness_pq_batch(*c);
      } catch (const FormatError& e) {
        r.failures.push_back(std::string("malformed device history: ") + e.what());
      }
      r.check_seconds += seconds_since(h0);
    }
    r.verdict_seconds = seconds_since(after_kernels);
    stage("witness checked");
    if (verdict && verdict->verdict != Verdict::Linearizable) {
      r.witness_failure = verdict->violation ? verdict->violation->message : "failed";
      r.failures.push_back("witness (" + header.lp_rule + "): " + r.witness_failure);
    }
    if (!o.out_dir.empty() && c) {
      std::filesystem::create_directories(o.out_dir);
      r.history_path = o.out_dir + "/" + explore::structure_name(o.flavor) + "-" + explore::variant_name(o.variant) +
                       "-gpu.jsonl";
      write_history_file(r.history_path, expand(*c));
    }
  } else {
    r.verdict_seconds = seconds_since(after_kernels);
  }
  return r;
}

}  // namespace

StressResult run_stress(const StressOptions& o) {
  if (o.check != "device" && o.check != "host") throw std::invalid_argument("--check is device or host");
  if (o.mutant != gheap::Mutant::None &&
      (o.mutant != gheap::Mutant::LostRootRelease || o.flavor != gheap::Flavor::TopDown ||
       o.variant != gheap::Variant::Fixed || o.key_bits != 32))
    throw std::invalid_argument("on the GPU the only mutant is lost-root-release, on gheap-td fixed with 32-bit keys "
                                "(the others run in the simulator: gpulin explore --mutant)");
  if (o.spin_bound == 0) throw std::invalid_argument("--spin-bound is at least 1");
  if (o.key_bits == 32) return run_stress_as<uint32_t>(o);
  if (o.key_bits == 64) return run_stress_as<uint64_t>(o);
  throw std::invalid_argument("--key-bits is 32 or 64, not " + std::to_string(o.key_bits));
}

}  // namespace gpulin::stress
