// A block actor's private memory in the simulator (shared memory on the GPU, or a
// global-memory scratch only the actor uses): a region whose every element access
// is checked against the block's barrier phases (sim/private_memory/
// barrier_phases.h). Structures hold it through the execution context's pointer
// type (SimContext::Private<T>: PrivatePtr<T>; CudaContext's is T*), so the same
// algorithm code indexes it either way: p[i] reads through PrivateRef's conversion
// and writes through its assignment, on the memory itself.
//
// The phases are kept per 32-bit word of the region, so views of one region as
// different types (private_cast: a scratch of 64-bit elements read as words) check
// against each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/private_memory/barrier_phases.h"
#include "sim/private_memory/lane_clocks.h"

namespace gpulin::sim {

// A region is checked one of two ways: a block actor's against its barrier phases,
// or the shared memory of a block whose warps are actors against the lanes' clocks
// (sim/private_memory/lane_clocks.h; SimBlock holds that region).
struct PrivateRegion {
  PrivateRegion(BarrierPhases& phases, uint32_t id, std::byte* base, size_t words)
      : base(base), words(words), shadow(words), phases(&phases), id(id) {}
  PrivateRegion(LaneClocks& lanes, std::byte* base, size_t words)
      : base(base), words(words), lanes(&lanes), lane_shadow(words) {}
  std::byte* base;
  size_t words;
  std::vector<PhaseShadow> shadow;
  BarrierPhases* phases = nullptr;
  uint32_t id = 0;  // the actor's regions numbered from 0, for reports
  std::vector<uint32_t> owned;  // the memory, when the region owns it (private_array)
  LaneClocks* lanes = nullptr;  // a block's shared memory under warp actors
  std::vector<LaneShadow> lane_shadow;

  // The first word of an element of Bytes bytes at `p`, checked to lie inside (an
  // address below the base wraps to a large offset).
  template <size_t Bytes>
  [[gnu::always_inline]] size_t word_of(const void* p) const {
    const auto off = static_cast<size_t>(static_cast<const std::byte*>(p) - base);
    if (off + Bytes > words * 4) [[unlikely]]
      out_of_bounds(off / 4);
    return off / 4;
  }
  [[noreturn]] void out_of_bounds(size_t word) const {
    if (lanes) lanes->out_of_bounds(word, words);
    phases->out_of_bounds(id, word, words);
  }
  // Word w's accesses, checked.
  [[gnu::always_inline]] void read(size_t w) {
    if (lanes) [[unlikely]]
      lanes->read(lane_shadow[w], w);
    else
      phases->read(shadow[w], id, w);
  }
  [[gnu::always_inline]] void write(size_t w) {
    if (lanes) [[unlikely]]
      lanes->write(lane_shadow[w], w);
    else
      phases->write(shadow[w], id, w);
  }
};

template <class T>
class PrivateRef {
  static_assert(sizeof(T) % 4 == 0, "private memory is checked by 32-bit words");
  static constexpr size_t kWords = sizeof(T) / 4;

 public:
  PrivateRef(PrivateRegion* r, T* p) : r_(r), p_(p) {}
  [[gnu::always_inline]] operator T() const {  // NOLINT: a read, implicit as a T& would be
    const size_t w = r_->template word_of<sizeof(T)>(p_);
    for (size_t i = 0; i < kWords; ++i) r_->read(w + i);
    return *p_;
  }
  [[gnu::always_inline]] const PrivateRef& operator=(T v) const {
    const size_t w = r_->template word_of<sizeof(T)>(p_);
    for (size_t i = 0; i < kWords; ++i) r_->write(w + i);
    *p_ = v;
    return *this;
  }
  [[gnu::always_inline]] const PrivateRef& operator=(const PrivateRef& o) const { return *this = static_cast<T>(o); }

 private:
  PrivateRegion* r_;
  T* p_;
};

template <class T>
class PrivatePtr {
 public:
  using element_type = T;
  PrivatePtr() = default;
  PrivatePtr(std::nullptr_t) {}  // NOLINT: converts as a null T* does
  PrivatePtr(PrivateRegion* r, T* p) : r_(r), p_(p) {}

  [[gnu::always_inline]] PrivateRef<T> operator[](size_t i) const { return PrivateRef<T>(r_, p_ + i); }
  PrivateRef<T> operator*() const { return (*this)[0]; }
  PrivatePtr operator+(size_t n) const { return {r_, p_ + n}; }
  PrivatePtr operator-(size_t n) const { return {r_, p_ - n}; }
  ptrdiff_t operator-(const PrivatePtr& o) const { return p_ - o.p_; }
  PrivatePtr& operator+=(size_t n) {
    p_ += n;
    return *this;
  }
  PrivatePtr& operator++() {
    ++p_;
    return *this;
  }
  bool operator==(const PrivatePtr& o) const { return p_ == o.p_; }
  bool operator==(std::nullptr_t) const { return p_ == nullptr; }
  explicit operator bool() const { return p_ != nullptr; }
  PrivateRegion* region() const { return r_; }
  T* get() const { return p_; }

 private:
  PrivateRegion* r_ = nullptr;
  T* p_ = nullptr;
};

// The same memory as elements of another type (exec::private_cast on the GPU's
// pointers is a reinterpret_cast).
template <class U, class T>
PrivatePtr<U> private_cast(PrivatePtr<T> p) {
  return PrivatePtr<U>(p.region(), reinterpret_cast<U*>(p.get()));
}

}  // namespace gpulin::sim
