// SlabAlloc and SlabAlloc-light (slab hash, §V): a warp-cooperative allocator of
// fixed 128-byte memory units (slabs).
//
// Memory: super blocks, each of `blocks_per_super` memory blocks of 1024 units.
// A memory block's availability is a bitmap of 1024 bits (32 words; bit b of word
// l is unit 32·l + b), kept here in one array beside the units. A unit's address
// is 32 bits (§V, "Memory structure"): bits 0-9 the unit in its memory block,
// 10-23 the memory block in its super block, 24-31 the super block.
//
// Each warp has a resident memory block whose bitmap it holds in registers, one
// word per lane (the paper's "one 32-bit bitmap variable per thread"). To
// allocate, the warp ballots for lanes with a free unit and takes the first one
// from its own starting lane (warp id mod 32, so that warps sharing a block do not
// all CAS the same word); that lane's word is claimed with one CAS on the global
// bitmap; on failure the register word is refreshed from the CAS and the warp
// tries again. The operations of a tile of 16 or 8 lanes (slab_lanes.h) share
// their warp's resident block: each tile holds its own 16 or 8 of the 32 words and
// takes units from those alone. A full resident block is
// replaced by one chosen by hashing (global warp id, resident changes); after
// `max_resident_changes` changes the allocation fails and returns kNoUnit, and
// counts a failure in `failures`: never a silent corruption. Deallocation clears
// the unit's bit with one atomic AND.
//
// SlabAlloc-light (Light = true) keeps every super block in one contiguous array,
// so an address is decoded with one base pointer; the regular SlabAlloc looks its
// super block's base up in a table (the paper keeps it in shared memory).
//
// Free units are all-EMPTY: the pool starts so, a unit freed after a lost
// next-pointer CAS was never written, and FLUSH empties the slabs it frees.
#pragma once

#include <cstdint>

#include "structures/exec/lane_search.h"
#include "structures/exec/memory_order.h"
#include "structures/slab_hash/slab_layout.h"

namespace gpulin::slab_hash {

inline constexpr uint32_t kUnitsPerBlock = 1024;
inline constexpr uint32_t kNoUnit = kEmptyPointer;

GPULIN_HD inline uint32_t unit_address(uint32_t super, uint32_t block, uint32_t unit) {
  return (super << 24) | (block << 10) | unit;
}

template <bool Light>
struct SlabAllocView {
  uint32_t* bitmaps = nullptr;               // memory block g: words [32 g, 32 g + 32)
  uint32_t* pool = nullptr;                  // Light: all units, super block after super block
  uint32_t* const* super_blocks = nullptr;   // regular: super block s's first unit
  uint32_t supers = 0;
  uint32_t blocks_per_super = 0;
  uint32_t max_resident_changes = 64;
  uint32_t* failures = nullptr;              // allocations that found no free unit

