// An operational model of the PTX memory consistency model (PTX ISA, "Memory
// Consistency Model"; Lustig, Sahasrabuddhe, Giroux, ASPLOS 2019), for the
// simulator's `ptx` memory mode and `gpulin litmus`. View-based, in the style of
// the operational C11 models (Kang et al., POPL 2017, without promises):
//
//   - every location keeps its stores in coherence order (a store goes last);
//   - every thread has a view: per location, the oldest store it may still read;
//   - a weak or relaxed load reads any store not older than its view, a choice made
//     by the caller's `Choose` (the simulator asks the run's strategy, so random,
//     PCT and DFS explore it and replay strings record it); when the load and the
//     store it read are morally strong (both strong, each one's scope including
//     the other's thread) the view moves up to that store, otherwise it does not
//     (coherence binds morally strong accesses only: CoRR on weak loads, or on a
//     weak store, is allowed);
//   - a read-modify-write reads the newest store;
//   - release stores, strong stores after a release fence, and a thread's later
//     strong stores to the location of its release store (its release sequence),
//     carry the writer's view; an acquire load that reads one, or an acquire fence after a strong load
//     that did, takes that view in, when the pair is morally strong (each
//     operation's scope includes the other's thread: a .cta release does not
//     synchronise with an acquire in another CTA);
//   - a fence.sc takes in the views of the earlier fence.sc it is morally strong
//     with (each scope including the other's thread): those are totally ordered;
//   - a CTA barrier joins the views of the threads it releases.
//
// Data races (PTX ISA, "Data races"), when asked for (check_races): two
// conflicting accesses to a location (one a write) that are not morally strong
// and that causality does not order. Causality is tracked by a clock per thread
// kept in the views themselves (each access ticks its thread's own entry), so
// whatever carries a view - a release read by an acquire, a fence.sc, a barrier,
// an mbarrier phase - carries the happened-before; and a morally strong load that
// read a store (observation order) orders that store before the loader's later
// accesses, as the thread's view of the location already says. The first race of
// a run is kept (race()). Checked: each access against the stores of its location
// newer than its thread's view (the newest kMaxCandidates), and each write also
// against every other thread's latest weak and latest strong read of the location.
// Not seen: a store ordered only by a later store of the same location (a view
// that moved past both counts as observing both), and a read hidden behind a
// newer read of the same kind by the same thread.
//
// Stronger than the axiomatic model, so some allowed outcomes are never produced
// (docs/memory-model.md lists them): stores are placed last in coherence order at
// the moment they run (no reordering of a thread's stores to different locations
// past each other, so load buffering and 2+2W shapes cannot happen); an RMW always
// reads the newest store, whatever its scope; weak stores take their place in
// coherence order as they run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/memory/access_site.h"
#include "sim/memory/function_ref.h"

namespace gpulin::sim::memory {

// The semantics of an access or fence (PTX's .weak, .relaxed, .acquire, .release,
// .acq_rel, .sc).
enum class Order { Weak, Relaxed, Acquire, Release, AcqRel, Sc };
// How far an operation's ordering reaches (PTX's .cta, .gpu, .sys).
enum class Scope { Cta, Gpu, Sys };
const char* to_string(Order o);
const char* to_string(Scope s);
// Whether an order has an acquire half, a release half.
inline bool acquires(Order o) { return o == Order::Acquire || o == Order::AcqRel || o == Order::Sc; }
inline bool releases(Order o) { return o == Order::Release || o == Order::AcqRel || o == Order::Sc; }

// Where a thread runs.
struct Place {
  uint32_t cta = 0;
  uint32_t gpu = 0;
};
// Whether scope `s` of a thread at `a` includes a thread at `b`.
bool includes(Place a, Scope s, Place b);

// A thread's knowledge: first one clock per thread (entry u: the latest access of
// thread u known to have happened before), then, per location, the index (in
// coherence order) of the oldest store the thread may read.
using View = std::vector<uint32_t>;
// into[i] = max(into[i], from[i]) for every location (into grows to from's size).
void join_views(View& into, const View& from);

// Who made an access, for a race's report: the caller's (the simulator gives the
// execution context's call site and the actor's operation; litmus tests nothing).
struct AccessTag {
  const char* file = "";  // the source line (SourceSite's), kept flat: a tag is in every store
  uint32_t line = 0;
  uint32_t when = 0;  // the caller's clock (the simulator: events recorded before it)
  int64_t op = -1;
  SourceSite site() const { return {file, line}; }
};
// One side of a data race.
struct RaceAccess {
  uint32_t thread = 0;
  bool write = false;
  Order order = Order::Weak;
  Scope scope = Scope::Gpu;
  AccessTag tag;
};
// Two conflicting accesses to location `loc`, `earlier` made first.
struct Race {
  uint32_t loc = 0;
  RaceAccess earlier, later;
};

// A view some stores and threads share, never changed once made (a release's): its
// place in the model's arena of frozen views (kNoView: none).
using ViewId = uint32_t;
inline constexpr ViewId kNoView = ~0u;

class PtxMemory {
 public:
  // Picks one of `n` candidate stores (0 the oldest candidate, n - 1 the newest).
  using Choose = std::function<uint32_t(uint32_t n)>;
  // What load and rmw take: a Choose, or any callable of its kind, by reference.
  using ChooseRef = FunctionRef<uint32_t(uint32_t)>;
  using UpdateRef = FunctionRef<std::optional<uint64_t>(uint64_t)>;

