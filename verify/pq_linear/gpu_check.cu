#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "histories/id_index.h"
#include "common/cuda_support.h"
#include "verify/pq_linear/gpu_check.h"
#include "verify/pq_linear/key_rules.h"

namespace gpulin {

namespace {

using namespace pq_linear;

constexpr uint64_t kNever = ~uint64_t{0};  // no such event (an acq never taken)

using namespace cuda_support;


// The first irregularity, by ticket: t << 8 | code.
enum Irregular : uint32_t {
  kTicket = 1, kOpRange, kSecondInv, kSecondRet, kNoInv, kOutside, kActor, kHold, kPendingOp, kActorOverlap,
  kNoPoint, kPointOutside, kNodeRange, kKeyRange, kAgainstRealTime
};
const char* irregular_text(uint32_t c) {
  switch (c) {
    case kTicket: return "tickets are not 1..E, each once";
    case kOpRange: return "an op id outside 0..ops-1";
    case kSecondInv: return "a second inv of one op";
    case kSecondRet: return "a second ret of one op";
    case kNoInv: return "an event of an op with no inv";
    case kOutside: return "an event outside its op's [inv, ret]";
    case kActor: return "an event whose actor is not its op's";
    case kHold: return "lock events that do not alternate acq/rel per node (or overlapping holds)";
    case kPendingOp: return "a pending op (no ret)";
    case kActorOverlap: return "two ops of one actor overlap";
    case kNoPoint: return "a completed op without a linearization point";
    case kPointOutside: return "a linearization point outside its op";
    case kNodeRange: return "a node id outside 0..2^32-1";
    case kKeyRange: return "a key above 2^63 - 1, which no history integer holds";
    case kAgainstRealTime:
      return "the root's holds order an operation before one that returned before it was invoked (hold versions: the "
             "rule's order is not a real-time order)";
  }
  return "?";
}
__device__ void irregular(unsigned long long* word, uint64_t t, uint32_t code) {
  atomicMin(word, static_cast<unsigned long long>(t << 8 | code));
}

struct OpTable {
  uint64_t *inv_t, *ret_t, *root_acq, *root_rel, *last_acq, *last_rel, *args_addr, *res_addr;
  uint32_t *inv_count, *ret_count, *actor, *fn, *args_len, *res_len;
  uint32_t *inv_pos, *ret_pos;  // hold versions: the inv's and ret's places in their actor's log
};

// Hold versions (histories/device_events.h): the ticketed events go to their
// ticket's slot, each with its place in its actor's log in `node` (an inv's or
// ret's node is unused); the holds (t = 0) to `holds`, in no order, their place
// in `key_off` (unused for a hold). max_t: the largest ticket, which must be the
// number of ticketed events.
// A hold recorded whole (kDeviceHold, implied acqs) goes aside as its acq and its
// rel, side by side at its place (the stable sorts by place keep the acq first).
// hold_slots: the log's places that hold no ticketed event.
template <class K>
__global__ void scatter_versioned(BasicDeviceRecorderRef<K> rec, uint32_t actor0, const uint32_t* counts, uint64_t E,
                                  DeviceEvent* out, uint32_t* seen, DeviceEvent* holds, unsigned long long* hold_count,
                                  unsigned long long* hold_slots, unsigned long long* max_t, unsigned long long* irr) {
  const uint32_t a = actor0 + blockIdx.y;
  const uint32_t n = min(counts[a], rec.event_cap);
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    DeviceEvent e = rec.events[uint64_t(a) * rec.event_cap + i];
    if (e.t == 0) {
      if (e.kind != kDeviceAcq && e.kind != kDeviceRel && e.kind != kDeviceHold) {
        irregular(irr, 0, kTicket);
        continue;
      }
      atomicAdd(hold_slots, 1ull);
      e.key_off = i;
      if (e.kind == kDeviceHold) {
        const unsigned long long j = atomicAdd(hold_count, 2ull);
        e.kind = kDeviceAcq;
        const uint32_t number = e.fn;
        e.fn = kHoldUnnumbered;
        holds[j] = e;
        e.kind = kDeviceRel;
        e.fn = number;
        holds[j + 1] = e;
        continue;
      }
      holds[atomicAdd(hold_count, 1ull)] = e;
      continue;
    }
    if (e.t > E || e.kind == kDeviceAcq || e.kind == kDeviceRel || e.kind == kDeviceHold || atomicExch(&seen[e.t - 1], 1u)) {
      irregular(irr, 0, kTicket);
      continue;
    }
    atomicMax(max_t, e.t);
    e.node = i;
    out[e.t - 1] = e;
  }
}

// Each hold inside its op (its actor's, between the op's inv and ret in the
// actor's log); the op's first root hold's number is its point's place.
__global__ void check_holds_versioned(const DeviceEvent* holds, uint64_t H, uint64_t N, OpTable t,
                                      unsigned long long* irr) {
  GPULIN_GRID_STRIDE(j, H) {
    const DeviceEvent e = holds[j];
    if (e.op < 0 || uint64_t(e.op) >= N) { irregular(irr, 0, kOpRange); continue; }
    const uint64_t o = e.op;
    if (t.inv_count[o] == 0) { irregular(irr, 0, kNoInv); continue; }
    if (e.actor != t.actor[o]) irregular(irr, t.inv_t[o], kActor);
    if (e.key_off <= t.inv_pos[o] || (t.ret_count[o] && e.key_off >= t.ret_pos[o])) irregular(irr, t.inv_t[o], kOutside);
    if (e.node < 0 || e.node > int64_t(UINT32_MAX)) { irregular(irr, t.inv_t[o], kNodeRange); continue; }
    if (e.kind == 3 && e.node == 1) atomicMin(reinterpret_cast<unsigned long long*>(&t.root_rel[o]), e.fn);
  }
}

struct HoldKey {
  const DeviceEvent* holds;
  int field;  // 0 place, 1 node, 2 op
  __device__ uint64_t operator()(uint32_t j) const {
    const DeviceEvent& e = holds[j];
    return field == 0 ? e.key_off : field == 1 ? uint64_t(e.node) : uint64_t(e.op);
  }
};

// Holds grouped by (op, node), each group in its actor's order: acq, rel, acq, rel,
// ... (a completed op released every node it took).
__global__ void pair_holds_versioned(const DeviceEvent* holds, const uint32_t* idx, uint64_t H, OpTable t,
                                     unsigned long long* irr) {
  GPULIN_GRID_STRIDE(j, H) {
    const DeviceEvent e = holds[idx[j]];
    const auto same = [&](uint64_t i) {
      const DeviceEvent& f = holds[idx[i]];
      return f.op == e.op && f.node == e.node;
    };
    const bool first = j == 0 || !same(j - 1), last = j + 1 == H || !same(j + 1);
    const uint64_t o = e.op;
    if (e.kind == 2) {
      if (!first && holds[idx[j - 1]].kind == 2) irregular(irr, t.inv_t[o], kHold);
      if (last && t.ret_count[o]) irregular(irr, t.inv_t[o], kHold);
    } else if (first || holds[idx[j - 1]].kind != 2) {
      irregular(irr, t.inv_t[o], kHold);
    }
  }
}

// Two root holds with one number: the numbers are the holds' order, each once.
__global__ void check_root_numbers(const uint64_t* sorted, uint64_t n, unsigned long long* irr) {
  GPULIN_GRID_STRIDE(j, n) {
    if (j && sorted[j] != kNever && sorted[j] == sorted[j - 1]) irregular(irr, 0, kHold);
  }
}

// The rule's order against real time: an op placed before one that returned
// before it was invoked. suffix_rev[i]: the least ret ticket at positions >= N - 1 - i
// (a min-scan of the reversed order), so positions > p are suffix_rev[N - 2 - p].
__global__ void check_real_time(const uint32_t* order, const uint64_t* suffix_rev, uint64_t N, OpTable t,
                                unsigned long long* irr) {
  GPULIN_GRID_STRIDE(p, N) {
    if (p + 1 < N && t.inv_t[order[p]] > suffix_rev[N - 2 - p]) irregular(irr, t.inv_t[order[p]], kAgainstRealTime);
  }
}

__global__ void iota_indices(uint32_t* idx, uint64_t n) { GPULIN_GRID_STRIDE(j, n) idx[j] = static_cast<uint32_t>(j); }
__global__ void gather_hold_keys(const DeviceEvent* holds, const uint32_t* idx, uint64_t n, int field, uint64_t* key) {
  GPULIN_GRID_STRIDE(j, n) key[j] = HoldKey{holds, field}(idx[j]);
}

struct RetOf {
  const uint32_t* order;
  const uint64_t* ret_t;
  uint64_t n;
  __device__ uint64_t operator()(uint64_t p) const { return ret_t[order[n - 1 - p]]; }  // reversed
};
struct MinOp {
  __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a < b ? a : b; }
};

