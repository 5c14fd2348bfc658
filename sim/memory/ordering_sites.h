// The ordering sites of a structure (`gpulin ablate`): each place in its source
// where it calls the execution context for an ordered access, with what the access
// is and the order and scope it asks for; and one of them weakened, the run's
// whole difference from the code as written.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/memory/access_site.h"
#include "sim/memory/ptx_memory.h"

namespace gpulin::sim::memory {

// What an access at a site is. Batch accesses (a heap node's keys) are apart from
// word accesses: the GPU makes them plain or relaxed loads and stores.
enum class AccessKind { Load, Store, Rmw, Fence, BatchLoad, BatchStore };
const char* to_string(AccessKind k);

// One way to weaken the accesses of one site: drop an acquire half (acquire ->
// relaxed, acq_rel -> release), drop a release half, drop a fence, narrow the
// scope from .gpu to .cta, or make a strong (relaxed) load or store weak.
enum class Weaken { NoAcquire, NoRelease, NoFence, CtaScope, Weak };
const char* to_string(Weaken w);
std::optional<Weaken> parse_weaken(std::string_view s);

// An ordering site: a source line (relative to the repository) and an access there.
struct OrderingSite {
  std::string file;
  uint32_t line = 0;
  AccessKind kind = AccessKind::Load;
  Order order = Order::Relaxed;
  Scope scope = Scope::Gpu;
  auto key() const { return std::tie(file, line, kind, order, scope); }
  bool operator<(const OrderingSite& o) const { return key() < o.key(); }
};
// The weakenings that change an access of this site (none for a weak access).
std::vector<Weaken> weakenings_of(const OrderingSite& s);

// The weakened site of a run: every access at file:line gets `what` (where it
// applies to the access; the others at that line stay as written).
struct Weakening {
  std::string file;
  uint32_t line = 0;
  Weaken what = Weaken::NoAcquire;
  bool operator==(const Weakening& o) const { return std::tie(file, line, what) == std::tie(o.file, o.line, o.what); }
  // Whether an access at `site` is at the weakened line.
  bool at(const SourceSite& site) const;
  // The order and scope an access of kind k at the weakened line gets; nullopt:
  // the access is dropped (a fence under NoFence).
  std::optional<std::pair<Order, Scope>> apply(AccessKind k, Order o, Scope s) const;
};
// "structures/gheap/td_insert.h@72@no-acquire" (a replay string's CONFIG holds it:
// no ':' or '|'), and back (throws std::invalid_argument naming `what`).
std::string weakening_text(const Weakening& w);
Weakening parse_weakening(std::string_view text, std::string_view what);

// The sites the runs of an exploration met (ablate's first pass). Runs add to it
// from one thread at a time; a lock keeps it whole where explorations share one.
class SiteInventory {
 public:
  void add(const SourceSite& at, AccessKind k, Order o, Scope s);
  std::vector<OrderingSite> sites() const;

 private:
  mutable std::mutex lock_;
  // As met: the file as the compiler named it (one text may come by several
  // pointers, one per translation unit; sites() merges them).
  using Met = std::tuple<const char*, uint32_t, AccessKind, Order, Scope>;
  std::set<Met> met_;
};

}  // namespace gpulin::sim::memory
