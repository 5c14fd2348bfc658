// The check that a structure touches the memory the model holds only through its
// execution context (issue 38, item 2). In a build with AddressSanitizer (the test
// build, scripts/test.sh) every word the `ptx` model makes a location of, and all
// the memory the runner declared shared (Simulator::set_shared_regions), is
// poisoned while the run goes on, so a structure reading or writing it around its
// context is an ASan report that names the line; the model and the context reach
// the words through the accessors below, which ASan does not check. The words are
// made plain memory again when the run ends, for the checks at rest. Without ASan
// the guard does nothing (writes around the model are still counted:
// ModelMemory::outside_writes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPULIN_GUARDS_DIRECT_ACCESS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GPULIN_GUARDS_DIRECT_ACCESS 1
#endif

#if defined(GPULIN_GUARDS_DIRECT_ACCESS)
#define GPULIN_UNGUARDED __attribute__((no_sanitize("address")))
// A copy loop the optimizer must not turn into a call of memcpy, which ASan checks.
#if defined(__clang__)
#define GPULIN_UNGUARDED_LOOP GPULIN_UNGUARDED __attribute__((no_builtin("memcpy")))
#else
#define GPULIN_UNGUARDED_LOOP GPULIN_UNGUARDED __attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
#else
#define GPULIN_UNGUARDED
#define GPULIN_UNGUARDED_LOOP
#endif

namespace gpulin::sim::memory {

#if defined(GPULIN_GUARDS_DIRECT_ACCESS)
inline constexpr bool kGuardsDirectAccess = true;
#else
inline constexpr bool kGuardsDirectAccess = false;
#endif

// The model's and the context's own accesses to a guarded word. (ASan does not
// inline an unchecked function into a checked one, so these stay unchecked.)
template <class W>
GPULIN_UNGUARDED inline W unguarded_load(const W* p) {
  return *p;
}
template <class W>
GPULIN_UNGUARDED inline void unguarded_store(W* p, W v) {
  *p = v;
}
GPULIN_UNGUARDED_LOOP inline void unguarded_copy(void* dst, const void* src, size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (size_t i = 0; i < n; ++i) d[i] = s[i];
}

// Bytes [at, at + bytes) of memory the actors share (Simulator::set_shared_regions).
struct GuardedRange {
  const void* at = nullptr;
  size_t bytes = 0;
};
template <class T>
GuardedRange range_of(const T* at, size_t n) {
  return {at, n * sizeof(T)};
}
template <class T>
GuardedRange range_of(const std::vector<T>& v) {
  return range_of(v.data(), v.size());
}
// A structure's memory as its host holder lists it: (address, bytes) pairs.
inline std::vector<GuardedRange> ranges_of(const std::vector<std::pair<const void*, size_t>>& bytes) {
  std::vector<GuardedRange> out;
  for (const auto& [at, n] : bytes) out.push_back({at, n});
  return out;
}

// The words a run guards. ASan poisons 8-byte granules: a word's whole granule is
// guarded, so the word beside a guarded one is guarded too - in the structures'
// arrays, a word of the same array (at the end of an allocation the rest of the
// granule is ASan's own red zone, as poisoned before as after).
class DirectAccessGuard {
 public:
  DirectAccessGuard() = default;
  DirectAccessGuard(const DirectAccessGuard&) = delete;
  DirectAccessGuard& operator=(const DirectAccessGuard&) = delete;
  ~DirectAccessGuard() { release(); }
  // Guards the word at p (from now until release).
  void guard(const void* p);
  // Guards a whole range (a granule only partly inside keeps its bytes before the
  // range plain; one partly past its end stays plain, as ASan cannot poison a
  // granule's first bytes alone).
  void guard_range(const GuardedRange& r);
  // Every guarded word plain memory again.
  void release();
  // The words plain memory for a while (lift), then guarded again (restore): the
  // testbed's own checks during a run read them directly.
  void lift();
  void restore();
  size_t guarded_granules() const { return granules_.size(); }
  size_t guarded_ranges() const { return ranges_.size(); }

 private:
  struct Granule {
    char* at;
    uint8_t plain;  // its bytes that were plain memory (a prefix)
  };
  std::vector<Granule> granules_;
  std::vector<GuardedRange> ranges_;
};

// A guard lifted for as long as this lives (none: nothing to lift).
class [[nodiscard]] LiftedGuard {
 public:
  explicit LiftedGuard(DirectAccessGuard* g) : g_(g) {
    if (g_) g_->lift();
  }
  ~LiftedGuard() {
    if (g_) g_->restore();
  }
  LiftedGuard(const LiftedGuard&) = delete;
  LiftedGuard& operator=(const LiftedGuard&) = delete;

 private:
  DirectAccessGuard* g_;
};

}  // namespace gpulin::sim::memory
