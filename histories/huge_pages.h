// Transparent huge pages for large buffers, asked for before they are first
// touched. On a virtual machine each 4 KiB page fault costs microseconds, and a
// large history touches hundreds of thousands of pages (input, parts, key pool,
// the checker's tuples): without this the faults, not the work, set the speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <sys/mman.h>

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

}  // namespace gpulin
