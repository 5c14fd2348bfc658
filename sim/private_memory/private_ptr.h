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
  // How its accesses are checked: against the barrier phases of a block of two or
  // more threads (a block of one never races with itself), against the lanes'
  // clocks, or not at all.
  enum class Checks : uint8_t { None, Phases, Lanes };

  PrivateRegion(BarrierPhases& phases, uint32_t id, std::byte* base, size_t words) { remake(phases, id, base, words); }
  PrivateRegion(LaneClocks& lanes, std::byte* base, size_t words)
      : base(base), bytes(words * 4), checks(Checks::Lanes), words(words), lanes(&lanes), lane_shadow(words) {}
  // A region of `block`'s, as the first constructor makes it, in this one's storage
  // (the room of its shadow and owned memory kept): a region a runner kept from an
  // earlier run (sim/private_memory/kept_memory.h). Every shadow word starts
  // untouched, as in a region made anew.
  void remake(BarrierPhases& block, uint32_t number, std::byte* at, size_t n_words) {
    base = at;
    bytes = n_words * 4;
    checked_phases = block.threads() < 2 ? nullptr : &block;
    checks = block.threads() < 2 ? Checks::None : Checks::Phases;
    id = number;
    phases = &block;
    shadow.assign(n_words, PhaseShadow{});
    words = n_words;
  }
  // What every checked access reads first, together at the region's start: its
  // bounds, how it is checked, and the phases' state.
  std::byte* base = nullptr;
  size_t bytes = 0;  // words * 4, the bound each access compares with
  // `phases` where checks is Phases, else null: the one test an access makes in the
  // common case, and the pointer it goes on with.
  BarrierPhases* checked_phases = nullptr;
  Checks checks = Checks::None;
  uint32_t id = 0;  // the actor's regions numbered from 0, for reports
  BarrierPhases* phases = nullptr;
  std::vector<PhaseShadow> shadow;
  size_t words = 0;
  std::vector<uint32_t> owned;  // the memory, when the region owns it (private_array)
  LaneClocks* lanes = nullptr;  // a block's shared memory under warp actors
  std::vector<LaneShadow> lane_shadow;

  // The first word of an element of Bytes bytes at `p`, checked to lie inside (an
  // address below the base wraps to a large offset).
  template <size_t Bytes>
  [[gnu::always_inline]] size_t word_of(const void* p) const {
    const auto off = static_cast<size_t>(static_cast<const std::byte*>(p) - base);
    if (off + Bytes > bytes) [[unlikely]]
      out_of_bounds(off / 4);
    return off / 4;
  }
  // The words of n elements of Bytes bytes from p, [first, first + count), where
  // all of them lie inside the region; else count is 0 and `inside` false.
  struct Words {
    bool inside = false;
    size_t first = 0, count = 0;
  };
  template <size_t Bytes>
  [[gnu::always_inline]] Words words_of(const void* p, size_t n) const {
    const auto off = static_cast<size_t>(static_cast<const std::byte*>(p) - base);
    if (off > bytes || n > (bytes - off) / Bytes) return {};
    return {true, off / 4, n * (Bytes / 4)};
  }
  // Whether n elements of Bytes bytes from p lie inside a region checked against
  // barrier phases and the running phase left their words untouched
  // (BarrierPhases::untouched).
  template <size_t Bytes>
  [[gnu::always_inline]] bool untouched(const void* p, size_t n, bool writing) const {
    const Words w = words_of<Bytes>(p, n);
    return checks == Checks::Phases && w.inside && phases->untouched(shadow.data() + w.first, w.count, writing);
  }
  [[noreturn]] void out_of_bounds(size_t word) const {
    if (lanes) lanes->out_of_bounds(word, words);
    phases->out_of_bounds(id, word, words);
  }
  // Word w's accesses, checked.
  [[gnu::always_inline]] void read(size_t w) {
    if (checked_phases) [[likely]]
      checked_phases->read(shadow[w], id, w);
    else if (checks == Checks::Lanes)
      lanes->read(lane_shadow[w], w);
  }
  [[gnu::always_inline]] void write(size_t w) {
    if (checked_phases) [[likely]]
      checked_phases->write(shadow[w], id, w);
    else if (checks == Checks::Lanes)
      lanes->write(lane_shadow[w], w);
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

// A private array's elements in a loop of the context's own (a transfer's keys):
// each access checked as PrivateRef checks it, made by the thread whose stamp the
// loop passes (BarrierPhases::code_stamp), with the region's state read once for
// the loop. Only for a region checked against barrier phases, or not at all.
template <class T>
class PrivateRun {
  static_assert(sizeof(T) % 4 == 0, "private memory is checked by 32-bit words");
  static constexpr size_t kWords = sizeof(T) / 4;

 public:
  explicit PrivateRun(PrivatePtr<T> p)
      : p_(p.get()), first_(static_cast<size_t>(reinterpret_cast<const std::byte*>(p.get()) - p.region()->base)),
        bytes_(p.region()->bytes), shadow_(p.region()->shadow.data()), region_(*p.region()),
        phases_(p.region()->checks == PrivateRegion::Checks::Phases ? p.region()->phases : nullptr) {}
  [[gnu::always_inline]] T read(size_t i, PhaseStamp now) const {
    const size_t w = word_of(i);
    if (phases_)
      for (size_t j = 0; j < kWords; ++j) phases_->check_read(shadow_[w + j], now, region_.id, w + j);
    return p_[i];
  }
  [[gnu::always_inline]] void write(size_t i, T v, PhaseStamp now) const {
    const size_t w = word_of(i);
    if (phases_)
      for (size_t j = 0; j < kWords; ++j) phases_->check_write(shadow_[w + j], now, region_.id, w + j);
    p_[i] = v;
  }

 private:
  // As PrivateRegion::word_of.
  [[gnu::always_inline]] size_t word_of(size_t i) const {
    const size_t off = first_ + i * sizeof(T);
    if (off + sizeof(T) > bytes_) [[unlikely]]
      region_.out_of_bounds(off / 4);
    return off / 4;
  }
  T* p_;
  size_t first_;  // p_'s offset in bytes from the region's base
  size_t bytes_;
  PhaseShadow* shadow_;
  const PrivateRegion& region_;
  BarrierPhases* phases_;  // nullptr: unchecked
};

// The same memory as elements of another type (exec::private_cast on the GPU's
// pointers is a reinterpret_cast).
template <class U, class T>
PrivatePtr<U> private_cast(PrivatePtr<T> p) {
  return PrivatePtr<U>(p.region(), reinterpret_cast<U*>(p.get()));
}

}  // namespace gpulin::sim
