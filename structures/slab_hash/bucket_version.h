// The fixed multimap's bucket version word (slab_hash_view.h, Variant::Fixed): a
// sequence lock per bucket, versions[b].
//
// Why. §III-B defines the multimap's operations on a list of pairs in insertion
// order: SEARCH returns "the least recent ⟨k, v⟩", DELETE removes the least
// recently inserted pair, DELETEALL(k) is 𝒮 ← 𝒮 − {⟨k, *⟩}, SEARCHALL returns
// every pair of k. Fig. 2's lock-free procedures do not give that
// (docs/findings.md): with spots reused, list order stops being insertion order
// (S1; the fixed variant no longer reuses spots, slab_list.h), DELETEALL marks the
// pairs one CAS at a time so that a search between two CASes sees half of it (S3),
// and a SEARCHALL that reads a list of several slabs one slab after another can
// see a pair deleted from an early slab together with a newer one inserted into a
// later slab: no single moment held both. Each of these needs a multi-word
// operation to look atomic, which per-word CASes cannot give by themselves.
//
// How. The version word is even while no writer is in the bucket and odd while one
// is. A writer (INSERT, DELETE, DELETEALL) takes it by CAS even -> odd (acquire),
// runs Fig. 2's procedure unchanged in form, and releases it with the next even
// value (version + 2 overall, a release store): the bucket's writers are
// serialized, so each write - DELETEALL's whole sweep included - is atomic to
// every other writer. A reader (SEARCH, SEARCHALL) takes nothing: it reads the
// version (waiting while it is odd), scans the list, and re-reads the version; the
// same value means no writer held the bucket in between, so the scan read one
// state of the list, a snapshot, and its answer stands; otherwise it scans again.
//
// This serializes the writers of a bucket: it is the simple correct form, not a
// lock-free one (the paper's claim of "a dynamic non-blocking concurrent linked
// list" is given up for the multimap's fixed variant). Readers never block writers
// and never write the list; they retry while writers keep coming.
//
// Linearization points (history-format.md `explicit`: exactly one lp event per
// operation): a writer's is its release of the version (the write is visible to
// readers from there, and no reader that validated before it saw any of it); a
// reader's is the re-read that validated its scan. A failed validation records
// nothing; the list procedures record no lp of their own in this variant
// (slab_list.h, decided).
//
// Memory order (GPU): the writer's taking CAS is an acquire, so its slab writes
// stay after it; its release store orders them before the next even value. The
// reader's first read is an acquire load, ordering its slab reads after it. Its
// validating re-read is a read-modify-write that adds 0, ordered (acquire and
// release, the warp synchronized before it): a plain acquire load would not keep
// the slab reads before it, a release RMW does, and it stands in the version's
// modification order before any writer's taking CAS it did not see, so that
// writer's slab writes are not visible to the scan (Boehm, "Can seqlocks get along
// with programming language memory models?", 2012: the read-don't-modify-write
// form). The simulator runs every access sequentially consistent.
//
// Versions wrap after 2^31 writes to one bucket; a scan that spans exactly that
// many writes would validate wrongly, which no run comes near.
#pragma once

#include <cstdint>
#include <type_traits>

#include "structures/exec/memory_order.h"
#include "structures/exec/waiting.h"
#include "structures/slab_hash/slab_hash_view.h"

namespace gpulin::slab_hash {

// Takes `bucket`'s version word for a writer; returns the odd value it holds. A
// writer holds nothing else while it waits (one bucket an operation), so waiting
// cannot deadlock; it waits with the context's primitive, so that the simulator
// parks it until the holder releases (and schedules the holder), and the GPU
// sleeps between reads.
template <class X, class P>
GPULIN_HD uint32_t lock_bucket(X& x, const SlabHashView<P>& h, uint32_t bucket) {
  static_assert(P::versioned, "only the fixed multimap takes bucket versions");
  uint32_t* word = h.version(bucket);
  uint32_t v = x.load(word);
  for (;;) {
    if (v & 1u) {
      x.wait_while_equals(word, v, exec::keeps_seen);  // not a retry: v is kept
      v += 1;  // the holder's release writes v + 1: try that first (a failed CAS says what it is)
      continue;
    }
    // Taking it publishes nothing (exec::acquire): what this warp wrote before is
    // published by its own earlier releases.
    const uint32_t old = x.cas(word, v, v + 1, exec::acquire);
    if (old == v) return v + 1;
    v = old;
  }
}

// Releases the version taken by lock_bucket (`held`, odd) with the next even value
// and records the writer's lp there. `took_effect` false (an insert that found no
// memory): the op stays pending, no lp.
template <class X, class P>
GPULIN_HD void unlock_bucket(X& x, const SlabHashView<P>& h, uint32_t bucket, uint32_t held, bool took_effect = true) {
  x.release(h.version(bucket), held, held + 1);
  if (took_effect) x.record_lp();
}

// A writer: f() under the bucket's version (the paper's variant: f() alone).
// Returns what f returns (bool: whether the operation took effect); a void f's
// writer returns true.
template <class X, class P, class F>
GPULIN_HD auto write_bucket(X& x, const SlabHashView<P>& h, uint32_t bucket, F&& f) {
  if constexpr (!P::versioned) {
    return f();
  } else {
    const uint32_t held = lock_bucket(x, h, bucket);
    bool took_effect = true;
    if constexpr (std::is_same_v<decltype(f()), bool>)
      took_effect = f();
    else
      f();
    unlock_bucket(x, h, bucket, held, took_effect);
    return took_effect;
  }
}

// A reader: scan() until a run of it lies between two equal even reads of the
// bucket's version; returns that run's result and records the lp at the
// validating re-read (the paper's variant: scan() once, its points its own).
template <class X, class P, class Scan>
GPULIN_HD auto read_bucket(X& x, const SlabHashView<P>& h, uint32_t bucket, Scan&& scan) {
  if constexpr (!P::versioned) {
    return scan();
  } else {
    uint32_t* word = h.version(bucket);
    for (;;) {
      const uint32_t v = x.load(word);
      if (v & 1u) {  // a writer is in the bucket: a scan now would be thrown away
        x.wait_while_equals(word, v);
        continue;
      }
      auto res = scan();
      if (x.fetch_add(word, 0u) == v) {
        x.record_lp();
        return res;
      }
    }
  }
}

}  // namespace gpulin::slab_hash
