#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/cuda_support.h"
#include "verify/keyed_linear/gpu_published_check.h"
#include "verify/keyed_linear/keyed_fns.h"

namespace gpulin {

namespace {

using namespace cuda_support;
using namespace keyed_fns;

constexpr uint32_t kPendingKey = 0xFFFFFFFFu;  // ret-order key of an op that never returned

// The first irregularity, by op id (sightings at 0): op << 8 | code.
enum Irregular : uint32_t {
  kSightingSm = 1, kSightingsBack, kNeverWritten, kMalformed, kUnknownFn, kLaunchOrder, kUnpublished,
  kPublishedBeforeInv, kGWrapped, kMisfit
};
const char* irregular_text(uint32_t c) {
  switch (c) {
    case kSightingSm: return "a sighting of a multiprocessor past 255";
    case kSightingsBack: return "a multiprocessor's sightings go back";
    case kNeverWritten: return "a record never written";
    case kMalformed: return "a malformed shape word";
    case kUnknownFn: return "an unknown operation";
    case kLaunchOrder: return "a launch after a later one";
    case kUnpublished: return "a ret no sighting published";
    case kPublishedBeforeInv: return "a ret published before its inv";
    case kGWrapped: return "a G value of 2^32 - 1";
    case kMisfit: return "an operation that does not fit the model (arity or result)";
  }
  return "?";
}
__device__ void irregular(unsigned long long* word, uint64_t op, uint32_t code) {
  atomicMin(word, static_cast<unsigned long long>(op << 8 | code));
}

// The model's operations by the records' fn index (at most 16: the shape's 4 bits).
struct FnTable {
  uint8_t fn[16];
  uint32_t count;
};

// The record's shape word (published_shape).
struct Shape {
  uint32_t args_len, fn, sm, launch;
  bool has_res, res_null;
  __device__ explicit Shape(uint32_t s)
      : args_len(s & 3u), fn((s >> 4) & 0xFu), sm((s >> 8) & 0xFFu), launch(s >> 16), has_res((s >> 2) & 1u),
        res_null((s >> 3) & 1u) {}
};

// 1. The ticker's sightings, sorted by multiprocessor (stably: log order within
// one): each multiprocessor's range, and the checks the host makes of them.
__global__ void index_sightings(const PublishedTick* ticks, const uint32_t* order, const uint32_t* sm_sorted,
                                uint32_t n, uint32_t* value, uint32_t* g, uint32_t* begin, uint32_t* end,
                                unsigned long long* irr) {
  GPULIN_GRID_STRIDE(i, n) {
    const PublishedTick t = ticks[order[i]];
    value[i] = t.value, g[i] = t.g;
    const uint32_t sm = sm_sorted[i];
    if (sm >= kPublishedMaxSms) {
      irregular(irr, 0, kSightingSm);
      continue;
    }
    if (i == 0 || sm_sorted[i - 1] != sm) begin[sm] = static_cast<uint32_t>(i);
    if (i + 1 == n || sm_sorted[i + 1] != sm) end[sm] = static_cast<uint32_t>(i + 1);
    if (i > 0 && sm_sorted[i - 1] == sm) {
      const PublishedTick p = ticks[order[i - 1]];
      if (t.value < p.value || t.g <= p.g) irregular(irr, 0, kSightingsBack);
    }
  }
}

// Whether a completed op's result has the shape its operation gives (keyed_check's
// fits, on the record's bits as apply_result_shapes reads them).
__device__ bool fits(const FnTable& ft, const Shape& s, bool completed) {
  const uint8_t f = ft.fn[s.fn];
  if (f == kUnknown) return false;
  if (s.args_len != (f == kReplace ? 2u : 1u)) return false;
  if (!completed) return true;
  switch (f) {
    case kSearch: return true;          // null, a value, or no integer at all (which never matches)
    case kContains: return s.has_res;   // true or false
    default: return s.res_null && !s.has_res;
  }
}

// 2. Each op: the record's checks (assemble_published_history's and
// assemble_key_clock_history's), the model's fit, and its ret's G: its key in ret
// order (kPendingKey: pending).
__global__ void publish_ops(const PublishedRecord* records, uint64_t ops, FnTable ft, const uint32_t* value,
                            const uint32_t* g, const uint32_t* begin, const uint32_t* end, uint32_t* order_key,
                            unsigned long long* pending, unsigned long long* irr) {
  GPULIN_GRID_STRIDE(op, ops) {
    const PublishedRecord r = records[op];
    order_key[op] = kPendingKey;
    if (r.shape == 0) {
      irregular(irr, op, kNeverWritten);
      continue;
    }
    const Shape s(r.shape);
    if (s.args_len == 0 || s.args_len > 2 || (s.res_null && s.has_res) || s.launch >= (1u << kKeyClockEpochBits)) {
      irregular(irr, op, kMalformed);
      continue;
    }
    if (s.fn >= ft.count) {
      irregular(irr, op, kUnknownFn);
      continue;
    }
    if (op > 0 && records[op - 1].shape != 0 && (records[op - 1].shape >> 16) > s.launch) irregular(irr, op, kLaunchOrder);
    if (!fits(ft, s, r.ret != 0)) irregular(irr, op, kMisfit);
    if (r.ret == 0) {
      atomicAdd(pending, 1ull);
      continue;
    }
    // The first sighting of the op's multiprocessor at or past its ret.
    uint32_t lo = begin[s.sm], hi = end[s.sm];
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (value[mid] < r.ret) lo = mid + 1;
      else hi = mid;
    }
    if (lo == end[s.sm]) irregular(irr, op, kUnpublished);
    else if (g[lo] < r.inv) irregular(irr, op, kPublishedBeforeInv);
    else if (g[lo] == kPendingKey) irregular(irr, op, kGWrapped);
    else order_key[op] = g[lo];
  }
}

__global__ void iota(uint32_t* out, uint64_t n) {
  GPULIN_GRID_STRIDE(i, n) out[i] = static_cast<uint32_t>(i);
}

// 3. The key of each completed op in ret order.
__global__ void keys_in_ret_order(const uint32_t* op_by_rank, const uint32_t* keys, uint64_t n, uint32_t* key_by_rank) {
  GPULIN_GRID_STRIDE(r, n) key_by_rank[r] = keys[op_by_rank[r]];
}

// One model step on a key's state; false when a completed op's result is not the
// model's answer (keyed_check's step for map and set).
__device__ bool step(const FnTable& ft, const PublishedRecord& r, uint32_t value, bool& present, uint32_t& held) {
  const Shape s(r.shape);
  switch (ft.fn[s.fn]) {
    case kReplace: present = true, held = value; return true;
    case kInsert: present = true; return true;
    case kDelete: present = false; return true;
    case kSearch:
      if (s.res_null) return !present;
      return s.has_res && present && r.res == held;
    case kContains: return (r.res != 0) == present;
    default: return false;
  }
}

// 4. Each key's ops in ret order, replayed by the thread at the key's first
// position: its failure (the key and the ret-order rank of the failing op) and the
// count of keys.
__global__ void replay_keys(const uint32_t* key_sorted, const uint32_t* rank_sorted, const uint32_t* op_by_rank,
                            const PublishedRecord* records, const uint32_t* values, uint64_t n, FnTable ft,
                            unsigned long long* key_count, uint32_t* fail_keys, unsigned long long* fail_count,
                            unsigned long long* first_rank) {
  GPULIN_GRID_STRIDE(i, n) {
    const uint32_t key = key_sorted[i];
    const bool head = i == 0 || key_sorted[i - 1] != key;
    // One atomic a warp for the count of keys, by its first lane at a head.
    const unsigned heads = __ballot_sync(__activemask(), head);
    if (heads && (threadIdx.x & 31) == static_cast<unsigned>(__ffs(heads) - 1))
      atomicAdd(key_count, static_cast<unsigned long long>(__popc(heads)));
    if (!head) continue;
    bool present = false;
    uint32_t held = 0;
    for (uint64_t j = i; j < n && key_sorted[j] == key; ++j) {
      const uint32_t op = op_by_rank[rank_sorted[j]];
      if (!step(ft, records[op], values[op], present, held)) {
        fail_keys[atomicAdd(fail_count, 1ull)] = key;
        atomicMin(first_rank, static_cast<unsigned long long>(rank_sorted[j]));
        break;
      }
    }
  }
}

// 5. Which ops belong to a failing key (sorted, n_fail of them).
__global__ void flag_failing(const uint32_t* keys, uint64_t ops, const uint32_t* fail_sorted, uint32_t n_fail,
                             uint8_t* flag) {
  GPULIN_GRID_STRIDE(op, ops) {
    const uint32_t k = keys[op];
    uint32_t lo = 0, hi = n_fail;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (fail_sorted[mid] < k) lo = mid + 1;
      else hi = mid;
    }
    flag[op] = lo < n_fail && fail_sorted[lo] == k;
  }
}