  explicit PtxMemory(std::vector<Place> threads);
  // As a fresh model of these threads, keeping what it allocated (a simulator makes
  // one model and resets it for every run).
  void reset(const std::vector<Place>& threads);
  // Moves thread t (before its first access: its view keeps what it has).
  void set_place(uint32_t t, Place p) { threads_[t].place = p; }

  // A new location holding `initial` (the store every thread's view starts at).
  uint32_t add_location(uint64_t initial);
  uint32_t locations() const { return live_locs_; }
  uint32_t threads() const { return static_cast<uint32_t>(threads_.size()); }

  uint64_t load(uint32_t t, uint32_t loc, Order o, Scope s, ChooseRef choose, const AccessTag& tag = {});
  void store(uint32_t t, uint32_t loc, uint64_t value, Order o, Scope s, const AccessTag& tag = {});
  // Reads the newest store and, when `update` gives a value, writes it (a CAS that
  // fails writes nothing but still reads with the RMW's order). Returns the old value.
  uint64_t rmw(uint32_t t, uint32_t loc, Order o, Scope s,
               UpdateRef update, const AccessTag& tag = {});

  // Whether accesses are checked for data races (off until asked; reset keeps it).
  void check_races(bool on) { check_races_ = on; }
  // The run's first race, if any was found.
  const std::optional<Race>& race() const { return race_; }
  // fence.acq_rel (Order::AcqRel), fence.sc (Order::Sc); also fence.acquire and
  // fence.release (Order::Acquire, Order::Release), one half of acq_rel each.
  void fence(uint32_t t, Order o, Scope s);
  // A barrier that released `participants`: each takes in every other's view (and
  // the barrier orders like fence.acq_rel of the barrier's scope among them).
  void barrier(const std::vector<uint32_t>& participants);

  // A store from outside the model (a write the simulated program made without
  // telling it): placed last in coherence order, and every thread's view moves up
  // to it, as to the initial values: no thread can read what it overwrote.
  void outside_store(uint32_t loc, uint64_t value);

  // Thread t's view, and taking another view in (a synchronisation object the
  // caller keeps: an mbarrier's phase, joined at its arrivals, taken in by waits).
  const View& view(uint32_t t) const { return threads_[t].cur; }
  void take_in(uint32_t t, const View& v) { join_views(threads_[t].cur, v); }

  // The newest store of a location (a litmus test's final state).
  uint64_t final_value(uint32_t loc) const { return locs_[loc].back().value; }
  // Stores of a location so far, the initial one included.
  uint32_t stores(uint32_t loc) const { return static_cast<uint32_t>(locs_[loc].size()); }
  // The store a thread's last load read: its writer (kInitial for the initial
  // value) and its index in coherence order.
  static constexpr uint32_t kInitial = ~0u;
  struct ReadFrom {
    uint32_t writer = kInitial;
    uint32_t index = 0;
  };
  ReadFrom last_read(uint32_t t) const { return threads_[t].last_read; }
  // Store `index` of a location, as a race report tells an access.
  RaceAccess store_access(uint32_t loc, uint32_t index) const {
    const Message& m = locs_[loc][index];
    return {m.writer, true, m.order, m.scope, m.tag};
  }

