// FLUSH (slab hash §IV-C4): one warp compacts one bucket's list, run as its own
// kernel so that no other operation touches the bucket meanwhile. The live
// entries (neither EMPTY nor DELETED) move, in list order, to the front of the
// list; the spots after them become EMPTY; slabs left with no entry are emptied
// and freed to SlabAlloc. In place: an entry is written at or before the spot it
// was read from, and a slab is in registers before anything is written over it.
#pragma once

#include <cstdint>

#include "structures/slab_hash/slab_list.h"

namespace gpulin::slab_hash {

template <exec::SharedWords X, class P>
  requires exec::WarpLanes<X>
GPULIN_HD void slab_flush(X& x, const SlabHashView<P>& h, uint32_t bucket) {
  static_assert(P::lanes == 32, "FLUSH runs on warps (a table's flush kernel, slab_hash_kernel.cuh)");
  using T = ModeTraits<P::mode>;
  constexpr uint32_t kStep = T::kPairs ? 2 : 1;
  constexpr uint32_t kDataLanes = 30;
  SlabRegs<X, P> r;
  uint32_t wnext = kBaseSlab, wlane = 0;  // where the next live entry goes
  for (uint32_t* slab = h.base_slab(bucket);;) {
    read_slab<P>(x, slab, r);
    const uint32_t live =
        x.ballot([&](uint32_t l) { return r.of(l)[0] != kEmptyKey && r.of(l)[0] != kDeletedKey; }) & T::kKeyLanes;
    for (uint32_t m = live; m != 0; m &= m - 1) {
      const uint32_t spot = lowest_lane(m);  // on a warp, a spot's key is on the lane of its word
      uint32_t* dst = h.slab(bucket, wnext) + wlane;
      x.store(dst, spot_key<P>(x, r, spot));
      if constexpr (T::kPairs) x.store(dst + 1, spot_value<P>(x, r, spot));
      wlane += kStep;
      if (wlane == kDataLanes) {  // the write slab is full: on to its successor
        wnext = x.load(h.slab(bucket, wnext) + kAddressLane);
        wlane = 0;
      }
    }
    const uint32_t ptr = next_address<P>(x, r);
    if (ptr == kEmptyPointer) break;
    slab = h.alloc.unit(ptr);
  }
  // The write slab's spots after the last entry become EMPTY, and it ends the list.
  if (wnext == kEmptyPointer) return;  // the last slab was filled exactly
  uint32_t* tail = h.slab(bucket, wnext);
  for (uint32_t l = wlane; l < kDataLanes; ++l) x.store(tail + l, kEmptyKey);
  uint32_t rest = x.load(tail + kAddressLane);
  x.store(tail + kAddressLane, kEmptyPointer);
  // Every slab after it held nothing that survived: empty it and free it.
  while (rest != kEmptyPointer) {
    uint32_t* s = h.alloc.unit(rest);
    const uint32_t after = x.load(s + kAddressLane);
    for (uint32_t l = 0; l < kSlabWords; ++l) x.store(s + l, kEmptyKey);
    deallocate(x, h.alloc, rest);
    rest = after;
  }
}

}  // namespace gpulin::slab_hash
