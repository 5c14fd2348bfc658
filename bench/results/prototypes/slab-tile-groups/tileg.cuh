// A measurement prototype, not part of any build (bench/results/slab-tile-groups-h200.txt):
// tile16.cuh's kernel for a tile of G lanes an operation (G = 16: one 64-bit pair a lane;
// G = 8: two pairs a lane, one 128-bit load whose two 64-bit halves are each
// single-copy atomic).
#pragma once
#include <cuda/atomic>

#ifndef PROTO_G
#define PROTO_G 8
#endif

namespace gpulin::slab_hash {

namespace proto {
constexpr uint32_t G = PROTO_G;
constexpr uint32_t kPer = 16 / G;  // pairs a lane
constexpr uint32_t kGroupMask = G == 16 ? 0xFFFFu : 0xFFu;

struct Pairs {
  uint64_t p[kPer];
};

__device__ __forceinline__ Pairs ld_pairs(const uint32_t* slab, uint32_t t) {
  Pairs r;
  if constexpr (kPer == 1) {
    r.p[0] = cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(
                 *const_cast<uint64_t*>(reinterpret_cast<const uint64_t*>(slab + 2 * t)))
                 .load(cuda::memory_order_relaxed);
  } else {
    const uint64_t* a = reinterpret_cast<const uint64_t*>(slab + 4 * t);
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(r.p[0]), "=l"(r.p[1]) : "l"(a) : "memory");
  }
  return r;
}
__device__ __forceinline__ uint64_t cas64(uint32_t* p, uint64_t e, uint64_t d) {
  cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*reinterpret_cast<uint64_t*>(p))
      .compare_exchange_strong(e, d, cuda::memory_order_relaxed);
  return e;
}
__device__ __forceinline__ uint32_t cas32(uint32_t* p, uint32_t e, uint32_t d) {
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(*p).compare_exchange_strong(e, d, cuda::memory_order_relaxed);
  return e;
}
__device__ __forceinline__ void st32(uint32_t* p, uint32_t v) {
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_relaxed);
}
__device__ __forceinline__ uint32_t ld32(uint32_t* p) {
  return cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}

// The calling thread's tile, from its lane (nothing held in registers).
struct Tile {
  __device__ __forceinline__ static uint32_t lane() {
    uint32_t l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
  }
  __device__ __forceinline__ uint32_t tl() const { return lane() & (G - 1); }
  __device__ __forceinline__ uint32_t shift() const { return lane() & ~(G - 1); }
  __device__ __forceinline__ uint32_t mask() const { return kGroupMask << shift(); }
  __device__ __forceinline__ uint32_t ballot(bool p) const { return (__ballot_sync(mask(), p) >> shift()) & kGroupMask; }
  template <class T>
  __device__ __forceinline__ T shfl(T v, uint32_t src) const {
    return __shfl_sync(mask(), v, src, G);
  }
};

// Slot s (0..14) of the slab is pair s; lane s / kPer holds it as its (s % kPer)-th.
// The first slot, in list order, whose pair satisfies pred; 15 when none.
template <class Pred>
__device__ __forceinline__ uint32_t first_slot(const Tile& g, const Pairs& r, Pred pred) {
  if constexpr (kPer == 1) {
    const uint32_t m = g.ballot(g.tl() < 15 && pred(r.p[0]));
    return m ? __ffs(m) - 1 : 15u;
  } else {
    const uint32_t m0 = g.ballot(pred(r.p[0]));
    const uint32_t m1 = g.ballot(g.tl() < 7 && pred(r.p[1]));
    const uint32_t s0 = m0 ? 2 * (__ffs(m0) - 1) : 99u, s1 = m1 ? 2 * (__ffs(m1) - 1) + 1 : 99u;
    const uint32_t s = s0 < s1 ? s0 : s1;
    return s == 99u ? 15u : s;
  }
}
__device__ __forceinline__ uint64_t pair_at(const Tile& g, const Pairs& r, uint32_t slot) {
  if constexpr (kPer == 1) return g.shfl(r.p[0], slot);
  else return g.shfl((slot & 1) ? r.p[1] : r.p[0], slot >> 1);
}
__device__ __forceinline__ uint32_t next_ptr(const Tile& g, const Pairs& r) {
  return g.shfl(static_cast<uint32_t>(r.p[kPer - 1] >> 32), G - 1);
}

