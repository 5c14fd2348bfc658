// The PTX memory model (ptx_memory.h) over a simulated program's own memory: what
// the simulator's `ptx` memory mode runs a structure under. The structure's words
// stay where they are and always hold the newest store (so code that reads them
// directly, and the checks at rest, see what a sequentially consistent run would);
// beside them the model keeps each touched 32-bit word's stores in coherence order
// and each actor's view, and a load made through the execution context returns the
// store the model lets it read, which may be an older one.
//
// Locations are 32-bit words, made the first time an access touches them, with the
// value they hold then as their initial store (written by the host before the run,
// or by the program without telling the model). A 64-bit access is two words: an
// RMW reads and writes both at once, and a strong 64-bit load reads both halves from
// the same store where their histories are the same (the pair was only ever written
// whole), as the hardware's single-copy atomicity gives; a weak one may tear.
//
// One model thread per actor: an actor's threads hand their accesses to each other
// through the actor's own barriers, which order them (a block actor's leader
// broadcasts after its barrier), so within an actor program order stands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/memory/direct_access_guard.h"
#include "sim/memory/ptx_memory.h"

namespace gpulin::sim::memory {

class ModelMemory {
 public:
  using Choose = PtxMemory::ChooseRef;
  // A spin loop re-reading one word sees a newer store after at most this many
  // stale reads in a row (the model's eventual visibility, made a bound so that an
  // exploration never spins on stale values forever).
  static constexpr uint32_t kStaleRereads = 3;

  // Every actor its own CTA on GPU 0 until placed.
  explicit ModelMemory(uint32_t actors);
  // A fresh model for the next run, keeping what this one allocated.
  void reset(uint32_t actors);
  void place(uint32_t actor, Place p) { model_.set_place(actor, p); }
  // Whether accesses are checked for data races (on unless turned off; a reset
  // keeps it).
  void check_races(bool on) { model_.check_races(on); }

  // Each access carries its caller's tag (its source line and operation), which a
  // race report names.
  uint32_t load(uint32_t actor, const uint32_t* p, Order o, Scope s, const Choose& choose, const AccessTag& tag = {});
  uint64_t load(uint32_t actor, const uint64_t* p, Order o, Scope s, const Choose& choose, const AccessTag& tag = {});
  // Records the store; the caller then writes the word.
  void store(uint32_t actor, const uint32_t* p, uint32_t v, Order o, Scope s, const AccessTag& tag = {});
  void store(uint32_t actor, const uint64_t* p, uint64_t v, Order o, Scope s, const AccessTag& tag = {});
  // A read-modify-write of *p, which holds the newest store: `next` is the value it
  // writes (none: a failed CAS, which reads only). Records it; the caller writes.
  void rmw(uint32_t actor, const uint32_t* p, std::optional<uint32_t> next, Order o, Scope s,
           const AccessTag& tag = {});
  void rmw(uint32_t actor, const uint64_t* p, std::optional<uint64_t> next, Order o, Scope s,
           const AccessTag& tag = {});
  void fence(uint32_t actor, Order o, Scope s) { model_.fence(actor, o, s); }
  void barrier(const std::vector<uint32_t>& actors) { model_.barrier(actors); }
  // A recorded event (structures/exec/context.h, Recording): the GPU's recorder
  // takes each event's place by an atomic on one counter, an invocation's acquire,
  // a response's release, a linearization point's both (cuda/cuda_context.cuh), so
  // an operation invoked after another responded sees what that one did, as the
  // history's order says. The same here, on a counter of the model's own.
  void record_event(uint32_t actor, Order o) {
    rmw(actor, &record_clock_, record_clock_ + 1, o, Scope::Gpu);
    ++record_clock_;
  }
  // An actor's view, and taking one in (ptx_memory.h: an mbarrier phase's).
  const View& view(uint32_t actor) const { return model_.view(actor); }
  void take_in(uint32_t actor, const View& v) { model_.take_in(actor, v); }

  // The run's first data race (ptx_memory.h: every access is checked), and a line
  // naming both accesses: actor, operation, access and source line of each, and
  // the word.
  const std::optional<Race>& race() const { return model_.race(); }
  std::string describe_race() const;

  // What a run's page draws (gpulin replay --render): each stale read (the store it
  // read, `earlier`, and the load, `later`; the first kMaxMarks), then the race.
  struct Mark {
    bool race = false;
    RaceAccess earlier, later;
    const void* word = nullptr;
    uint32_t newer = 0;  // a stale read: the stores after the one it read
  };
  static constexpr size_t kMaxMarks = 256;
  std::vector<Mark> marks() const;
  // A mark as a line: the race's report (describe_race), or "stale read of word W:
  // <the load> returned what <the store> wrote, not the N stores after it".
  static std::string describe(const Mark& m);

  // Loads that returned a store older than the newest.
  uint64_t stale_reads() const { return stale_reads_; }
  // Words found changed since the model last saw them: written around the context.
  uint64_t outside_writes() const { return outside_writes_; }
  // Whether the words it holds are guarded during a run (direct_access_guard.h):
  // the simulator's runs turn it on; off for a model used alone. A reset keeps it.
  void guard_words(bool on) { guarding_ = on; }
  // The end of a run: the words it guarded are plain memory again, for the checks
  // at rest. A reset does it too.
  void end_run() { guard_.release(); }
  DirectAccessGuard& guard() { return guard_; }

 private:
  // The word's location, made (or brought up to the word's value) now.
  uint32_t location(const uint32_t* p);
  uint32_t read(uint32_t actor, uint32_t loc, Order o, Scope s, const Choose& choose, const AccessTag& tag);
  // "actor 1 (history op 7) write weak at FILE:LINE"
  static std::string access_text(const RaceAccess& a);

  struct Rereads {
    uint32_t loc = ~0u;
    uint32_t stale = 0;  // stale reads of `loc` in a row
  };
  // Where each touched word's location is: pages of 1024 words, each an array of
  // location + 1 (0: no location yet), the last page used first, then the others
  // in turn (a run touches few pages).
  static constexpr uintptr_t kPageBytes = 4096;
  struct Page {
    uintptr_t base = 0;
    std::vector<uint32_t> loc_plus_one;
  };
  uint32_t& slot(const uint32_t* p);

  PtxMemory model_;
  std::vector<Page> pages_;  // [0, live_pages_) this run's; the rest reused
  uint32_t live_pages_ = 0, last_page_ = 0;
  std::vector<uint32_t> newest_;  // by location: the value its newest store wrote
  std::vector<const uint32_t*> address_;  // by location: its word
  std::vector<Rereads> rereads_;  // by actor
  std::vector<Mark> stale_marks_;
  uint64_t stale_reads_ = 0, outside_writes_ = 0;
  uint32_t record_clock_ = 0;
  DirectAccessGuard guard_;  // every location's word, during a run
  bool guarding_ = false;
};

}  // namespace gpulin::sim::memory
