// Transparent huge pages for large buffers, asked for before they are first
// touched. On a virtual machine each 4 KiB page fault costs microseconds, and a
// large history touches hundreds of thousands of pages (input, parts, key pool,
// the checker's tuples): without this the faults, not the work, set the speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <sys/mman.h>

#include "histories/on_threads.h"

namespace gpulin {

// Only the whole pages inside the range are advised; buffers under 2 MiB (which
// cannot hold a whole huge page) are left alone.
inline void advise_huge(const void* p, size_t bytes) {
  constexpr uintptr_t kPage = 4096, kWorth = uintptr_t{2} << 20;
  if (bytes < kWorth) return;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kPage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

template <class T>
void reserve_huge(std::vector<T>& v, size_t n) {
  v.reserve(n);
  advise_huge(v.data(), v.capacity() * sizeof(T));
}
// v.assign(n, x) into a buffer of huge pages (v empty before: a fresh buffer).
template <class T>
void assign_huge(std::vector<T>& v, size_t n, const T& x) {
  reserve_huge(v, n);
  v.assign(n, x);
}
template <class T>
void resize_huge(std::vector<T>& v, size_t n) {
  reserve_huge(v, n);
  v.resize(n);
}

// Faults [p, p + bytes) in on `threads` threads at once (MADV_POPULATE_WRITE,
// Linux 5.14), before a large array is first written: on a VM, faulting in fresh
// memory costs more than writing it, and the first writer would do it alone.
// Contents are not changed. Where the kernel does not know the call, nothing
// happens (the writes fault as before).
inline void populate(const void* p, size_t bytes, unsigned threads) {
#ifdef MADV_POPULATE_WRITE
  constexpr uintptr_t kPage = 4096;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p) & ~(kPage - 1);
  const uintptr_t pages = ((reinterpret_cast<uintptr_t>(p) + bytes + kPage - 1) & ~(kPage - 1)) - begin;
  const uintptr_t n = pages / kPage;
  if (threads == 0 || n == 0) return;
  on_threads(threads, [&](unsigned t) {
    const uintptr_t a = begin + n * t / threads * kPage, b = begin + n * (t + 1) / threads * kPage;
    if (b > a) madvise(reinterpret_cast<void*>(a), b - a, MADV_POPULATE_WRITE);
  });
#else
  (void)p, (void)bytes, (void)threads;
#endif
}

}  // namespace gpulin
