// The priority queue's operations (§1.2, §2.1), on level 0 between RESOLVE(0)s
// (S_0 empty, B_0 holding the smallest priorities): EXTRACTMIN takes the least
// priority of B_0; BULKUPDATE puts its sorted updates into S_0; DELETE puts a DELETE
// element there. Each records its operation of the bucket-pq model (UPDATE is a
// BULKUPDATE of one), its linearization point the access that decides it.
#pragma once

#include <cstdint>

#include "structures/bucket_heap/resolve.h"

namespace gpulin::bucket_heap {

enum Fn : uint32_t { kFnUpdate = 0, kFnExtractMin = 1, kFnDelete = 2, kFnCount = 3 };

// EXTRACTMIN: true with (value, priority) of least priority, or false when the heap
// is empty. `fixed` sends a DELETE of the value after it (config.h).
template <exec::SharedWords X, class P>
  requires exec::BulkData<X> && exec::BlockCollectives<X> && exec::Recording<X>
GPULIN_HD bool extract_min(X& x, const View& h, uint32_t* value, uint32_t* prio) {
  const auto b = x.private_view(h.scratch_of(0), scratch_for_level(h.d, 0));
  x.record_inv(kFnExtractMin, static_cast<const uint32_t*>(nullptr), 0u);
  const uint32_t n = load_array(x, b, h.bucket(0), h.bucket_n + 0, bucket_room(h.d, 0));
  if (n == 0) {
    x.record_lp();
    x.record_ret(static_cast<const uint32_t*>(nullptr), 0u, true);
    return false;
  }
  // The least rank key (B_0 holds one copy per value, no DELETE), then its place.
  const uint64_t least = x.min_of(n, [&](uint32_t i) { return rank_key(b[i]); });
  const auto at = static_cast<uint32_t>(x.min_of(n, [&](uint32_t i) { return rank_key(b[i]) == least ? i : n; }));
  *value = static_cast<uint32_t>(least);
  *prio = static_cast<uint32_t>(least >> 32);
  // B_0 without it: the copies after it move up one, from the scratch copy, which
  // stays as it was - every thread of the actor scans it above, and on the GPU a
  // thread may still be scanning when another writes (an in-place shift once made
  // threads of one block disagree on the minimum and diverge at a barrier).
  if constexpr (P::mutant == Mutant::ShiftInPlace) {
    x.parallel_for(n - 1 - at, [&](uint32_t i) { b[at + i] = b[at + i + 1]; });
    x.store_block(h.bucket(0) + at, b + at, n - 1 - at);
  } else {
    x.store_block(h.bucket(0) + at, b + at + 1, n - 1 - at);
  }
  x.store(h.bucket_n + 0, n - 1, exec::relaxed);  // a count: resolve.h says why relaxed
  x.record_lp();
  if constexpr (P::variant == Variant::Fixed) {
    const Element del[1] = {make_element(*value, kDel)};
    store_array(x, h.signal(0), h.signal_n + 0, del, 1, signal_cap(h.d, 0), "bucket heap: S_0 overflows");
  }
  const uint32_t res[2] = {*value, *prio};
  x.record_ret(res, 2u, false);
  return true;
}

// BULKUPDATE(U): `updates` sorted by value, one per value, at most d of them
// (recorded as [v0, p0, v1, p1, ...], built in level 0's scratch: RESOLVE(0) runs
// after the operation, on the same actor).
template <exec::SharedWords X, class P>
  requires exec::BulkData<X> && exec::Recording<X>
GPULIN_HD void bulk_update(X& x, const View& h, const Element* updates, uint32_t n) {
  using exec::private_cast;
  const auto flat = private_cast<uint32_t>(x.private_view(h.scratch_of(0), scratch_for_level(h.d, 0)));
  x.parallel_for(n, [&](uint32_t i) {
    flat[2 * i] = value_of(updates[i]);
    flat[2 * i + 1] = prio_of(updates[i]);
  });
  x.record_inv(kFnUpdate, flat, 2 * n);
  store_array(x, h.signal(0), h.signal_n + 0, updates, n, signal_cap(h.d, 0), "bucket heap: more than d updates");
  x.record_lp();
  x.record_ret(static_cast<const uint32_t*>(nullptr), 0u, true);
}

template <exec::SharedWords X, class P>
  requires exec::BulkData<X> && exec::Recording<X>
GPULIN_HD void delete_value(X& x, const View& h, uint32_t value) {
  x.record_inv(kFnDelete, &value, 1u);
  const Element del[1] = {make_element(value, kDel)};
  store_array(x, h.signal(0), h.signal_n + 0, del, 1, signal_cap(h.d, 0), "bucket heap: S_0 overflows");
  x.record_lp();
  x.record_ret(static_cast<const uint32_t*>(nullptr), 0u, true);
}

}  // namespace gpulin::bucket_heap