__global__ void gather_failing(const uint32_t* ids, uint64_t n, const PublishedRecord* records, const uint32_t* keys,
                               const uint32_t* values, PublishedRecord* out_records, PublishedCall* out_calls) {
  GPULIN_GRID_STRIDE(i, n) {
    const uint32_t op = ids[i];
    out_records[i] = records[op];
    out_calls[i] = PublishedCall{keys[op], values[op]};
  }
}

template <class F>
void cub_call(CubTemp& temp, const char* what, F&& f) {
  size_t bytes = 0;
  check(f(nullptr, bytes), what);
  check(f(temp.get(bytes), bytes), what);
}

}  // namespace

PublishedCheckResult check_published_keyed_on_gpu(const PublishedCheckInput& in) {
  if (in.model != "map" && in.model != "set")
    throw std::invalid_argument("published check on the GPU: model map or set, not " + in.model);
  if (in.fn_names.size() > 16) throw std::invalid_argument("published check on the GPU: at most 16 operations");
  PublishedCheckResult r;
  auto refuse = [&](const std::string& why) {
    r.irregular = true;
    r.why = why;
    return r;
  };
  if (in.tick_overflow) return refuse("the ticker's log overflowed");
  if (in.ops >= (uint64_t{1} << 29)) return refuse("more than 2^29 records");
  if (in.ops == 0) return r;
  const Kind kind = in.model == "map" ? Kind::Map : Kind::Set;
  FnTable ft{};
  std::fill(std::begin(ft.fn), std::end(ft.fn), uint8_t{kUnknown});
  for (size_t i = 0; i < in.fn_names.size(); ++i) ft.fn[i] = fn_of(kind, in.fn_names[i]);
  ft.count = static_cast<uint32_t>(in.fn_names.size());

  PhaseTimer timer(r.phases);
  CubTemp temp;
  DeviceBuffer<unsigned long long> words(5);  // irregular, pending, key count, fail count, first failing rank
  const std::vector<unsigned long long> init{~0ull, 0, 0, 0, ~0ull};
  check(cudaMemcpy(words.get(), init.data(), sizeof(unsigned long long) * init.size(), cudaMemcpyHostToDevice),
        "published check: words");
  unsigned long long *irr = words.get(), *pending = irr + 1, *key_count = irr + 2, *fail_count = irr + 3,
                     *first_rank = irr + 4;

  // 1. Sightings by multiprocessor.
  const uint32_t nt = in.tick_count;
  DeviceBuffer<uint32_t> sm_in(nt), sm_sorted(nt), idx_in(nt), idx_sorted(nt), value(nt), g(nt);
  DeviceBuffer<uint32_t> begin(kPublishedMaxSms), end(kPublishedMaxSms);
  begin.fill_bytes(0);
  end.fill_bytes(0);
  if (nt) {
    const uint32_t* sm_field = reinterpret_cast<const uint32_t*>(in.ticks);  // PublishedTick::sm, every 4th word
    check(cudaMemcpy2D(sm_in.get(), sizeof(uint32_t), sm_field, sizeof(PublishedTick), sizeof(uint32_t), nt,
                       cudaMemcpyDeviceToDevice),
          "published check: sightings");
    iota<<<grid_for(nt), 256>>>(idx_in.get(), nt);
    cub_call(temp, "published check: sort sightings", [&](void* t, size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, sm_in.get(), sm_sorted.get(), idx_in.get(), idx_sorted.get(), nt);
    });
    index_sightings<<<grid_for(nt), 256>>>(in.ticks, idx_sorted.get(), sm_sorted.get(), nt, value.get(), g.get(),
                                           begin.get(), end.get(), irr);
    check(cudaGetLastError(), "published check: sightings");
  }
  timer.lap("sightings");

  // 2. Each op's ret published, and the record's checks.
  const uint64_t ops = in.ops;
  DeviceBuffer<uint32_t> order_key(ops), order_key_sorted(ops), op_by_rank(ops), counting(ops);
  iota<<<grid_for(ops), 256>>>(counting.get(), ops);
  publish_ops<<<grid_for(ops), 256>>>(in.records, ops, ft, value.get(), g.get(), begin.get(), end.get(),
                                      order_key.get(), pending, irr);
  check(cudaGetLastError(), "published check: publish");
  const unsigned long long first_irregular = read_at(irr);
  timer.lap("rets published");
  if (first_irregular != ~0ull)
    return refuse(std::string(irregular_text(static_cast<uint32_t>(first_irregular & 0xFF))) +
                  (first_irregular >> 8 ? " (op " + std::to_string(first_irregular >> 8) + ")" : ""));

  // 3. Ret order (G, then op id: the sort is stable), then by key (stable: ret
  // order within a key).
  cub_call(temp, "published check: ret order", [&](void* t, size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, order_key.get(), order_key_sorted.get(), counting.get(),
                                           op_by_rank.get(), ops);
  });
  r.completed = ops - read_at(pending);
  const uint64_t n = r.completed;
  DeviceBuffer<uint32_t> key_by_rank(n), key_sorted(n), rank_sorted(n);
  if (n) {
    keys_in_ret_order<<<grid_for(n), 256>>>(op_by_rank.get(), in.keys, n, key_by_rank.get());
    check(cudaGetLastError(), "published check: keys");
    cub_call(temp, "published check: by key", [&](void* t, size_t& b) {
      return cub::DeviceRadixSort::SortPairs(t, b, key_by_rank.get(), key_sorted.get(), counting.get(),
                                             rank_sorted.get(), n);
    });
  }
  timer.lap("ret order by key");

  // 4. Each key replayed.
  DeviceBuffer<uint32_t> fail_keys(n);
  if (n) {
    replay_keys<<<grid_for(n), 256>>>(key_sorted.get(), rank_sorted.get(), op_by_rank.get(), in.records, in.values, n,
                                      ft, key_count, fail_keys.get(), fail_count, first_rank);
    check(cudaGetLastError(), "published check: replay");
  }
  const std::vector<unsigned long long> after = download(words.get(), 5);
  r.keys = after[2];
  timer.lap("keys replayed");
  r.witness.ops_replayed = n;
  const uint64_t n_fail = after[3];
  if (n_fail == 0) return r;

  // 5. The failing keys: the witness's verdict, and their ops for the search.
  std::vector<uint32_t> failing = download(fail_keys.get(), n_fail);
  std::sort(failing.begin(), failing.end());
  r.failing_keys.assign(failing.begin(), failing.end());
  const uint64_t rank = after[4];
  const uint32_t op = read_at(op_by_rank.get() + rank);
  WitnessViolation v;
  v.op = op;
  v.message = "in ret order, key " + std::to_string(read_at(in.keys + op)) + "'s op " + std::to_string(op) +
              " returns what the model does not answer there";
  r.witness.verdict = Verdict::NotLinearizable;
  r.witness.ops_replayed = rank;
  r.witness.violation = v;

  const DeviceBuffer<uint32_t> d_failing(failing);
  DeviceBuffer<uint8_t> flag(ops);
  DeviceBuffer<uint32_t> ids(ops);
  DeviceBuffer<unsigned long long> n_ids(1);
  flag_failing<<<grid_for(ops), 256>>>(in.keys, ops, d_failing.get(), static_cast<uint32_t>(n_fail), flag.get());
  check(cudaGetLastError(), "published check: failing ops");
  cub_call(temp, "published check: failing ops", [&](void* t, size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, counting.get(), flag.get(), ids.get(), n_ids.get(), ops);
  });
  const uint64_t m = read_at(n_ids.get());
  DeviceBuffer<PublishedRecord> sub_records(m);
  DeviceBuffer<PublishedCall> sub_calls(m);
  gather_failing<<<grid_for(m), 256>>>(ids.get(), m, in.records, in.keys, in.values, sub_records.get(), sub_calls.get());
  check(cudaGetLastError(), "published check: gather");
  const std::vector<uint32_t> sub_ids = download(ids.get(), m);
  r.failing.ids.assign(sub_ids.begin(), sub_ids.end());
  r.failing.records = download(sub_records.get(), m);
  r.failing.calls = download(sub_calls.get(), m);
  r.failing.ticks = download(in.ticks, nt);
  timer.lap("failing keys' ops");
  return r;
}

}  // namespace gpulin