// Events to ticket order: slot t - 1.
template <class K>
__global__ void scatter_events(BasicDeviceRecorderRef<K> rec, uint32_t actor0, const uint32_t* counts, uint64_t E,
                               DeviceEvent* out, uint32_t* seen, unsigned long long* irr) {
  const uint32_t a = actor0 + blockIdx.y;
  const uint32_t n = min(counts[a], rec.event_cap);
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const DeviceEvent e = rec.events[uint64_t(a) * rec.event_cap + i];
    if (e.t < 1 || e.t > E || atomicExch(&seen[e.t - 1], 1u)) {
      irregular(irr, 0, kTicket);
      continue;
    }
    out[e.t - 1] = e;
  }
}

template <class K>
__device__ uint64_t key_addr(const BasicDeviceRecorderRef<K>& rec, const DeviceEvent& e) {
  return uint64_t(e.actor) * rec.key_cap + e.key_off;
}

template <class K>
__global__ void collect_ops(const DeviceEvent* ev, uint64_t E, uint64_t N, BasicDeviceRecorderRef<K> rec, OpTable t,
                            unsigned long long* irr) {
  GPULIN_GRID_STRIDE(j, E) {
    const DeviceEvent e = ev[j];
    if (e.op < 0 || uint64_t(e.op) >= N) {
      irregular(irr, e.t, kOpRange);
      continue;
    }
    const uint64_t o = e.op;
    switch (e.kind) {
      case 0:
        if (atomicAdd(&t.inv_count[o], 1u)) irregular(irr, e.t, kSecondInv);
        t.inv_t[o] = e.t;
        if (t.inv_pos) t.inv_pos[o] = static_cast<uint32_t>(e.node);
        t.actor[o] = e.actor;
        t.fn[o] = e.fn;
        t.args_addr[o] = key_addr(rec, e);
        t.args_len[o] = e.key_len;
        break;
      case 1:
        if (atomicAdd(&t.ret_count[o], 1u)) irregular(irr, e.t, kSecondRet);
        t.ret_t[o] = e.t;
        if (t.ret_pos) t.ret_pos[o] = static_cast<uint32_t>(e.node);
        t.res_addr[o] = key_addr(rec, e);
        t.res_len[o] = e.is_null ? 0 : e.key_len;
        break;
      case 2:
        if (e.node == 1) atomicMin(reinterpret_cast<unsigned long long*>(&t.root_acq[o]), e.t);
        atomicMax(reinterpret_cast<unsigned long long*>(&t.last_acq[o]), e.t);
        break;
      default: break;
    }
  }
}

