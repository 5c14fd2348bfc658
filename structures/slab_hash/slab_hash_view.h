// The slab hash's memory as a structure sees it (§III-C): B base slabs, one per
// bucket, in one array; further slabs from SlabAlloc(-light); the bucket hash.
// Compile-time choices are template parameters: the mode, the allocator kind, the
// planted bug (mutants are instantiated only by the simulator's driver and the
// tests that need them, never by the GPU kernels of the default build) and the
// variant (the multimap's `fixed` form, bucket_version.h).
#pragma once

#include <cstdint>
#include <stdexcept>
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

// The multimap's two forms (gpulin explore --structure slab-multimap --variant ...).
//   Paper: Fig. 2 and §III-B as written: lock-free, a deleted pair's spot EMPTY
//          again and reusable. It fails the paper's own multimap specification
//          (docs/findings.md S1, S3: SEARCH and DELETE stop acting on the least
//          recent pair once a spot is reused; DELETEALL and a SEARCHALL over
//          several slabs are not atomic).
//   Fixed: spots are never reused (DELETE marks the pair DELETED, as the unique
//          modes do, §III-B 3), so list order stays insertion order; and each
//          bucket has a version word, a seqlock (bucket_version.h): writers
//          serialize on it, readers validate their scan against it. Map and set
//          have one form, the paper's.
enum class Variant : uint8_t { Paper, Fixed };

// `Lanes`: the lanes that run one operation (slab_lanes.h): a warp (32, the paper's
// warp-cooperative work sharing, §IV-A), or a tile of 16 or 8 lanes of a warp, each
// lane reading one or two whole pairs of the slab, so that a warp runs two or four
// operations at once. Tiles are for pairs (map, multimap); on the GPU they run
// unrecorded batches only, the simulator records a tile as any actor.
template <Mode M, bool Light = true, Mutant Mu = Mutant::None, Variant V = Variant::Paper, uint32_t Lanes = 32>
struct SlabPolicy {
  static_assert(V == Variant::Paper || M == Mode::Multimap, "only the multimap has a fixed variant");
  static_assert(Lanes == 32 || ((Lanes == 16 || Lanes == 8) && M != Mode::Set),
                "an operation runs on 32 lanes, or on a tile of 16 or 8 for pairs");
  static constexpr Mode mode = M;
  static constexpr bool light = Light;
  static constexpr Mutant mutant = Mu;
  static constexpr Variant variant = V;
  static constexpr uint32_t lanes = Lanes;
  // Whether the operations run under the bucket's version word (bucket_version.h)
  // and record their lp there instead of at the paper's lock-free points.
  static constexpr bool versioned = V == Variant::Fixed;
};

// P with its operations on `Lanes` lanes.
template <class P, uint32_t Lanes>
using WithLanes = SlabPolicy<P::mode, P::light, P::mutant, P::variant, Lanes>;

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

// The same with the variant known at run time: the paper variant is every mode's
// policy above; the fixed one exists only for the multimap (so only the multimap x
// fixed policies are instantiated beside the paper's). Host code only.
template <Mutant Mu = Mutant::None, class F>
decltype(auto) with_slab_policy(Mode mode, bool light, Variant variant, F&& f) {
  if (variant == Variant::Fixed) {
    if (mode != Mode::Multimap) throw std::invalid_argument("slab hash: only the multimap has a fixed variant");
    if (light) return f(SlabPolicy<Mode::Multimap, true, Mu, Variant::Fixed>{});
    return f(SlabPolicy<Mode::Multimap, false, Mu, Variant::Fixed>{});
  }
  return with_slab_policy<Mu>(mode, light, f);
}

template <class P>
struct SlabHashView {
  uint32_t* base_slabs = nullptr;  // bucket b: words [32 b, 32 b + 32)
  // Bucket b's version word, versions[b] (bucket_version.h): every table has them
  // (one word a bucket, beside the base slabs' 32); only the fixed multimap's
  // operations touch them, and they start at 0 (even: no writer).
  uint32_t* versions = nullptr;
  UniversalHash hash;
  SlabAllocView<P::light> alloc;

  GPULIN_HD uint32_t buckets() const { return hash.buckets; }
  GPULIN_HD uint32_t* base_slab(uint32_t bucket) const { return base_slabs + uint64_t{bucket} * kSlabWords; }
  GPULIN_HD uint32_t* version(uint32_t bucket) const { return versions + bucket; }
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
