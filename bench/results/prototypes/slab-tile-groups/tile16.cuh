// A measurement prototype, not part of any build (bench/results/slab-tile-groups-h200.txt):
// the map's and the paper multimap's unrecorded batches with a tile of 16 lanes an
// operation, each lane reading one 64-bit pair of the slab, written straight in CUDA
// (not over the execution context), so that the simulator cannot run it. patch.py puts
// it in a copy of the tree in place of the mixed kernel and the bulk build.
#pragma once
#include <cuda/atomic>

namespace gpulin::slab_hash {

namespace proto {
__device__ __forceinline__ uint64_t ld_pair(const uint32_t* p) {
  return cuda::atomic_ref<uint64_t, cuda::thread_scope_device>(*const_cast<uint64_t*>(reinterpret_cast<const uint64_t*>(p)))
      .load(cuda::memory_order_relaxed);
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

__device__ __forceinline__ uint32_t tile_id() { return (blockIdx.x * blockDim.x + threadIdx.x) / 16; }

// A free unit's address, or kNoUnit. No state is kept between calls (registers
// on the hot path are what the kernel is short of): each call reads the tile's
// half of its resident block's bitmap afresh.
template <bool Light>
__device__ __forceinline__ uint32_t tile_allocate(const SlabAllocView<Light>& a, uint32_t t, uint32_t mask, uint32_t shift) {
  const uint32_t tile = tile_id();
  const uint32_t half_words = 16 * (tile & 1);
  uint32_t changes = 0;
  uint32_t resident = resident_block(tile >> 1, changes, a.memory_blocks());
  uint32_t bitmap = ld32(a.bitmaps + resident * 32 + half_words + t);
  for (;;) {
    const uint32_t free = (__ballot_sync(mask, bitmap != ~0u) >> shift) & 0xFFFFu;
    if (free == 0) {
      if (changes >= a.max_resident_changes) {
        if (t == 0) atomicAdd(a.failures, 1u);
        return kNoUnit;
      }
      ++changes;
      resident = resident_block(tile >> 1, changes, a.memory_blocks());
      bitmap = ld32(a.bitmaps + resident * 32 + half_words + t);
      continue;
    }
    const uint32_t start = (tile >> 1) & 15;
    const uint32_t rot = (free >> start) | (free << (16 - start));
    const uint32_t lane = ((__ffs(rot & 0xFFFFu) - 1) + start) & 15;
    const uint32_t word = __shfl_sync(mask, bitmap, lane, 16);
    const uint32_t bit = __ffs(~word) - 1;
    uint32_t old = 0;
    if (t == lane) old = cas32(a.bitmaps + resident * 32 + half_words + lane, word, word | (1u << bit));
    old = __shfl_sync(mask, old, lane, 16);
    if (old == word) return a.address_of(resident, (half_words + lane) * 32 + bit);
    if (t == lane) bitmap = old;
  }
}
}  // namespace proto

namespace proto {
// One search walked to its end from a pair already read (tile-uniform).
template <class P>
__device__ __forceinline__ uint32_t walk_search(const SlabHashView<P>& h, uint64_t pr, uint32_t sk, uint32_t t, uint32_t mask,
                                                uint32_t shift) {
  for (;;) {
    const uint32_t k = static_cast<uint32_t>(pr);
    const uint32_t hit = (__ballot_sync(mask, t < 15 && k == sk) >> shift) & 0xFFFFu;
    if (hit != 0) return __shfl_sync(mask, static_cast<uint32_t>(pr >> 32), __ffs(hit) - 1, 16);
    const uint32_t ptr = __shfl_sync(mask, static_cast<uint32_t>(pr >> 32), 15, 16);
    if (ptr == kEmptyPointer) return kEmptyKey;
    pr = ld_pair(h.alloc.unit(ptr) + 2 * t);
  }
}
}  // namespace proto

// fn: 0 insert (map: REPLACE; multimap: INSERT at the first EMPTY), 1 delete, 2 search.
template <class P>
__global__ void __launch_bounds__(1024, 2)
    proto_tile16_kernel(SlabHashView<P> h, SlabOpBatch ops, DeviceRecorderRef, KeyClockRecorderRef, int64_t) {
  static_assert(P::mode != Mode::Set && !P::versioned, "prototype: pairs, paper variant");
  constexpr bool kMulti = P::mode == Mode::Multimap;
  const uint32_t lane = threadIdx.x & 31, t = lane & 15, shift = lane & 16;
  const uint32_t mask = 0xFFFFu << shift;
  // One operation a thread, an exact grid.
  {
    const uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (uint64_t{blockIdx.x} * blockDim.x + (threadIdx.x & ~15u) >= ops.count) return;  // the whole tile idle
    const bool active = i < ops.count;
    uint32_t fn = 3, key = 0, value = 0, bucket = 0;
    if (active) {
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
      uint32_t last = 0, next = kBaseSlab;
      uint32_t q;
      while ((q = (__ballot_sync(mask, queued) >> shift) & 0xFFFFu) != 0) {
        if (q != last) next = kBaseSlab;
        last = q;
        const uint32_t src = __ffs(q) - 1;
        const uint32_t sb = __shfl_sync(mask, bucket, src, 16), sk = __shfl_sync(mask, key, src, 16);
        uint32_t* slab = h.slab(sb, next);
        const uint64_t pr = proto::ld_pair(slab + 2 * t);
        const uint32_t k = static_cast<uint32_t>(pr);
        const uint32_t spots = (__ballot_sync(mask, t < 15 && (k == kEmptyKey || (!kMulti && k == sk))) >> shift) & 0xFFFFu;
        if (spots != 0) {
          const uint32_t dest = __ffs(spots) - 1;
          const uint64_t seen = __shfl_sync(mask, pr, dest, 16);
          if (t == src) {
            if (proto::cas64(slab + 2 * dest, seen, pack_pair(key, value)) == seen) queued = false;
          }
          continue;
        }
        const uint32_t ptr = __shfl_sync(mask, static_cast<uint32_t>(pr >> 32), 15, 16);
        if (ptr != kEmptyPointer) {
          next = ptr;
          continue;
        }
        const uint32_t fresh = proto::tile_allocate(h.alloc, t, mask, shift);
        if (fresh == kNoUnit) {
          if (t == src) queued = false;
          continue;
        }
        if (t == 0) {
          if (proto::cas32(slab + kAddressLane, kEmptyPointer, fresh) != kEmptyPointer)
            atomicAnd(h.alloc.bitmap_word(fresh), ~(1u << (fresh & 31u)));
        }
        __syncwarp(mask);
      }
    }
    // Deletes.
    {
      bool queued = fn == kFnDelete;
      uint32_t last = 0, next = kBaseSlab;
      uint32_t q;
      while ((q = (__ballot_sync(mask, queued) >> shift) & 0xFFFFu) != 0) {
        if (q != last) next = kBaseSlab;
        last = q;
        const uint32_t src = __ffs(q) - 1;
        const uint32_t sb = __shfl_sync(mask, bucket, src, 16), sk = __shfl_sync(mask, key, src, 16);
        uint32_t* slab = h.slab(sb, next);
        const uint64_t pr = proto::ld_pair(slab + 2 * t);
        const uint32_t k = static_cast<uint32_t>(pr);
        const uint32_t hit = (__ballot_sync(mask, t < 15 && k == sk) >> shift) & 0xFFFFu;
        if (hit != 0) {
          if constexpr (kMulti) {
            const uint64_t seen = __shfl_sync(mask, pr, __ffs(hit) - 1, 16);
            if (t == src && proto::cas64(slab + 2 * (__ffs(hit) - 1), seen, kEmptyPair) == seen) queued = false;
          } else if (t == src) {
            proto::st32(slab + 2 * (__ffs(hit) - 1), kDeletedKey);
            queued = false;
          }
          continue;
        }
        const uint32_t ptr = __shfl_sync(mask, static_cast<uint32_t>(pr >> 32), 15, 16);
        if (ptr == kEmptyPointer) {
          if (t == src) queued = false;
        } else {
          next = ptr;
        }
      }
    }
    // Searches, two at a time a tile.
    {
      uint32_t q = (__ballot_sync(mask, fn == kFnSearch) >> shift) & 0xFFFFu;
      while (q != 0) {
        const uint32_t a = __ffs(q) - 1;
        q &= q - 1;
        const uint32_t b = q ? __ffs(q) - 1 : 16u;
        q &= q - 1;
        const uint32_t ka = __shfl_sync(mask, key, a, 16), ba = __shfl_sync(mask, bucket, a, 16);
        const uint32_t kb = __shfl_sync(mask, key, b & 15, 16), bb = __shfl_sync(mask, bucket, b & 15, 16);
        const uint64_t pa = proto::ld_pair(h.base_slab(ba) + 2 * t);
        uint64_t pb = 0;
        if (b < 16) pb = proto::ld_pair(h.base_slab(bb) + 2 * t);
        const uint32_t va = proto::walk_search(h, pa, ka, t, mask, shift);
        if (t == a) answer = va;
        if (b < 16) {
          const uint32_t vb = proto::walk_search(h, pb, kb, t, mask, shift);
          if (t == b) answer = vb;
        }
      }
    }
    if (ops.out && fn == kFnSearch) ops.out[uint64_t{blockIdx.x} * blockDim.x + threadIdx.x] = answer;
  }
}

}  // namespace gpulin::slab_hash