__device__ __forceinline__ uint32_t tile_id() { return (blockIdx.x * blockDim.x + threadIdx.x) / G; }

// A free unit's address, or kNoUnit; each call reads the tile's share (G words) of its
// resident block's bitmap afresh.
template <bool Light>
__device__ __forceinline__ uint32_t tile_allocate(const SlabAllocView<Light>& a, const Tile& g) {
  constexpr uint32_t kShares = 32 / G;
  const uint32_t tile = tile_id();
  const uint32_t words = G * (tile % kShares);
  uint32_t changes = 0;
  uint32_t resident = resident_block(tile / kShares, changes, a.memory_blocks());
  uint32_t bitmap = ld32(a.bitmaps + resident * 32 + words + g.tl());
  for (;;) {
    const uint32_t free = g.ballot(bitmap != ~0u);
    if (free == 0) {
      if (changes >= a.max_resident_changes) {
        if (g.tl() == 0) atomicAdd(a.failures, 1u);
        return kNoUnit;
      }
      ++changes;
      resident = resident_block(tile / kShares, changes, a.memory_blocks());
      bitmap = ld32(a.bitmaps + resident * 32 + words + g.tl());
      continue;
    }
    const uint32_t start = (tile / kShares) & (G - 1);
    const uint32_t rot = ((free >> start) | (free << (G - start))) & kGroupMask;
    const uint32_t lane = ((__ffs(rot) - 1) + start) & (G - 1);
    const uint32_t word = g.shfl(bitmap, lane);
    const uint32_t bit = __ffs(~word) - 1;
    uint32_t old = 0;
    if (g.tl() == lane) old = cas32(a.bitmaps + resident * 32 + words + lane, word, word | (1u << bit));
    old = g.shfl(old, lane);
    if (old == word) return a.address_of(resident, (words + lane) * 32 + bit);
    if (g.tl() == lane) bitmap = old;
  }
}

template <class P>
__device__ __forceinline__ uint32_t walk_search(const SlabHashView<P>& h, const Tile& g, Pairs r, uint32_t sk) {
  for (;;) {
    const uint32_t s = first_slot(g, r, [&](uint64_t p) { return static_cast<uint32_t>(p) == sk; });
    if (s != 15) return static_cast<uint32_t>(pair_at(g, r, s) >> 32);
    const uint32_t ptr = next_ptr(g, r);
    if (ptr == kEmptyPointer) return kEmptyKey;
    r = ld_pairs(h.alloc.unit(ptr), g.tl());
  }
}
}  // namespace proto

