#include "sim/memory/direct_access_guard.h"

#if defined(GPULIN_GUARDS_DIRECT_ACCESS)
#include <sanitizer/asan_interface.h>

#include <cstdio>
#include <cstring>
#endif

namespace gpulin::sim::memory {

#if defined(GPULIN_GUARDS_DIRECT_ACCESS)
namespace {
// After ASan's report of a guarded word, what it means here.
void explain(const char* report) {
  if (std::strstr(report, "use-after-poison"))
    std::fputs(
        "gpulin: if the address is a structure's shared word, the structure touched it around its execution "
        "context (the simulator's ptx model guards every word it holds during a run: "
        "sim/memory/direct_access_guard.h); read and write it through the context\n",
        stderr);
}
const bool kExplains = [] {
  __asan_set_error_report_callback(explain);
  return true;
}();
}  // namespace

void DirectAccessGuard::guard(const void* p) {
  if (__asan_address_is_poisoned(p)) return;  // guarded already
  // The granule's plain bytes: a prefix (ASan's shadow is "the first n bytes"), all
  // 8 inside an allocation, fewer at the end of one; release gives back as many.
  auto* g = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t{7});
  uint8_t plain = 0;
  while (plain < 8 && !__asan_address_is_poisoned(g + plain)) ++plain;
  __asan_poison_memory_region(g, 8);
  granules_.push_back(Granule{g, plain});
}

void DirectAccessGuard::guard_range(const GuardedRange& r) {
  if (r.bytes == 0) return;
  __asan_poison_memory_region(r.at, r.bytes);
  ranges_.push_back(r);
}

void DirectAccessGuard::lift() {
  for (const GuardedRange& r : ranges_) __asan_unpoison_memory_region(r.at, r.bytes);
  for (const Granule& g : granules_) __asan_unpoison_memory_region(g.at, g.plain);
}

void DirectAccessGuard::restore() {
  for (const GuardedRange& r : ranges_) __asan_poison_memory_region(r.at, r.bytes);
  for (const Granule& g : granules_) __asan_poison_memory_region(g.at, 8);
}

void DirectAccessGuard::release() {
  lift();
  granules_.clear();
  ranges_.clear();
}
#else
void DirectAccessGuard::guard_range(const GuardedRange&) {}
void DirectAccessGuard::guard(const void*) {}
void DirectAccessGuard::lift() {}
void DirectAccessGuard::restore() {}
void DirectAccessGuard::release() {}
#endif

}  // namespace gpulin::sim::memory