  GPULIN_HD uint32_t memory_blocks() const { return supers * blocks_per_super; }
  // The first word of the unit at `addr`.
  GPULIN_HD uint32_t* unit(uint32_t addr) const {
    const uint32_t super = addr >> 24;
    const uint64_t in_super = uint64_t{addr & 0xFFFFFFu} * kSlabWords;  // block · 1024 + unit
    if constexpr (Light) {
      return pool + uint64_t{super} * blocks_per_super * kUnitsPerBlock * kSlabWords + in_super;
    } else {
      return super_blocks[super] + in_super;
    }
  }
  // The global memory block of an address, and its bitmap word for the unit.
  GPULIN_HD uint32_t block_of(uint32_t addr) const { return (addr >> 24) * blocks_per_super + ((addr >> 10) & 0x3FFFu); }
  GPULIN_HD uint32_t* bitmap_word(uint32_t addr) const { return bitmaps + block_of(addr) * 32 + (addr & 0x3FFu) / 32; }
  GPULIN_HD uint32_t address_of(uint32_t block, uint32_t unit_in_block) const {
    return unit_address(block / blocks_per_super, block % blocks_per_super, unit_in_block);
  }
};

// The resident memory block for a warp after `changes` changes (§V: hashing the
// global warp id and the number of resident changes, so that warps probe).
GPULIN_HD inline uint32_t resident_block(uint32_t warp_id, uint32_t changes, uint32_t blocks) {
  uint32_t h = warp_id * 0x9E3779B1u + changes * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h % blocks;
}

// One operation group's allocator state (a warp, or a tile of `Lanes` lanes; groups
// numbered grid-wide): the resident block and the group's bitmap words of it in
// registers, one a lane. The tiles of one warp share its resident block, each on
// its own `Lanes` words; a group starts looking for a free unit at its own lane
// (warp id mod Lanes), so that groups sharing a block do not all CAS the same word.
template <exec::WarpLanes X, uint32_t Lanes = 32>
struct WarpAllocator {
  static constexpr uint32_t kPerWarp = 32 / Lanes;
  // Whether the resident block is loaded yet: a flag of its own for a warp, and for
  // a tile `resident` out of range, whichever keeps the kernel within its 32
  // registers without spilling more (ptxas -v).
  static constexpr uint32_t kNotLoaded = ~0u;
  typename X::template Regs<uint32_t, 1> bitmap;
  uint32_t resident = Lanes == 32 ? 0u : kNotLoaded;
  uint32_t changes = 0;
  uint32_t group = 0;
  bool loaded_flag = false;  // 32 lanes only
  GPULIN_HD bool loaded() const {
    if constexpr (Lanes == 32) return loaded_flag;
    else return resident != kNotLoaded;
  }
  GPULIN_HD uint32_t warp_id() const { return group / kPerWarp; }
  GPULIN_HD uint32_t first_word() const { return (group % kPerWarp) * Lanes; }
};

template <class X, uint32_t Lanes, bool Light>
GPULIN_HD void load_resident(X& x, const SlabAllocView<Light>& a, WarpAllocator<X, Lanes>& w) {
  w.resident = resident_block(w.warp_id(), w.changes, a.memory_blocks());
  uint32_t* words = a.bitmaps + w.resident * 32 + w.first_word();
  x.load_lanes(w.bitmap, [words](uint32_t l) { return words + l; });
  w.loaded_flag = true;
}

// A free unit's address, or kNoUnit when `max_resident_changes` resident blocks
// in a row had none (warp-uniform).
template <class X, uint32_t Lanes, bool Light>
GPULIN_HD uint32_t allocate(X& x, const SlabAllocView<Light>& a, WarpAllocator<X, Lanes>& w) {
  if (!w.loaded()) load_resident(x, a, w);
  // Groups sharing a resident block would all take the lowest word with a free unit
  // and collide on its CAS; each starts at its own lane instead (warp id mod Lanes)
  // and takes the first word with a free unit from there, cyclically.
  for (;;) {
    const uint32_t free = x.ballot([&](uint32_t l) { return w.bitmap.of(l)[0] != ~0u; });
    const uint32_t lane = lowest_lane_from(free, w.warp_id() % Lanes);
    if (lane == 32) {
      if (w.changes >= a.max_resident_changes) {
        x.fetch_add(a.failures, 1u, exec::relaxed);
        return kNoUnit;
      }
      ++w.changes;
      load_resident(x, a, w);
      continue;
    }
    const uint32_t word = x.shuffle([&](uint32_t l) { return w.bitmap.of(l)[0]; }, lane);
    const uint32_t bit = lowest_lane(~word);
    uint32_t* global = a.bitmaps + w.resident * 32 + w.first_word() + lane;
    const uint32_t old = x.cas(global, word, word | (1u << bit), exec::relaxed);
    if (old == word) {
      x.set_lane(w.bitmap, lane, 0, old | (1u << bit));
      return a.address_of(w.resident, (w.first_word() + lane) * 32 + bit);
    }
    x.set_lane(w.bitmap, lane, 0, old);  // another group took units here: try again
  }
}

// Clears the unit's bit (warp-uniform). The unit must be all-EMPTY. The bitmap's
// accesses are relaxed: a unit's content is EMPTY before it is allocated (the
// pool starts so, FLUSH empties what it frees in its own kernel, and a unit freed
// after a lost next-pointer CAS was never written), so no bit publishes data.
template <class X, bool Light>
GPULIN_HD void deallocate(X& x, const SlabAllocView<Light>& a, uint32_t addr) {
  x.fetch_and(a.bitmap_word(addr), ~(1u << (addr & 31u)), exec::relaxed);
}

}  // namespace gpulin::slab_hash
