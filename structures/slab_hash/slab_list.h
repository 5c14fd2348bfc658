// The slab list's operations (slab hash §III-B, §IV-C, Fig. 2), written once over
// the execution context (structures/exec/context.h) with a warp, or a tile of 16 or
// 8 of its lanes (slab_lanes.h), as the actor. Each
// procedure is warp-uniform and runs ONE operation: the warp-cooperative work
// sharing loop (work_queue.h) hands them the queue's operations one at a time.
//
// `bucket` is h.hash(key), computed by the key's own lane before the work queue
// runs (all lanes at once, as Fig. 2 hashes per thread).
//
// Every slab access is a read of the slab's 32 words into the lanes that run the
// operation (one point: slab_lanes.h says which lane holds which word; a pair is
// always read whole) followed by ballots and shuffles on registers; writes are CASes by one lane
// (x.cas, 64-bit for a pair) or, for DELETE in the unique modes, the paper's
// plain write of DELETED. All of them are relaxed (structures/exec/memory_order.h):
// each word carries everything a reader needs - a key, a pair in one 64-bit word,
// the address of a slab that was all-EMPTY before the kernel began - so coherence
// per word is all the algorithm asks for, as in the original's plain atomicCAS.
// A walk follows the list by pointer: the bucket's base slab, then the units its
// address lanes name. Linearization points (record_lp, history-format.md
// `explicit`): the successful CAS of an insert, the write of DELETED (or the
// emptying CAS with duplicates), and the slab read that decided a search or
// a delete that found nothing.
//
// Unique modes keep a prefix property: only the last slab of a list has EMPTY
// spots, and within a slab the filled spots precede the empty ones (an insert
// takes the first EMPTY it reads and DELETE never makes a spot EMPTY). So an
// insert that finds an EMPTY spot before its key cannot exist, and REPLACE may
// stop at the first spot holding its key or EMPTY (Fig. 2, line 32).
//
// The fixed multimap (slab_hash_view.h, Variant::Fixed) runs the same procedures
// with two changes, each under `if constexpr` so that the paper's path is Fig. 2's
// as before: DELETE and DELETEALL mark a pair DELETED (kDeletedPair) instead of
// EMPTY, so that no spot is reused and the list keeps its pairs in insertion order
// (the prefix property above then holds for it too); and the procedures record no
// lp of their own: each runs inside bucket_version.h's writer hold or reader
// validation, which records the operation's one lp.
#pragma once

#include <cstdint>

#include "structures/exec/lane_search.h"
#include "structures/exec/memory_order.h"
#include "structures/slab_hash/slab_alloc.h"
#include "structures/slab_hash/slab_lanes.h"
#include "structures/slab_hash/slab_hash_view.h"

