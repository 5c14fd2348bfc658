// The slab hash's memory as a structure sees it (§III-C): B base slabs, one per
// bucket, in one array; further slabs from SlabAlloc(-light); the bucket hash.
// Compile-time choices are template parameters: the mode, the allocator kind and
// the planted bug (mutants are instantiated only by the simulator's driver and the
// tests that need them, never by the GPU kernels of the default build).
#pragma once

#include <cstdint>
#include <type_traits>

#include "structures/slab_hash/slab_alloc.h"
#include "structures/slab_hash/slab_layout.h"
#include "structures/slab_hash/universal_hash.h"

namespace gpulin::slab_hash {

// Bugs planted for the checkers to catch (gpulin explore --mutant slab-...).
enum class Mutant : uint8_t {
  None,
  SearchFirstSlab,  // slab-search-first-slab: SEARCH stops after the base slab
  InsertNoReread,   // slab-insert-no-reread: after a failed CAS, the insert tries the
                    // next candidate of the slab it read before, not a fresh read
  LostNextCas,      // slab-lost-next-cas: the new slab is linked by a plain store,
                    // so of two warps extending one list, one slab is lost
};

template <Mode M, bool Light = true, Mutant Mu = Mutant::None>
struct SlabPolicy {
  static constexpr Mode mode = M;
  static constexpr bool light = Light;
  static constexpr Mutant mutant = Mu;
};

// f(SlabPolicy<mode, light, Mu>{}) for a mode and allocator known at run time: the
// one place run-time choices become a policy (the GPU launches, the simulator's
// driver, checks of a downloaded table). Host code only.
template <Mutant Mu = Mutant::None, class F>
decltype(auto) with_slab_policy(Mode mode, bool light, F&& f) {
  auto with_alloc = [&](auto m) -> decltype(auto) {
    constexpr Mode M = decltype(m)::value;
    if (light) return f(SlabPolicy<M, true, Mu>{});
    return f(SlabPolicy<M, false, Mu>{});
  };
  if (mode == Mode::Map) return with_alloc(std::integral_constant<Mode, Mode::Map>{});
  if (mode == Mode::Set) return with_alloc(std::integral_constant<Mode, Mode::Set>{});
  return with_alloc(std::integral_constant<Mode, Mode::Multimap>{});
}

template <class P>
struct SlabHashView {
  uint32_t* base_slabs = nullptr;  // bucket b: words [32 b, 32 b + 32)
  UniversalHash hash;
  SlabAllocView<P::light> alloc;

  GPULIN_HD uint32_t buckets() const { return hash.buckets; }
  GPULIN_HD uint32_t* base_slab(uint32_t bucket) const { return base_slabs + uint64_t{bucket} * kSlabWords; }
  // The slab `next` names in `bucket`'s list (kBaseSlab: the bucket's base slab).
  GPULIN_HD uint32_t* slab(uint32_t bucket, uint32_t next) const {
    return next == kBaseSlab ? base_slab(bucket) : alloc.unit(next);
  }
};

// Operation codes, shared by the modes (the recorded names differ: fn_names).
enum Fn : uint32_t {
  kFnInsert = 0,     // map: REPLACE; set and multimap: INSERT
  kFnDelete = 1,     // DELETE
  kFnSearch = 2,     // SEARCH (set: contains)
  kFnSearchAll = 3,  // SEARCHALL (multimap)
  kFnDeleteAll = 4,  // DELETEALL (multimap)
  kFnCount = 5,
};

// The names an operation is recorded under, per mode (history-format.md models).
constexpr const char* fn_name(Mode m, uint32_t fn) {
  constexpr const char* kMap[] = {"replace", "delete", "search", "searchall", "deleteall"};
  constexpr const char* kSet[] = {"insert", "delete", "contains", "searchall", "deleteall"};
  constexpr const char* kMulti[] = {"insert", "delete", "search", "searchall", "deleteall"};
  return m == Mode::Map ? kMap[fn] : m == Mode::Set ? kSet[fn] : kMulti[fn];
}

}  // namespace gpulin::slab_hash
