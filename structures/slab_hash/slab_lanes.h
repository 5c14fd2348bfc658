// Where a slab's words live in the registers of the lanes that run one operation
// (SlabPolicy's `lanes`), and the collectives the slab list's procedures
// (slab_list.h) decide a read slab with.
//
// A spot is named by the index of its key's word in the slab (0-29; for pairs the
// even ones 0-28), so its address is slab + spot whatever the lanes; word 31 is the
// next slab's address.
//
//   32 lanes (the paper's warp, §IV-A): lane l holds word l (x.load_lanes); for
//       pairs both lanes of pair i hold it whole (x.load_lane_pairs): r.of(l)[0]
//       is word l, r.of(l)[1] the pair's other half.
//   16 lanes (a tile): lane l holds pair l whole, words 2l and 2l + 1
//       (x.load_lane_words<2>): r.of(l)[0] the key, [1] the value.
//    8 lanes (a tile): lane l holds pairs 2l and 2l + 1, words 4l .. 4l + 3
//       (x.load_lane_words<4>): [0] and [2] the keys, [1] and [3] their values.
//
// Why tiles: the 32-lane warp runs one operation at a time, one slab read in flight;
// a tile of 16 or 8 reads the same 128-byte slab, so a warp has two or four
// operations in flight, each with the queue, ballots and shuffles of its own tile
// (bench/results/slab-tile-groups-h200.txt).
#pragma once

#include <cstdint>

#include "structures/exec/lane_search.h"
#include "structures/slab_hash/slab_layout.h"

namespace gpulin::slab_hash {

template <class P>
inline constexpr uint32_t kSlabRegWords =
    P::lanes == 32 ? (ModeTraits<P::mode>::kPairs ? 2u : 1u) : 2u * (16u / P::lanes);

// A slab in the registers of the operation's lanes.
template <class X, class P>
using SlabRegs = typename X::template Regs<uint32_t, kSlabRegWords<P>>;

// Reads the slab at `slab` into r (one point).
template <class P, class X>
GPULIN_HD void read_slab(X& x, uint32_t* slab, SlabRegs<X, P>& r) {
  if constexpr (P::lanes == 32 && ModeTraits<P::mode>::kPairs)
    x.load_lane_pairs(r, [slab](uint32_t l) { return slab + l; });
  else if constexpr (P::lanes == 32)
    x.load_lanes(r, [slab](uint32_t l) { return slab + l; });
  else
    x.template load_lane_words<kSlabRegWords<P>>(r, [slab](uint32_t l) { return slab + kSlabRegWords<P> * l; });
}

// The first spot, in list order, whose key word k satisfies pred(k, spot); 32 when
// none. Only key words are asked (not the auxiliary word 30 nor the address 31).
template <class P, class X, class Pred>
GPULIN_HD uint32_t first_spot(X& x, SlabRegs<X, P>& r, Pred&& pred) {
  if constexpr (P::lanes == 32) {
    return lowest_lane(x.ballot([&](uint32_t l) { return pred(r.of(l)[0], l); }) & ModeTraits<P::mode>::kKeyLanes);
  } else if constexpr (P::lanes == 16) {
    const uint32_t m = x.ballot([&](uint32_t l) { return l < 15 && pred(r.of(l)[0], 2 * l); });
    return m ? 2 * lowest_lane(m) : 32u;
  } else {
    const uint32_t first = x.ballot([&](uint32_t l) { return pred(r.of(l)[0], 4 * l); });
    const uint32_t second = x.ballot([&](uint32_t l) { return l < 7 && pred(r.of(l)[2], 4 * l + 2); });
    const uint32_t a = first ? 4 * lowest_lane(first) : 32u, b = second ? 4 * lowest_lane(second) + 2 : 32u;
    return a < b ? a : b;
  }
}

// Every spot whose key word equals `key`, one bit a spot (bit = the spot).
template <class P, class X>
GPULIN_HD uint32_t spots_holding(X& x, SlabRegs<X, P>& r, uint32_t key) {
  if constexpr (P::lanes == 32) {
    return x.ballot([&](uint32_t l) { return r.of(l)[0] == key; }) & ModeTraits<P::mode>::kKeyLanes;
  } else {
    constexpr uint32_t kPer = kSlabRegWords<P> / 2;  // pairs a lane
    uint32_t spots = 0;
    for (uint32_t j = 0; j < kPer; ++j) {
      const uint32_t m = x.ballot([&](uint32_t l) { return l * kPer + j < 15 && r.of(l)[2 * j] == key; });
      for (uint32_t b = m; b != 0; b &= b - 1) spots |= 1u << (2 * (lowest_lane(b) * kPer + j));
    }
    return spots;
  }
}

// Register `I` (or I + 2 when `second`) of the lane that holds word `w` of the slab,
// to every lane. A tile's lane holds words kSlabRegWords·l .. on; the register is
// picked by a select, never indexed by a variable (that would put the registers in
// local memory).
template <class P, uint32_t I, class X>
GPULIN_HD uint32_t tile_word(X& x, SlabRegs<X, P>& r, uint32_t w) {
  constexpr uint32_t kWords = kSlabRegWords<P>;
  if constexpr (kWords == 2) {
    return x.shuffle([&](uint32_t l) { return r.of(l)[I]; }, w / 2);
  } else {
    const bool second = (w & 2u) != 0;
    return x.shuffle([&](uint32_t l) { return second ? r.of(l)[I + 2] : r.of(l)[I]; }, w / 4);
  }
}

// The key at `spot`, and the value beside it (pairs) from the same whole-pair read.
template <class P, class X>
GPULIN_HD uint32_t spot_key(X& x, SlabRegs<X, P>& r, uint32_t spot) {
  if constexpr (P::lanes == 32) return x.shuffle([&](uint32_t l) { return r.of(l)[0]; }, spot);
  else return tile_word<P, 0>(x, r, spot);
}
template <class P, class X>
GPULIN_HD uint32_t spot_value(X& x, SlabRegs<X, P>& r, uint32_t spot) {
  if constexpr (P::lanes == 32)
    return x.shuffle([&](uint32_t l) { return r.of(l)[1]; }, spot);  // the key lane's other half
  else
    return tile_word<P, 1>(x, r, spot);
}
// The read slab's successor (word 31, kEmptyPointer at the list's end).
template <class P, class X>
GPULIN_HD uint32_t next_address(X& x, SlabRegs<X, P>& r) {
  constexpr uint32_t kWords = kSlabRegWords<P>;
  if constexpr (P::lanes == 32) return x.shuffle([&](uint32_t l) { return r.of(l)[0]; }, kAddressLane);
  else return x.shuffle([&](uint32_t l) { return r.of(l)[kWords - 1]; }, P::lanes - 1);
}

}  // namespace gpulin::slab_hash