namespace gpulin::slab_hash {

// The access just made decided the operation: its lp (history-format.md
// `explicit`) in the paper's lock-free procedures; in the fixed multimap the
// bucket's version records it instead (bucket_version.h), so nothing here.
template <class P, class X>
GPULIN_HD void decided(X& x) {
  if constexpr (!P::versioned) x.record_lp();
}

// A slab of pairs is read a pair at a time (slab_lanes.h): a search that finds a
// key takes the value from the same whole-pair read as the key (spot_value), which
// the same store wrote with it. With one 32-bit load a lane, the PTX model lets the
// value lane read an older store than the key lane (docs/findings.md M2): a search
// returning EMPTY for a key being inserted.

// The first spot of the read slab holding `key` (32: none).
template <class X, class P>
GPULIN_HD uint32_t spot_holding(X& x, SlabRegs<X, P>& r, uint32_t key) {
  return first_spot<P>(x, r, [key](uint32_t k, uint32_t) { return k == key; });
}

// After a read that did not end the operation: moves `slab` to the read slab's
// successor, or, at the list's end, records the operation's lp (this read decided
// it) and returns true.
template <class X, class P>
GPULIN_HD bool at_list_end(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t*& slab) {
  const uint32_t ptr = next_address<P>(x, r);
  if (ptr == kEmptyPointer) {
    decided<P>(x);
    return true;
  }
  slab = h.alloc.unit(ptr);
  return false;
}

struct SlabSearchResult {
  bool found = false;
  uint32_t value = 0;  // pairs: the value; set: unused
};

// SEARCH (Fig. 2, warp_search_macro) from a slab already read into `r`: the first
// spot holding the key, in list order; for the multimap that is the paper's
// "least recent" pair.
template <class X, class P>
GPULIN_HD SlabSearchResult slab_search_read(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t key,
                                            uint32_t* slab) {
  for (;;) {
    const uint32_t spot = spot_holding<X, P>(x, r, key);
    if (spot != 32) {
      decided<P>(x);
      if constexpr (ModeTraits<P::mode>::kPairs) return {true, spot_value<P>(x, r, spot)};
      else return {true, 0u};
    }
    if constexpr (P::mutant == Mutant::SearchFirstSlab) {
      decided<P>(x);
      return {};
    }
    if (at_list_end(x, h, r, slab)) return {};
    read_slab<P>(x, slab, r);
  }
}

template <class X, class P>
GPULIN_HD SlabSearchResult slab_search(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key) {
  uint32_t* slab = h.base_slab(bucket);
  read_slab<P>(x, slab, r);
  return slab_search_read(x, h, r, key, slab);
}

// INSERT / REPLACE (Fig. 2, warp_replace_macro; §III-B 2). Map: REPLACE, the first
// spot holding the key or EMPTY takes (key, value) by a 64-bit CAS against the
// pair read. Set: the key's presence ends the insert; else a 32-bit CAS takes the
// first EMPTY. Multimap: INSERT, the first EMPTY spot (in the fixed variant no
// deleted pair's spot is EMPTY, so that is the list's first never-used spot, after
// every pair: the new pair is the most recent in list order too). A failed CAS
// re-reads the slab. No EMPTY spot and no successor: a new slab is allocated and
// linked by a CAS on the address lane; a warp that loses that CAS frees its slab
// (§III-B 2).
// Returns false when the allocator had no unit (the insert did not happen).
template <class X, class P>
GPULIN_HD bool slab_insert(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, WarpAllocator<X, P::lanes>& wa, uint32_t bucket,
                           uint32_t key, uint32_t value) {
  using T = ModeTraits<P::mode>;
  constexpr bool kUnique = P::mode != Mode::Multimap;
  uint32_t* slab = h.base_slab(bucket);
  uint32_t tried = 0;  // slab-insert-no-reread: spots whose CAS failed, never re-read
  bool reread = true;
  for (;;) {
    if (reread) {
      read_slab<P>(x, slab, r);
      tried = 0;
    }
    reread = true;
    const uint32_t dest = first_spot<P>(x, r, [&](uint32_t k, uint32_t spot) {
      return (k == kEmptyKey || (kUnique && k == key)) && !((tried >> spot) & 1u);
    });
    if (dest != 32) {
      const uint32_t seen = spot_key<P>(x, r, dest);
      uint32_t* spot = slab + dest;
      bool won;
      if constexpr (T::kPairs) {
        // An EMPTY key's value lane is EMPTY too (inserts write pairs, a paper
        // multimap DELETE and FLUSH empty both lanes): no second shuffle for it.
        const uint64_t expected = seen == kEmptyKey ? kEmptyPair : pack_pair(seen, spot_value<P>(x, r, dest));
        won = x.cas_won(reinterpret_cast<uint64_t*>(spot), expected, pack_pair(key, value), exec::relaxed);
      } else {
        if (seen == key) {  // set: already present, decided by this read
          decided<P>(x);
          return true;
        }
        won = x.cas_won(spot, kEmptyKey, key, exec::relaxed);
      }
      if (won) {
        decided<P>(x);
        return true;
      }
      if constexpr (P::mutant == Mutant::InsertNoReread) {
        tried |= 1u << dest;
        reread = false;
      }
      continue;
    }
    const uint32_t ptr = next_address<P>(x, r);
    if (ptr != kEmptyPointer) {
      slab = h.alloc.unit(ptr);
      continue;
    }
    const uint32_t fresh = allocate(x, h.alloc, wa);
    if (fresh == kNoUnit) return false;
    uint32_t* link = slab + kAddressLane;
    if constexpr (P::mutant == Mutant::LostNextCas) {
      x.store(link, fresh, exec::relaxed);
    } else if (!x.cas_won(link, kEmptyPointer, fresh, exec::relaxed)) {
      deallocate(x, h.alloc, fresh);  // another warp linked its slab first
    }
    // The same slab again: its address lane now names a successor.
  }
}

// Removes the pair at `spot` if it still holds what was read there (multimap
// DELETE). Paper: §III-B 3, "with duplicates ... simply mark a to-be-deleted
// element as empty": the spot becomes EMPTY and a later INSERT may take it
// (docs/findings.md S1). Fixed: the pair becomes DELETED, as the unique modes mark
// theirs, so the spot is never taken again (FLUSH, §IV-C4, reclaims it). True when
// done.
template <class X, class P>
GPULIN_HD bool remove_pair(X& x, SlabRegs<X, P>& r, uint32_t* slab, uint32_t spot) {
  const uint64_t expected = pack_pair(spot_key<P>(x, r, spot), spot_value<P>(x, r, spot));
  constexpr uint64_t kRemoved = P::versioned ? kDeletedPair : kEmptyPair;
  return x.cas_won(reinterpret_cast<uint64_t*>(slab + spot), expected, kRemoved, exec::relaxed);
}

// DELETE (Fig. 2, warp_delete_macro): the first spot holding the key is marked
// deleted. Unique modes: a plain write of DELETED (line 59). Multimap: the pair
// becomes EMPTY (paper) or DELETED (fixed) by a CAS (a plain write would race an
// insert into the freed spot's value lane); a lost CAS re-reads (in the fixed
// variant none is lost: the bucket's writers are serialized, bucket_version.h).
template <class X, class P>
GPULIN_HD void slab_delete(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key) {
  for (uint32_t* slab = h.base_slab(bucket);;) {
    read_slab<P>(x, slab, r);
    const uint32_t spot = spot_holding<X, P>(x, r, key);
    if (spot != 32) {
      if constexpr (P::mode == Mode::Multimap) {
        if (!remove_pair<X, P>(x, r, slab, spot)) continue;
      } else {
        x.store(slab + spot, kDeletedKey, exec::relaxed);
      }
      decided<P>(x);
      return;
    }
    if (at_list_end(x, h, r, slab)) return;
  }
}

// SEARCHALL (multimap, §III-B 1): every value of the key along the whole list, in
// list order, into out[0, n); `cap` bounds n (a fault beyond: never a silent cut).
// In the fixed variant a scan may be one that its validation throws away (it read
// the list while a writer changed it), so more than `cap` pairs is no fault there:
// the scan counts them in *over and stops storing, and the caller faults only on a
// validated scan (slab_search_all_op).
template <class X, class P>
GPULIN_HD uint32_t slab_search_all(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key, uint32_t* out,
                                   uint32_t cap, uint32_t* over = nullptr) {
  uint32_t n = 0;
  for (uint32_t* slab = h.base_slab(bucket);;) {
    read_slab<P>(x, slab, r);
    for (uint32_t m = spots_holding<P>(x, r, key); m != 0; m &= m - 1) {
      if (n == cap) {
        if constexpr (P::versioned) {
          ++*over;
          continue;
        } else {
          x.fail("slab hash: SEARCHALL found more pairs than its result buffer holds");
        }
      }
      out[n++] = spot_value<P>(x, r, lowest_lane(m));
    }
    if (at_list_end(x, h, r, slab)) return n;
  }
}

// DELETEALL (multimap): every pair of the key along the list is removed
// (remove_pair: EMPTY in the paper variant, DELETED in the fixed one). In the
// paper variant each removal is its own CAS and the sweep as a whole is not atomic
// (docs/findings.md S3); the fixed variant runs it inside the bucket's writer hold
// (bucket_version.h), which makes it one step to every reader and writer.
template <class X, class P>
GPULIN_HD void slab_delete_all(X& x, const SlabHashView<P>& h, SlabRegs<X, P>& r, uint32_t bucket, uint32_t key) {
  for (uint32_t* slab = h.base_slab(bucket);;) {
    read_slab<P>(x, slab, r);
    const uint32_t spot = spot_holding<X, P>(x, r, key);
    if (spot != 32) {
      remove_pair<X, P>(x, r, slab, spot);
      continue;  // re-read this slab until it holds the key no more
    }
    if (at_list_end(x, h, r, slab)) return;
  }
}

}  // namespace gpulin::slab_hash