__global__ void check_events_inside(const DeviceEvent* ev, uint64_t E, uint64_t N, OpTable t, unsigned long long* irr) {
  GPULIN_GRID_STRIDE(j, E) {
    const DeviceEvent e = ev[j];
    if (e.op < 0 || uint64_t(e.op) >= N) continue;
    const uint64_t o = e.op;
    if (t.inv_count[o] == 0) { irregular(irr, e.t, kNoInv); continue; }
    if (e.t < t.inv_t[o] || e.t > t.ret_t[o] || (e.kind > 1 && (e.t == t.inv_t[o] || e.t == t.ret_t[o])))
      irregular(irr, e.t, kOutside);
    if (e.actor != t.actor[o]) irregular(irr, e.t, kActor);
    if ((e.kind == 2 || e.kind == 3) && (e.node < 0 || e.node > int64_t(UINT32_MAX))) irregular(irr, e.t, kNodeRange);
  }
}

struct IsLockEvent {
  const DeviceEvent* ev;
  __device__ bool operator()(uint32_t j) const { return ev[j].kind == 2 || ev[j].kind == 3; }
};

__global__ void gather_nodes(const DeviceEvent* ev, const uint32_t* idx, uint64_t L, uint32_t* node) {
  GPULIN_GRID_STRIDE(j, L) node[j] = static_cast<uint32_t>(ev[idx[j]].node);
}

// Holds per node in ticket order: acq, rel, acq, rel, ... by the same op each time.
__global__ void pair_holds(const DeviceEvent* ev, const uint32_t* idx, const uint32_t* node, uint64_t L, OpTable t,
                           unsigned long long* irr) {
  GPULIN_GRID_STRIDE(j, L) {
    const DeviceEvent e = ev[idx[j]];
    const bool first = j == 0 || node[j - 1] != node[j];
    const bool last = j + 1 == L || node[j + 1] != node[j];
    if (e.kind == 2) {
      if (!first && ev[idx[j - 1]].kind == 2) irregular(irr, e.t, kHold);
      if (last) irregular(irr, e.t, kHold);  // never released: the op is pending or broken
      continue;
    }
    if (first) { irregular(irr, e.t, kHold); continue; }
    const DeviceEvent a = ev[idx[j - 1]];
    if (a.kind != 2 || a.op != e.op) { irregular(irr, e.t, kHold); continue; }
    const uint64_t o = e.op;
    if (a.t == t.root_acq[o] && e.node == 1) t.root_rel[o] = e.t;
    if (a.t == t.last_acq[o]) t.last_rel[o] = e.t;
  }
}

// Points: (begin, end) of each op's hold under the rule; the sort key is the end.
__global__ void find_points(uint64_t N, OpTable t, uint32_t fn_ins, int rule, bool versions, uint64_t* end_key,
                            uint32_t* op_idx, uint64_t* actor_key, unsigned long long* irr) {
  GPULIN_GRID_STRIDE(o, N) {
    op_idx[o] = static_cast<uint32_t>(o);
    if (t.inv_count[o] != 1) { irregular(irr, 0, kNoInv); end_key[o] = kNever; actor_key[o] = kNever; continue; }
    if (t.ret_count[o] != 1) irregular(irr, t.inv_t[o], kPendingOp);
    actor_key[o] = uint64_t(t.actor[o]) << 40 | (t.inv_t[o] & ((uint64_t{1} << 40) - 1));
    if (versions) {  // the root hold's number; its place inside the op was checked in its actor's log
      end_key[o] = t.root_rel[o];
      if (end_key[o] == kNever) irregular(irr, t.ret_t[o], kNoPoint);
      continue;
    }
    const bool by_last = rule == int(LpRule::LastLock) && t.fn[o] == fn_ins;
    const uint64_t begin = by_last ? t.last_acq[o] : t.root_acq[o];
    const uint64_t end = by_last ? t.last_rel[o] : t.root_rel[o];
    if (begin == kNever || begin == 0 || end == kNever) {
      irregular(irr, t.ret_t[o], kNoPoint);
      end_key[o] = kNever;
      continue;
    }
    if (begin <= t.inv_t[o] || end >= t.ret_t[o]) irregular(irr, begin, kPointOutside);
    end_key[o] = end;
  }
}

__global__ void check_actor_order(const uint64_t* actor_key, const uint32_t* op, uint64_t N, OpTable t,
                                  unsigned long long* irr) {
  GPULIN_GRID_STRIDE(j, N) {
    if (j == 0 || (actor_key[j] >> 40) != (actor_key[j - 1] >> 40)) continue;
    const uint32_t a = op[j - 1], b = op[j];
    if (t.ret_t[a] > t.inv_t[b]) irregular(irr, t.inv_t[b], kActorOverlap);
  }
}

