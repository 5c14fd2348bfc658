// Pointers to an actor's private memory (a block's shared memory on the GPU: a
// heap operation's scratch), as the algorithms hold them: the execution context's
// `Private<T>` (structures/exec/context.h, ActorLoops). On the GPU it is T*; in
// the simulator a pointer whose every element access is checked against the
// block's barrier phases (sim/private_memory/private_ptr.h), so the races between
// a block's threads that the simulator's one fiber per block cannot interleave are
// still found. Code over private memory is written over the pointer type (a
// template parameter), indexing it as an array.
#pragma once

#include <type_traits>

#include "common/host_device.h"

namespace gpulin::exec {

// The element type a private-memory pointer points at (T for T* and const T*).
template <class Ptr>
struct private_element {
  using type = typename Ptr::element_type;
};
template <class T>
struct private_element<T*> {
  using type = std::remove_const_t<T>;
};
template <class Ptr>
using private_element_t = typename private_element<Ptr>::type;

// The same private memory as elements of another type (a scratch of 64-bit elements
// used as words). The simulator's pointers have their own (found by argument-
// dependent lookup: call it unqualified, after `using exec::private_cast`).
template <class U, class T>
GPULIN_HD U* private_cast(T* p) {
  return reinterpret_cast<U*>(p);
}

}  // namespace gpulin::exec
