// One heap operation as an actor runs it: invocation and response recorded around
// the algorithm (`inv` before its first shared access, `ret` after its last), so
// the simulator and the GPU kernels drive the heap identically.
#pragma once

#include <cstdint>

#include "structures/gheap/bu_delete.h"
#include "structures/gheap/bu_insert.h"
#include "structures/gheap/td_delete.h"
#include "structures/gheap/td_insert.h"

namespace gpulin::gheap {

// fn kFnIns: inserts keys[0, n); fn kFnDel: deletes (keys unused). Returns the
// number of keys a delete returned (in s.items).
template <exec::CountedWords X, class Key, class P, class Ptr>
  requires exec::PairedWords<X> && exec::BulkData<X> && exec::Recording<X>
GPULIN_HD uint32_t run_operation(X& x, const HeapView<Key, P>& h, const Scratch<Key, Ptr>& s,
                                 uint32_t fn, const Key* keys, uint32_t n) {
  if (fn == kFnIns) {
    block_copy(x, s.items, keys, n);
    x.record_inv(kFnIns, s.items, n);
    if constexpr (P::flavor == Flavor::TopDown)
      td_insert(x, h, s, n);
    else
      bu_insert(x, h, s, n);
    x.record_ret(s.items, 0, true);
    return 0;
  }
  x.record_inv(kFnDel, s.items, 0);
  uint32_t m;
  if constexpr (P::flavor == Flavor::TopDown)
    m = td_delete(x, h, s);
  else
    m = bu_delete(x, h, s);
  x.record_ret(s.items, m, false);
  return m;
}

}  // namespace gpulin::gheap