// Per position (a block each): sorted result, largest key, size change, tuples.
// 64-bit keys must be history integers (key_rules.h works on int64_t): a larger
// one is irregular, and the host names it.
template <class K>
__global__ void per_position(const uint32_t* order, uint64_t m, OpTable t, const K* keys, uint32_t fn_del,
                             uint8_t* is_del, int64_t* max_res, int64_t* delta, uint64_t* tuple_count,
                             unsigned long long* fail, unsigned long long* irr) {
  for (uint64_t p = blockIdx.x; p < m; p += gridDim.x) {
    const uint32_t o = order[p];
    const bool del = t.fn[o] == fn_del;
    const uint64_t addr = del ? t.res_addr[o] : t.args_addr[o];
    const uint32_t len = del ? t.res_len[o] : t.args_len[o];
    K local_max = 0;
    bool sorted = true;
    for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) {
      const K v = keys[addr + i];
      local_max = max(local_max, v);
      if (i && keys[addr + i - 1] > v) sorted = false;
      if constexpr (sizeof(K) == 8)
        if (v > K(INT64_MAX)) irregular(irr, del ? t.ret_t[o] : t.inv_t[o], kKeyRange);
    }
    using Reduce = cub::BlockReduce<K, 256>;
    __shared__ typename Reduce::TempStorage tmp;
    const K mx = Reduce(tmp).Reduce(local_max, [](K a, K b) { return a > b ? a : b; });
    const int unsorted = __syncthreads_or(!sorted);
    if (threadIdx.x == 0) {
      is_del[p] = del;
      max_res[p] = del && len ? int64_t(mx) : kNoMax;
      delta[p] = del ? -int64_t(len) : int64_t(len);
      tuple_count[p] = len;
      if (del && unsorted) atomicMin(fail, static_cast<unsigned long long>(fail_word(p, kUnsorted)));
    }
    __syncthreads();
  }
}

__global__ void check_sizes(const uint8_t* is_del, const int64_t* delta, const int64_t* present, uint64_t m,
                            uint64_t k, unsigned long long* fail) {
  GPULIN_GRID_STRIDE(p, m) {
    if (is_del[p] && !size_ok(uint64_t(-delta[p]), uint64_t(present[p]), k))
      atomicMin(fail, static_cast<unsigned long long>(fail_word(p, kSize)));
  }
}

// The tuples (key_rules.h), written in position order. 32-bit keys: one word each,
// key << pos_bits | position, sorted as a whole. 64-bit keys: the key word, and
// the position beside it in `tuple_pos`; a stable sort by the key alone keeps each
// key's positions in the order written.
template <class K>
__global__ void write_tuples(const uint32_t* order, uint64_t m, OpTable t, const K* keys, const uint8_t* is_del,
                             const uint64_t* offset, uint32_t pos_bits, uint64_t* tuples, uint32_t* tuple_pos) {
  for (uint64_t p = blockIdx.x; p < m; p += gridDim.x) {
    const uint32_t o = order[p];
    const uint64_t addr = is_del[p] ? t.res_addr[o] : t.args_addr[o];
    const uint32_t len = is_del[p] ? t.res_len[o] : t.args_len[o];
    for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) {
      if constexpr (sizeof(K) == 4) {
        tuples[offset[p] + i] = uint64_t(keys[addr + i]) << pos_bits | p;
      } else {
        tuples[offset[p] + i] = keys[addr + i];
        tuple_pos[offset[p] + i] = static_cast<uint32_t>(p);
      }
    }
  }
}

// A tuple word's key (the scan's segments).
template <class K>
struct TupleKey {
  uint32_t pos_bits;
  __host__ __device__ K operator()(uint64_t w) const {
    if constexpr (sizeof(K) == 4) return static_cast<K>(w >> pos_bits);
    return static_cast<K>(w);
  }
};
struct TupleStep {
  uint64_t mask;
  const uint8_t* is_del;
  __device__ int32_t operator()(uint64_t w) const { return is_del[w & mask] ? -1 : 1; }
};
struct PosStep {  // 64-bit keys: the step from the position beside the key
  const uint8_t* is_del;
  __device__ int32_t operator()(uint32_t p) const { return is_del[p] ? -1 : 1; }
};

__global__ void sparse_level(const int64_t* below, int64_t* cur, uint64_t half, uint64_t m) {
  GPULIN_GRID_STRIDE(i, m) cur[i] = sparse_entry(below, i, half, m);
}

template <class K>
struct TupleView {
  const uint64_t* w;
  const uint32_t* p;  // 64-bit keys: the positions (32-bit keys pack them into w)
  const int32_t* c;
  const uint8_t* is_del;
  uint64_t n, m, mask;
  uint32_t pos_bits;
  __device__ int64_t key(uint64_t j) const { return int64_t(TupleKey<K>{pos_bits}(w[j])); }
  __device__ uint64_t pos(uint64_t j) const {
    if constexpr (sizeof(K) == 4) return w[j] & mask;
    return p[j];
  }
  __device__ uint64_t next_pos(uint64_t j) const { return j + 1 < n && key(j + 1) == key(j) ? pos(j + 1) : m; }
};

template <class K>
__global__ void check_all_tuples(TupleView<K> v, SparseMaxView table, unsigned long long* fail) {
  GPULIN_GRID_STRIDE(j, v.n) {
    const uint64_t p = v.pos(j);
    const uint64_t f = check_tuple(v.key(j), p, v.is_del[p], v.c[j], v.next_pos(j), table);
    if (f != kNoFailWord) atomicMin(fail, static_cast<unsigned long long>(f));
  }
}

// Second look, only after a failure: the key behind it, the smallest present keys
// before it (flags), and who last inserted and removed that key.
template <class K>
__global__ void explain_tuples(TupleView<K> v, SparseMaxView table, uint64_t word, bool keyed,
                               unsigned long long* fail_key, uint8_t* present_flag) {
  const uint64_t f = fail_pos(word);
  GPULIN_GRID_STRIDE(j, v.n) {
    const uint64_t p = v.pos(j);
    if (keyed && check_tuple(v.key(j), p, v.is_del[p], v.c[j], v.next_pos(j), table) == word)
      atomicMin(fail_key, static_cast<unsigned long long>(v.key(j)));
    present_flag[j] = p < f && v.next_pos(j) >= f && v.c[j] > 0;
  }
}

