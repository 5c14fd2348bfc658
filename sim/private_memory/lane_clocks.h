// Races between the threads of a block whose warps are actors (the merge: consumer,
// search and copy warps), in the block's shared memory: the stages, the window
// descriptors, the warps' write buffers.
//
// A warp actor is one fiber for its 32 lanes, so the scheduler interleaves warps but
// never two lanes of one warp, and nothing about its interleavings says whether two
// warps' accesses to a shared word were ordered by the barriers between them. On the
// GPU they race unless a chain of synchronisation orders them: a lane's own program
// order, an mbarrier phase (every arrival of the phase releases what its lane did
// before; a wait that sees the phase complete acquires all of them), __syncwarp
// among a warp's lanes, __syncthreads among all. This is happens-before with vector
// clocks, one clock per thread (lane) of the block, as race detectors for threads
// keep them (FastTrack, Flanagan and Freund, PLDI 2009: a word's last write as one
// epoch, its reads since as a few epochs).
//
// Which thread makes an access: inside for_each_lane, lane l's body is thread
// 32 * warp + l; warp-uniform code (outside it) is checked as the warp's leader,
// lane 0 - the lane that runs code under x.leader() on the GPU, where the merge's
// uniform shared accesses are (the descriptor's write, the stage's element-wise
// ends); a word every lane reads in uniform code is checked once, as lane 0's read.
// A bulk copy's writes are its issuing thread's, at the issue (the engine's writes
// complete the barrier phase the issuer arrives on, so a reader that waited for the
// phase is ordered after them, and one that did not is not).
//
// The checker costs nothing until the block's shared memory is first viewed through
// the context (x.private_view): P-Sync's step actors share a SimBlock for its
// barrier alone. The first race ends the run (Simulator::race), both accesses named.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/memory/access_site.h"

namespace gpulin::sim {

class Simulator;

// One thread's clock: an entry per thread of the block.
using LaneClock = std::vector<uint32_t>;

// Which code made an access, for reports.
enum class LaneCode : uint8_t {
  Lanes,     // a for_each_lane body (site: the for_each_lane)
  Uniform,   // warp-uniform code (site: the warp's last barrier operation before it)
  BulkCopy,  // a bulk copy's writes (site: the bulk_load)
};

struct LaneAccess {
  static constexpr uint32_t kNone = ~0u;
  uint32_t thread = kNone;
  uint32_t clock = 0;
  uint32_t code = 0;  // an index into LaneClocks' codes
};

// What a word of the block's shared memory saw: its last write, and the reads since
// that no later read of theirs is ordered after (two concurrent readers keep two).
struct LaneShadow {
  LaneAccess write;
  std::vector<LaneAccess> reads;
};

class LaneClocks {
 public:
  static constexpr uint32_t kLanes = 32;

  LaneClocks(Simulator& sim, uint32_t warps) : sim_(sim), warps_(warps) {}

  // The block's shared memory is viewed through the context: clocks start.
  void enable();
  bool enabled() const { return !clocks_.empty(); }
  // Actor `actor` is warp `warp` of the block.
  void attach(uint32_t actor, uint32_t warp);

  // The actor's lane now running (inside for_each_lane), or its leader (uniform
  // code), and the code its accesses are in.
  void lane(uint32_t actor, uint32_t lane) { lane_of_[actor] = lane; }
  void code(uint32_t actor, LaneCode kind, const memory::SourceSite& at);

  // Accesses by the running actor's current thread to word `word` (for reports) of
  // the shared memory; the first race ends the run.
  void read(LaneShadow& s, uint64_t word);
  void write(LaneShadow& s, uint64_t word);

  // Synchronisation. release: the actor's current thread's clock joins `into` (an
  // mbarrier phase's arrivals), and its own entry moves on. acquire_warp: every lane
  // of the actor's warp joins `from` (a wait that saw the phase complete).
  // warp_sync: the warp's lanes join one another. block_barrier: every thread of
  // the block joins every other (all warps at __syncthreads).
  void release(uint32_t actor, LaneClock& into);
  void acquire_warp(uint32_t actor, const LaneClock& from);
  void warp_sync(uint32_t actor);
  void block_barrier();

  [[noreturn]] void out_of_bounds(uint64_t word, uint64_t words);

 private:
  struct Code {
    LaneCode kind;
    memory::SourceSite at;
  };
  uint32_t thread(uint32_t actor) const { return warp_of_[actor] * kLanes + lane_of_[actor]; }
  LaneAccess now(uint32_t t) const;
  bool ordered(const LaneAccess& a, uint32_t t) const {
    return a.thread == LaneAccess::kNone || a.thread == t || a.clock <= clocks_[t][a.thread];
  }
  uint32_t intern(LaneCode kind, const memory::SourceSite& at);
  [[noreturn]] void report(const LaneAccess& first, const char* first_did, const char* second_did, uint64_t word);
  std::string describe(const LaneAccess& a, const char* did) const;

  Simulator& sim_;
  uint32_t warps_;
  std::vector<LaneClock> clocks_;   // per thread (32 * warps), empty until enabled
  std::vector<uint32_t> warp_of_;   // per actor of the run
  std::vector<uint32_t> lane_of_;   // per actor: the lane running now (0: the leader)
  std::vector<uint32_t> code_of_;   // per actor: the code running now
  std::vector<Code> codes_;         // every code that made an access, interned
};

}  // namespace gpulin::sim
