// Telling AddressSanitizer that execution moves to another stack (the simulator's
// fibers). ASan keeps the running thread's stack bounds; an exception thrown on a
// stack it does not know is left with its unwound frames' redzones still poisoned
// (and a warning), so every switch is announced: start before it, finish after it,
// on the new stack (compiler-rt's common_interface_defs.h). Boost.Context's default
// fcontext backend does no announcing of its own, and its ucontext backend, which
// does, goes through swapcontext: a signal-mask system call and a clear of the
// whole target stack's shadow at every switch.
// Without ASan both calls are nothing.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define GPULIN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPULIN_ASAN 1
#endif
#endif

#ifdef GPULIN_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace gpulin::sim {

// A stack's lowest address and size.
struct StackBounds {
  const void* bottom = nullptr;
  size_t size = 0;
};

// Before switching to `to`. `fake_stack` keeps the current context's fake stack
// (ASan's use-after-return frames) until it is switched back to; nullptr when the
// current context will never run again, which lets ASan free it.
inline void asan_start_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const StackBounds& to) {
#ifdef GPULIN_ASAN
  __sanitizer_start_switch_fiber(fake_stack, to.bottom, to.size);
#endif
}

// Right after arriving, on the new stack. `from`, when given, receives the bounds of
// the stack just left.
inline void asan_finish_switch([[maybe_unused]] void* fake_stack, [[maybe_unused]] StackBounds* from = nullptr) {
#ifdef GPULIN_ASAN
  __sanitizer_finish_switch_fiber(fake_stack, from ? &from->bottom : nullptr, from ? &from->size : nullptr);
#endif
}

}  // namespace gpulin::sim