template <class K>
__global__ void who_touched(TupleView<K> v, int64_t key, uint64_t f, unsigned long long* last_ins,
                            unsigned long long* last_del) {
  GPULIN_GRID_STRIDE(j, v.n) {
    const uint64_t p = v.pos(j);
    if (v.key(j) == key && p < f) atomicMax(v.is_del[p] ? last_del : last_ins, static_cast<unsigned long long>(p + 1));
  }
}

template <class K>
GpuCheckResult check_on_gpu(const BasicGpuCheckInput<K>& in) {
  GpuCheckResult r;
  PhaseTimer timer(r.phases);
  CubTemp temp;
  const BasicDeviceRecorderRef<K> rec = in.rec;
  const std::vector<uint32_t> counts = download(rec.event_count, in.actors);
  std::vector<uint32_t> key_counts = download(rec.key_count, in.actors);
  uint64_t E = 0;
  for (uint32_t a = 0; a < in.actors; ++a) {
    if (counts[a] > rec.event_cap || key_counts[a] > rec.key_cap)
      throw std::runtime_error("device recorder overflow: actor " + std::to_string(a) + " recorded " +
                               std::to_string(counts[a]) + " events (capacity " + std::to_string(rec.event_cap) +
                               ") and " + std::to_string(key_counts[a]) + " keys (capacity " +
                               std::to_string(rec.key_cap) + "); nothing was dropped silently: rerun with more room");
    E += counts[a];
  }
  r.events = E;
  const uint64_t N = in.ops;
  DeviceBuffer<unsigned long long> irr(1), fail(1);
  irr.fill_bytes(0xff);
  fail.fill_bytes(0xff);
  auto irregular_now = [&](GpuCheckResult& res) {
    const unsigned long long w = irr.at(0);
    if (w == ~0ull) return false;
    res.irregular = true;
    res.why = std::string(irregular_text(static_cast<uint32_t>(w & 0xff))) +
              ((w >> 8) ? " (first at ticket " + std::to_string(w >> 8) + ")" : "");
    return true;
  };

  // Events in ticket order. With hold versions the holds (t = 0) go aside, and the
  // ticketed events fill the first slots, one a ticket.
  const bool versions = rec.hold_versions != nullptr;
  if (versions && in.rule != LpRule::RootRelease)
    throw std::runtime_error("gpu check: hold versions serve the root-release rule only (its holds are one node's)");
  DeviceBuffer<DeviceEvent> ev(E), holds(versions ? 2 * E : 0);  // a whole hold is two
  uint64_t ticketed = E, H = 0;
  {
    DeviceBuffer<uint32_t> seen(E);
    seen.fill_bytes(0);
    DeviceBuffer<uint32_t> d_counts(in.actors);
    DeviceBuffer<unsigned long long> hold_count(1), hold_slots(1), max_t(1);
    hold_count.fill_bytes(0);
    hold_slots.fill_bytes(0);
    max_t.fill_bytes(0);
    check(cudaMemcpy(d_counts.get(), counts.data(), 4 * in.actors, cudaMemcpyHostToDevice), "counts");
    for (uint32_t a0 = 0; a0 < in.actors; a0 += 65535) {
      const dim3 grid(64, std::min<uint32_t>(65535, in.actors - a0));
      if (versions)
        scatter_versioned<<<grid, 256>>>(rec, a0, d_counts.get(), E, ev.get(), seen.get(), holds.get(),
                                         hold_count.get(), hold_slots.get(), max_t.get(), irr.get());
      else
        scatter_events<<<grid, 256>>>(rec, a0, d_counts.get(), E, ev.get(), seen.get(), irr.get());
    }
    check(cudaGetLastError(), "scatter");
    if (versions) {
      H = hold_count.at(0);
      ticketed = E - hold_slots.at(0);
      r.events = ticketed + H;  // a whole hold is two events of the history
      if (max_t.at(0) != ticketed) {  // tickets 1..ticketed, each once (the seen words refused repeats)
        r.irregular = true;
        r.why = irregular_text(kTicket);
        return r;
      }
    }
  }
  // Per op: its inv, ret and holds.
  DeviceBuffer<uint64_t> inv_t(N), ret_t(N), root_acq(N), root_rel(N), last_acq(N), last_rel(N), args_addr(N), res_addr(N);
  DeviceBuffer<uint32_t> inv_count(N), ret_count(N), actor(N), fn(N), args_len(N), res_len(N);
  DeviceBuffer<uint32_t> inv_pos(versions ? N : 0), ret_pos(versions ? N : 0);
  for (auto* b : {&ret_t, &root_acq, &root_rel, &last_rel}) b->fill_bytes(0xff);
  for (auto* b : {&inv_t, &last_acq}) b->fill_bytes(0);
  for (auto* b : {&inv_count, &ret_count, &res_len, &args_len}) b->fill_bytes(0);
  const OpTable t{inv_t.get(),    ret_t.get(),    root_acq.get(), root_rel.get(), last_acq.get(),  last_rel.get(),
                  args_addr.get(), res_addr.get(), inv_count.get(), ret_count.get(), actor.get(),     fn.get(),
                  args_len.get(),  res_len.get(),   versions ? inv_pos.get() : nullptr,
                  versions ? ret_pos.get() : nullptr};
  collect_ops<<<grid_for(ticketed), 256>>>(ev.get(), ticketed, N, rec, t, irr.get());
  check_events_inside<<<grid_for(ticketed), 256>>>(ev.get(), ticketed, N, t, irr.get());
  check(cudaGetLastError(), "ops");
  timer.lap("events to ticket order, ops");

  if (versions && H) {
    // Holds inside their ops; grouped by (op, node) in their actor's order (three
    // stable sorts: place, node, op), then paired.
    check_holds_versioned<<<grid_for(H), 256>>>(holds.get(), H, N, t, irr.get());
    DeviceBuffer<uint32_t> idx_a(H), idx_b(H);
    DeviceBuffer<uint64_t> key(H), key_out(H);
    uint32_t *idx = idx_a.get(), *idx_out = idx_b.get();
    iota_indices<<<grid_for(H), 256>>>(idx, H);
    for (int field = 0; field < 3; ++field) {
      gather_hold_keys<<<grid_for(H), 256>>>(holds.get(), idx, H, field, key.get());
      size_t bytes = 0;
      cub::DeviceRadixSort::SortPairs(nullptr, bytes, key.get(), key_out.get(), idx, idx_out, H);
      cub::DeviceRadixSort::SortPairs(temp.get(bytes), bytes, key.get(), key_out.get(), idx, idx_out, H);
      std::swap(idx, idx_out);
    }
    pair_holds_versioned<<<grid_for(H), 256>>>(holds.get(), idx, H, t, irr.get());
    check(cudaGetLastError(), "holds");
  }
  // Holds: lock events grouped by node (stable, so in ticket order), then paired.
  if (!versions) {
    DeviceBuffer<uint32_t> idx(E), n_sel(1);
    size_t bytes = 0;
    thrust::counting_iterator<uint32_t> all(0);
    cub::DeviceSelect::If(nullptr, bytes, all, idx.get(), n_sel.get(), E, IsLockEvent{ev.get()});
    cub::DeviceSelect::If(temp.get(bytes), bytes, all, idx.get(), n_sel.get(), E, IsLockEvent{ev.get()});
    const uint64_t L = n_sel.at(0);
    DeviceBuffer<uint32_t> node(L), node_out(L), idx_out(L);
    gather_nodes<<<grid_for(L), 256>>>(ev.get(), idx.get(), L, node.get());
    bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, node.get(), node_out.get(), idx.get(), idx_out.get(), L);
    cub::DeviceRadixSort::SortPairs(temp.get(bytes), bytes, node.get(), node_out.get(), idx.get(), idx_out.get(), L);
    pair_holds<<<grid_for(L), 256>>>(ev.get(), idx_out.get(), node_out.get(), L, t, irr.get());
    check(cudaGetLastError(), "holds");
  }
  timer.lap("holds paired");

  // Points and the rule's order; ops of one actor in sequence.
  DeviceBuffer<uint64_t> end_key(N), end_sorted(N), actor_key(N), actor_sorted(N);
  DeviceBuffer<uint32_t> op_idx(N), order(N), actor_ops(N);
  find_points<<<grid_for(N), 256>>>(N, t, in.fn_ins, int(in.rule), versions, end_key.get(), op_idx.get(),
                                    actor_key.get(), irr.get());
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, actor_key.get(), actor_sorted.get(), op_idx.get(), actor_ops.get(), N);
  cub::DeviceRadixSort::SortPairs(temp.get(bytes), bytes, actor_key.get(), actor_sorted.get(), op_idx.get(),
                                  actor_ops.get(), N);
  check_actor_order<<<grid_for(N), 256>>>(actor_sorted.get(), actor_ops.get(), N, t, irr.get());
  bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, end_key.get(), end_sorted.get(), op_idx.get(), order.get(), N);
  cub::DeviceRadixSort::SortPairs(temp.get(bytes), bytes, end_key.get(), end_sorted.get(), op_idx.get(), order.get(), N);
  if (versions && N) {
    // The root's hold numbers each once; the order they give against real time.
    check_root_numbers<<<grid_for(N), 256>>>(end_sorted.get(), N, irr.get());
    DeviceBuffer<uint64_t> suffix_rev(N);
    auto rets = thrust::make_transform_iterator(thrust::counting_iterator<uint64_t>(0), RetOf{order.get(), ret_t.get(), N});
    bytes = 0;
    cub::DeviceScan::InclusiveScan(nullptr, bytes, rets, suffix_rev.get(), MinOp{}, static_cast<int64_t>(N));
    cub::DeviceScan::InclusiveScan(temp.get(bytes), bytes, rets, suffix_rev.get(), MinOp{}, static_cast<int64_t>(N));
    check_real_time<<<grid_for(N), 256>>>(order.get(), suffix_rev.get(), N, t, irr.get());
  }
  check(cudaGetLastError(), "points");
  timer.lap("points and the rule's order");
  if (irregular_now(r)) return r;

  // Positions: kinds, largest returned keys, sizes, tuple counts.
  const uint64_t m = N;
  DeviceBuffer<uint8_t> is_del(m);
  DeviceBuffer<int64_t> max_res(m), delta(m), present(m);
  DeviceBuffer<uint64_t> tuple_count(m), tuple_off(m + 1);
  per_position<<<static_cast<unsigned>(std::clamp<uint64_t>(m, 1, 1 << 16)), 256>>>(
      order.get(), m, t, rec.keys, in.fn_del, is_del.get(), max_res.get(), delta.get(), tuple_count.get(), fail.get(),
      irr.get());
  bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, delta.get(), present.get(), m);
  cub::DeviceScan::ExclusiveSum(temp.get(bytes), bytes, delta.get(), present.get(), m);
  check_sizes<<<grid_for(m), 256>>>(is_del.get(), delta.get(), present.get(), m, in.k, fail.get());
  bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, bytes, tuple_count.get(), tuple_off.get() + 1, m);
  cub::DeviceScan::InclusiveSum(temp.get(bytes), bytes, tuple_count.get(), tuple_off.get() + 1, m);
  check(cudaMemset(tuple_off.get(), 0, 8), "offsets");
  const uint64_t T = tuple_off.at(m);
  r.tuples = T;
  r.linear.tuples = T;
  check(cudaGetLastError(), "positions");
  timer.lap("positions");
  if constexpr (sizeof(K) == 8)
    if (irregular_now(r)) return r;  // a key the history cannot hold

  // Tuples sorted by (key, position); each key's running count.
  const uint32_t pos_bits = SparseMaxView::floor_log2(m + 1) + 1;
  if (pos_bits > 32) throw std::runtime_error("gpu check: more than 2^31 operations");
  const uint64_t mask = (uint64_t{1} << pos_bits) - 1;
  constexpr bool wide = sizeof(K) == 8;
  DeviceBuffer<uint64_t> tup(T), tup_alt(T);
  DeviceBuffer<uint32_t> tpos(wide ? T : 0), tpos_alt(wide ? T : 0);
  write_tuples<<<static_cast<unsigned>(std::clamp<uint64_t>(m, 1, 1 << 16)), 256>>>(order.get(), m, t, rec.keys,
                                                                             is_del.get(), tuple_off.get(), pos_bits,
                                                                             tup.get(), tpos.get());
  cub::DoubleBuffer<uint64_t> db(tup.get(), tup_alt.get());
  cub::DoubleBuffer<uint32_t> dpos(tpos.get(), tpos_alt.get());
  bytes = 0;
  if constexpr (wide) {  // keys below 2^63 (checked above): 63 bits to sort
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, db, dpos, T, 0, 63);
    cub::DeviceRadixSort::SortPairs(temp.get(bytes), bytes, db, dpos, T, 0, 63);
  } else {
    cub::DeviceRadixSort::SortKeys(nullptr, bytes, db, T, 0, 32 + pos_bits);
    cub::DeviceRadixSort::SortKeys(temp.get(bytes), bytes, db, T, 0, 32 + pos_bits);
  }
  const uint64_t* w = db.Current();
  const uint32_t* wpos = wide ? dpos.Current() : nullptr;
  check(cudaGetLastError(), "tuples sorted");
  timer.lap("tuples sorted");
  DeviceBuffer<int32_t> c(T);
  {
    auto keys_it = thrust::make_transform_iterator(w, TupleKey<K>{pos_bits});
    auto scan = [&](auto steps) {
      bytes = 0;
      cub::DeviceScan::InclusiveSumByKey(nullptr, bytes, keys_it, steps, c.get(), static_cast<int64_t>(T));
      cub::DeviceScan::InclusiveSumByKey(temp.get(bytes), bytes, keys_it, steps, c.get(), static_cast<int64_t>(T));
    };
    if constexpr (wide)
      scan(thrust::make_transform_iterator(wpos, PosStep{is_del.get()}));
    else
      scan(thrust::make_transform_iterator(w, TupleStep{mask, is_del.get()}));
  }
  // The sparse table over the positions' largest keys.
  const uint32_t levels = sparse_levels(m);
  DeviceBuffer<int64_t> table_data(uint64_t(levels) * m);
  check(cudaMemcpy(table_data.get(), max_res.get(), 8 * m, cudaMemcpyDeviceToDevice), "table");
  for (uint32_t l = 1; l < levels; ++l)
    sparse_level<<<grid_for(m), 256>>>(table_data.get() + uint64_t(l - 1) * m, table_data.get() + uint64_t(l) * m,
                                       uint64_t{1} << (l - 1), m);
  const SparseMaxView table{table_data.get(), m, levels};
  const TupleView<K> view{w, wpos, c.get(), is_del.get(), T, m, mask, pos_bits};
  check_all_tuples<<<grid_for(T), 256>>>(view, table, fail.get());
  check(cudaGetLastError(), "rules");
  const uint64_t word = fail.at(0);
  timer.lap("per-key rules");
  if (word == kNoFailWord) {
    r.linear.witness.ops_replayed = m;
    return r;
  }

  // The explanation, from the same tuples.
  LinearFailure x;
  x.kind = fail_kind(word);
  x.position = fail_pos(word);
  const bool keyed = x.kind == kMissing || x.kind == kBypassed;
  DeviceBuffer<unsigned long long> fail_key(1), last_ins(1), last_del(1);
  fail_key.fill_bytes(0xff);
  last_ins.fill_bytes(0);
  last_del.fill_bytes(0);
  DeviceBuffer<uint8_t> flag(T);
  explain_tuples<<<grid_for(T), 256>>>(view, table, word, keyed, fail_key.get(), flag.get());
  if (keyed) x.key = static_cast<int64_t>(fail_key.at(0));
  const uint32_t fop = order.at(x.position);
  x.op = fop;
  x.point_t = end_key.at(fop);
  x.point_is_hold_number = versions;
  x.present = static_cast<uint64_t>(present.at(x.position));
  x.recorded.clear();
  for (K v : download(rec.keys + res_addr.at(fop), res_len.at(fop))) x.recorded.push_back(static_cast<int64_t>(v));
  {
    DeviceBuffer<uint32_t> sel(T), n_sel(1);
    thrust::counting_iterator<uint32_t> all(0);
    bytes = 0;
    cub::DeviceSelect::Flagged(nullptr, bytes, all, flag.get(), sel.get(), n_sel.get(), T);
    cub::DeviceSelect::Flagged(temp.get(bytes), bytes, all, flag.get(), sel.get(), n_sel.get(), T);
    const uint64_t found = std::min<uint64_t>(n_sel.at(0), in.k);
    for (uint32_t j : download(sel.get(), found)) {
      const int64_t key = static_cast<int64_t>(TupleKey<K>{pos_bits}(read_at(w + j)));
      const int32_t copies = c.at(j);
      for (int32_t i = 0; i < copies && x.expected.size() < in.k; ++i) x.expected.push_back(key);
    }
  }
  if (keyed) {
    who_touched<<<grid_for(T), 256>>>(view, x.key, x.position, last_ins.get(), last_del.get());
    const uint64_t pi = last_ins.at(0), pd = last_del.at(0);
    if (pi) x.inserted_by = order.at(pi - 1);
    if (pd) x.removed_by = order.at(pd - 1);
  }
  x.message = describe_linear_failure(x, in.k);
  timer.lap("explanation");
  WitnessViolation v;
  v.kind = WitnessViolation::Kind::WrongResult;
  v.op = x.op;
  v.node = 1;
  v.t = x.point_t;
  v.message = x.message;
  v.expected = keys_text(x.expected);
  v.recorded = keys_text(x.recorded);
  r.linear.witness.verdict = Verdict::NotLinearizable;
  r.linear.witness.ops_replayed = x.position;
  r.linear.witness.violation = v;
  r.linear.failure = std::move(x);
  return r;
}

}  // namespace