// fn: 0 insert (map: REPLACE; multimap: INSERT at the first EMPTY), 1 delete, 2 search.
template <class P>
__global__ void __launch_bounds__(1024, 2)
    proto_tile16_kernel(SlabHashView<P> h, SlabOpBatch ops, DeviceRecorderRef, KeyClockRecorderRef, int64_t) {
  static_assert(P::mode != Mode::Set && !P::versioned, "prototype: pairs, paper variant");
  constexpr bool kMulti = P::mode == Mode::Multimap;
  using namespace proto;
  const Tile g;
  const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i - g.tl() >= ops.count) return;  // the whole tile idle
  uint32_t fn = 3, key = 0, value = 0, bucket = 0;
  if (i < ops.count) {
    fn = ops.fn ? ops.fn[i] : ops.uniform_fn;
    key = ops.key[i];
    value = ops.value ? ops.value[i] : 0u;
    bucket = h.hash(key);
    asm volatile("prefetch.global.L2 [%0];" ::"l"(h.base_slab(bucket)));
  }
  uint32_t answer = kEmptyKey;
  // Inserts.
  {
    bool queued = fn == kFnInsert;
    uint32_t last = 0, next = kBaseSlab, q;
    while ((q = g.ballot(queued)) != 0) {
      if (q != last) next = kBaseSlab;
      last = q;
      const uint32_t src = __ffs(q) - 1;
      const uint32_t sb = g.shfl(bucket, src), sk = g.shfl(key, src);
      uint32_t* slab = h.slab(sb, next);
      const Pairs r = ld_pairs(slab, g.tl());
      const uint32_t s = first_slot(g, r, [&](uint64_t p) {
        const uint32_t k = static_cast<uint32_t>(p);
        return k == kEmptyKey || (!kMulti && k == sk);
      });
      if (s != 15) {
        const uint64_t seen = pair_at(g, r, s);
        if (g.tl() == src && cas64(slab + 2 * s, seen, pack_pair(key, value)) == seen) queued = false;
        continue;
      }
      const uint32_t ptr = next_ptr(g, r);
      if (ptr != kEmptyPointer) {
        next = ptr;
        continue;
      }
      const uint32_t fresh = tile_allocate(h.alloc, g);
      if (fresh == kNoUnit) {
        if (g.tl() == src) queued = false;
        continue;
      }
      if (g.tl() == 0 && cas32(slab + kAddressLane, kEmptyPointer, fresh) != kEmptyPointer)
        atomicAnd(h.alloc.bitmap_word(fresh), ~(1u << (fresh & 31u)));
      __syncwarp(g.mask());
    }
  }
  // Deletes.
  {
    bool queued = fn == kFnDelete;
    uint32_t last = 0, next = kBaseSlab, q;
    while ((q = g.ballot(queued)) != 0) {
      if (q != last) next = kBaseSlab;
      last = q;
      const uint32_t src = __ffs(q) - 1;
      const uint32_t sb = g.shfl(bucket, src), sk = g.shfl(key, src);
      uint32_t* slab = h.slab(sb, next);
      const Pairs r = ld_pairs(slab, g.tl());
      const uint32_t s = first_slot(g, r, [&](uint64_t p) { return static_cast<uint32_t>(p) == sk; });
      if (s != 15) {
        if constexpr (kMulti) {
          const uint64_t seen = pair_at(g, r, s);
          if (g.tl() == src && cas64(slab + 2 * s, seen, kEmptyPair) == seen) queued = false;
        } else if (g.tl() == src) {
          st32(slab + 2 * s, kDeletedKey);
          queued = false;
        }
        continue;
      }
      const uint32_t ptr = next_ptr(g, r);
      if (ptr == kEmptyPointer) {
        if (g.tl() == src) queued = false;
      } else {
        next = ptr;
      }
    }
  }
  // Searches, two at a time a tile.
  {
    uint32_t q = g.ballot(fn == kFnSearch);
    while (q != 0) {
      const uint32_t a = __ffs(q) - 1;
      q &= q - 1;
      const uint32_t b = q ? __ffs(q) - 1 : G;
      q &= q - 1;
      const uint32_t ka = g.shfl(key, a), ba = g.shfl(bucket, a);
      const uint32_t kb = g.shfl(key, b & (G - 1)), bb = g.shfl(bucket, b & (G - 1));
      const Pairs pa = ld_pairs(h.base_slab(ba), g.tl());
      Pairs pb{};
      if (b < G) pb = ld_pairs(h.base_slab(bb), g.tl());
      const uint32_t va = walk_search(h, g, pa, ka);
      if (g.tl() == a) answer = va;
      if (b < G) {
        const uint32_t vb = walk_search(h, g, pb, kb);
        if (g.tl() == b) answer = vb;
      }
    }
  }
  if (ops.out && fn == kFnSearch) ops.out[uint64_t{blockIdx.x} * blockDim.x + threadIdx.x] = answer;
}

}  // namespace gpulin::slab_hash