 private:
  struct Message {
    uint64_t value = 0;
    uint32_t writer = kInitial;
    // What an acquire reading this store takes in: the writer's view at its release
    // (a release store, or a strong store after a release fence), with its scope.
    ViewId released = kNoView;
    Scope release_scope = Scope::Sys;
    bool strong = true;
    Scope scope = Scope::Sys;  // the store's own
    Order order = Order::Relaxed;
    uint32_t epoch = 0;  // the writer's clock at the store
    AccessTag tag;
  };
  // A thread's latest weak and latest strong read of a location (epoch 0: none).
  struct ReadMark {
    uint32_t thread = 0;
    uint32_t weak_epoch = 0, strong_epoch = 0;
    Order strong_order = Order::Relaxed;
    Scope strong_scope = Scope::Gpu;
    AccessTag weak_tag, strong_tag;
  };
  // A release store's view, carried on by the thread's later strong stores to its
  // location (the release sequence).
  struct ReleaseHead {
    ViewId view = kNoView;
    Scope scope = Scope::Sys;
  };
  struct Thread {
    Place place;
    View cur;
    // What an acquire fence would take in: the views of the releases that strong
    // loads read since the last one, each with the narrowest fence scope that
    // reaches its writer; past kMaxPendingViews they are joined, by that scope.
    struct Pending {
      ViewId view;
      Scope needs;
    };
    std::vector<Pending> acquirable;
    View acquirable_joined[3];
    // After a release fence: the view strong stores carry, and the fence's scope.
    ViewId fence_release = kNoView;
    Scope fence_scope = Scope::Sys;
    ReadFrom last_read;
    ViewId last_taken = kNoView;  // the frozen view an acquire last took in
    std::vector<std::pair<uint32_t, ReleaseHead>> release_heads;  // by location (few)
    ViewId sc_fence[3] = {kNoView, kNoView, kNoView};  // its latest fence.sc of each scope
  };

  static constexpr size_t kMaxPendingViews = 32;
  void widen(View& v) const;  // to every location
  void join(View& into, ViewId from) const;  // join_views with a frozen view
  // A frozen copy of `v`; the view that is `a` joined with `b` (either may be kNoView).
  ViewId freeze(const View& v);
  ViewId joined(ViewId a, ViewId b);
  // The reading thread takes in what a read of `m` gives it (order `o`, scope `s`);
  // whether its view took in m's released view now.
  bool observe(uint32_t t, const Message& m, Order o, Scope s);
  // The message thread t's store of `value` carries (order `o`, scope `s`).
  Message message(uint32_t t, uint64_t value, Order o, Scope s);
  // An initial value, or a store from outside the model.
  static Message stored_outside(uint64_t value);
  // Whether a load by t of scope s and the store m are morally strong.
  bool morally_strong(uint32_t t, Scope s, const Message& m) const;
  // Where location `loc` is in a view (after the threads' clocks).
  uint32_t at(uint32_t loc) const { return static_cast<uint32_t>(threads_.size()) + loc; }
  // Thread t's next access: its clock ticks; returns the access's epoch.
  uint32_t tick(uint32_t t) { return ++threads_[t].cur[t]; }
  // Race checks of thread t's access (order o, scope s) to loc, made at `epoch`:
  // against the location's stores t has not observed, then (a write) its reads.
  void check_stores(uint32_t t, uint32_t loc, bool write, Order o, Scope s, const AccessTag& tag);
  void check_reads(uint32_t t, uint32_t loc, Order o, Scope s, const AccessTag& tag);
  void mark_read(uint32_t t, uint32_t loc, uint32_t epoch, Order o, Scope s, const AccessTag& tag);
  // Whether two accesses by threads a and b, with these orders and scopes, are
  // morally strong (both strong, each scope including the other's thread).
  bool strong_pair(uint32_t a, Order oa, Scope sa, uint32_t b, Order ob, Scope sb) const;
  void found(uint32_t loc, RaceAccess earlier, RaceAccess later);

  std::vector<Thread> threads_;
  // Locations [0, live_locs_) are this run's; the rest keep their capacity for the next.
  std::vector<std::vector<Message>> locs_;
  uint32_t live_locs_ = 0;
  std::vector<std::vector<ReadMark>> reads_;  // by location, as locs_ (race checks only)
  bool check_races_ = false;
  std::optional<Race> race_;
  // The frozen views of this run, each its size then its entries (ViewId: where it
  // starts): made with no allocation once a run of that size has been seen.
  std::vector<uint32_t> arena_;
};

}  // namespace gpulin::sim::memory