GpuCheckResult check_pq_batch_on_gpu(const BasicGpuCheckInput<uint32_t>& in) { return check_on_gpu(in); }
GpuCheckResult check_pq_batch_on_gpu(const BasicGpuCheckInput<uint64_t>& in) { return check_on_gpu(in); }

template <class KeyWord>
BasicUploadedHistory<KeyWord>::BasicUploadedHistory(const KeyHistory& h) {
  std::vector<DeviceEvent> events;
  std::vector<KeyWord> keys;
  auto put_keys = [&](const KeySpan& s) {
    const uint32_t off = static_cast<uint32_t>(keys.size());
    for (uint32_t i = 0; i < s.len; ++i) {
      const int64_t v = h.keys[s.off + i];
      if (v < 0 || uint64_t(v) > std::numeric_limits<KeyWord>::max())
        throw std::invalid_argument("UploadedHistory: key " + std::to_string(v) + " is not a " +
                                    std::to_string(8 * sizeof(KeyWord)) + "-bit recorder word");
      keys.push_back(static_cast<KeyWord>(v));
    }
    return off;
  };
  const IdIndex index = index_ids(h.ops, [](const KeyOp& o) { return o.id; });
  for (const Event& e : h.events) {
    DeviceEvent d{e.t, e.op, e.node, uint32_t(e.kind), 0, 0, 0, 0, static_cast<uint32_t>(e.actor)};
    if (e.kind == EventKind::Inv || e.kind == EventKind::Ret) {
      const KeyOp& o = h.ops[index.find(e.op)];
      if (e.kind == EventKind::Inv) {
        d.fn = h.fn_name(o) == "ins" ? 0 : 1;
        d.key_off = put_keys(o.args());
        d.key_len = o.args_len;
      } else {
        d.is_null = o.res_kind != KeyOp::kKeysResult;
        d.key_off = put_keys(o.res());
        d.key_len = o.res_len;
      }
    }
    events.push_back(d);
  }
  in_.actors = 1;
  in_.ops = h.ops.size();
  in_.k = h.header.model == "pq" ? 1 : static_cast<uint64_t>(h.header.param_int("k", 1));
  in_.rule = lp_rule_of(h.header, h.source);
  BasicDeviceRecorderRef<KeyWord>& r = in_.rec;
  r.event_cap = static_cast<uint32_t>(std::max<size_t>(events.size(), 1));
  r.key_cap = 0;  // keys addressed absolutely: actor * 0 + key_off
  check(cudaMalloc(&r.events, sizeof(DeviceEvent) * r.event_cap), "upload");
  check(cudaMalloc(&r.keys, sizeof(KeyWord) * std::max<size_t>(keys.size(), 1)), "upload");
  check(cudaMalloc(&r.event_count, 4), "upload");
  check(cudaMalloc(&r.key_count, 4), "upload");
  check(cudaMemcpy(r.events, events.data(), sizeof(DeviceEvent) * events.size(), cudaMemcpyHostToDevice), "upload");
  check(cudaMemcpy(r.keys, keys.data(), sizeof(KeyWord) * keys.size(), cudaMemcpyHostToDevice), "upload");
  const uint32_t n_events = static_cast<uint32_t>(events.size()), n_keys = 0;
  check(cudaMemcpy(r.event_count, &n_events, 4, cudaMemcpyHostToDevice), "upload");
  check(cudaMemcpy(r.key_count, &n_keys, 4, cudaMemcpyHostToDevice), "upload");
}

template <class KeyWord>
BasicUploadedHistory<KeyWord>::~BasicUploadedHistory() {
  cudaFree(in_.rec.events);
  cudaFree(in_.rec.keys);
  cudaFree(in_.rec.event_count);
  cudaFree(in_.rec.key_count);
}

template class BasicUploadedHistory<uint32_t>;
template class BasicUploadedHistory<uint64_t>;

}  // namespace gpulin
