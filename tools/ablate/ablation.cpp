#include "tools/ablate/ablation.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>

#include "tools/explore/replay_fields.h"

namespace gpulin::ablate {

namespace mem = sim::memory;

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Needed: return "needed";
    case Verdict::NotShownNeeded: return "not shown needed";
    case Verdict::FailsUnderSc: return "fails without it too";
    case Verdict::NotReproduced: return "not reproduced";
  }
  return "?";
}

Inventory inventory(const registry::StructureRow& row, registry::Selection s, const explore::ExploreOptions& o) {
  auto sites = std::make_shared<mem::SiteInventory>();
  s.memory = mem::MemoryMode::Ptx;
  s.memory.inventory = sites;
  Inventory inv;
  explore::ExploreOptions quiet = o;
  quiet.progress = false;
  quiet.out_dir.clear();
  inv.as_written = row.explore(quiet, s);
  // Group by line: one weakening changes every access of its kind at the line.
  std::map<std::tuple<std::string, uint32_t, mem::Weaken>, Ablation> by_line;
  for (const mem::OrderingSite& site : sites->sites())
    for (mem::Weaken w : mem::weakenings_of(site)) {
      Ablation& a = by_line[{site.file, site.line, w}];
      a.weakening = {site.file, site.line, w};
      a.accesses.push_back(std::string(mem::to_string(site.kind)) + " " + mem::to_string(site.order) + "." +
                           mem::to_string(site.scope));
    }
  for (auto& [key, a] : by_line) inv.ablations.push_back(std::move(a));
  return inv;
}

AblationResult run_ablation(const registry::StructureRow& row, registry::Selection s, const explore::ExploreOptions& o,
                            const Ablation& a) {
  s.memory = mem::MemoryMode::Ptx;
  s.memory.weakening = a.weakening;
  explore::ExploreOptions quiet = o;
  quiet.progress = false;
  quiet.out_dir.clear();
  const explore::ExploreSummary sum = row.explore(quiet, s);
  AblationResult r;
  r.ablation = a;
  r.schedules = sum.schedules;
  // The first bug found (the earliest schedule): what the weakening breaks.
  const explore::FailureReport* first = nullptr;
  for (const auto& [kind, f] : sum.first)
    if (explore::is_bug(kind) && (!first || std::tie(f.unit, f.found_at) < std::tie(first->unit, first->found_at)))
      first = &f;
  if (!first) return r;
  r.kind = first->kind;
  r.message = first->message;
  r.schedule = first->schedule;
  r.ops = first->ops;
  // A replay that does not fit (it throws) did not fail as found.
  const auto fails = [&](const std::string& schedule) {
    try {
      return explore::is_bug(row.replay(schedule, o.max_points).judgement.failure);
    } catch (const std::exception&) {
      return false;
    }
  };
  // Needed only if the same interleaving passes under sc and, under ptx with the
  // same reads, with the ordering as written: else the failure is the code's.
  if (!fails(r.schedule))
    r.verdict = Verdict::NotReproduced;
  else if (fails(explore::with_memory_mode(r.schedule, mem::MemoryMode::Sc)) ||
           fails(explore::with_memory_mode(r.schedule, mem::MemoryMode::Ptx)))
    r.verdict = Verdict::FailsUnderSc;
  else
    r.verdict = Verdict::Needed;
  return r;
}

std::vector<AblationResult> run_ablations(const registry::StructureRow& row, const registry::Selection& s,
                                          const explore::ExploreOptions& o, const std::vector<Ablation>& ablations,
                                          unsigned jobs, const std::function<void(size_t, const AblationResult&)>& done) {
  std::vector<AblationResult> results(ablations.size());
  std::atomic<size_t> next{0};
  std::mutex report;
  const auto work = [&] {
    for (size_t i; (i = next++) < ablations.size();) {
      results[i] = run_ablation(row, s, o, ablations[i]);
      if (done) {
        std::lock_guard<std::mutex> hold(report);
        done(i, results[i]);
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < std::max(1u, jobs); ++j) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return results;
}

}  // namespace gpulin::ablate
