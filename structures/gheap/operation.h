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

enum class Flavor : uint32_t { TopDown = 0, BottomUp = 1 };

// fn kFnIns: inserts keys[0, n); fn kFnDel: deletes (keys unused). Returns the
// number of keys a delete returned (in s.items).
template <class X, class Key>
GPULIN_HD uint32_t run_operation(X& x, Flavor flavor, const HeapView<Key>& h, const Scratch<Key>& s,
                                 uint32_t fn, const Key* keys, uint32_t n) {
  if (fn == kFnIns) {
    block_copy(x, s.items, keys, n);
    x.record_inv(kFnIns, s.items, n);
    if (flavor == Flavor::TopDown)
      td_insert(x, h, s, n);
    else
      bu_insert(x, h, s, n);
    x.record_ret(s.items, 0, true);
    return 0;
  }
  x.record_inv(kFnDel, s.items, 0);
  const uint32_t m = flavor == Flavor::TopDown ? td_delete(x, h, s) : bu_delete(x, h, s);
  x.record_ret(s.items, m, false);
  return m;
}

}  // namespace gpulin::gheap
