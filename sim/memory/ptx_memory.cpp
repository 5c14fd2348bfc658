#include "sim/memory/ptx_memory.h"

#include <algorithm>

namespace gpulin::sim::memory {

const char* to_string(Order o) {
  switch (o) {
    case Order::Weak: return "weak";
    case Order::Relaxed: return "relaxed";
    case Order::Acquire: return "acquire";
    case Order::Release: return "release";
    case Order::AcqRel: return "acq_rel";
    case Order::Sc: return "sc";
  }
  return "?";
}

const char* to_string(Scope s) {
  switch (s) {
    case Scope::Cta: return "cta";
    case Scope::Gpu: return "gpu";
    case Scope::Sys: return "sys";
  }
  return "?";
}

bool includes(Place a, Scope s, Place b) {
  switch (s) {
    case Scope::Cta: return a.cta == b.cta && a.gpu == b.gpu;
    case Scope::Gpu: return a.gpu == b.gpu;
    case Scope::Sys: return true;
  }
  return false;
}

namespace {
// A read can return at most this many stores (the newest ones): a choice among them
// is one strategy decision, and a decision picks from a set of at most 64.
constexpr uint32_t kMaxCandidates = 64;
}  // namespace

PtxMemory::PtxMemory(std::vector<Place> places) { reset(places); }

void PtxMemory::reset(const std::vector<Place>& places) {
  threads_.resize(places.size());
  for (size_t t = 0; t < places.size(); ++t) {
    Thread& th = threads_[t];
    th.place = places[t];
    th.cur.clear();
    th.acquirable.clear();
    for (View& v : th.acquirable_joined) v.clear();
    th.fence_release = kNoView;
    th.fence_scope = Scope::Sys;
    th.last_read = {};
    th.last_taken = kNoView;
    th.release_heads.clear();
    for (auto& f : th.sc_fence) f = kNoView;
  }
  live_locs_ = 0;
  arena_.clear();
  race_.reset();
}

PtxMemory::Message PtxMemory::stored_outside(uint64_t value) {
  Message m;  // by no thread: strong, of every scope, releasing nothing
  m.value = value;
  return m;
}

uint32_t PtxMemory::add_location(uint64_t initial) {
  if (live_locs_ == locs_.size()) locs_.emplace_back();
  std::vector<Message>& stores = locs_[live_locs_];
  stores.clear();
  stores.push_back(stored_outside(initial));
  if (reads_.size() < locs_.size()) reads_.resize(locs_.size());
  reads_[live_locs_].clear();
  return live_locs_++;
}

void PtxMemory::outside_store(uint32_t loc, uint64_t value) {
  locs_[loc].push_back(stored_outside(value));
  const auto index = static_cast<uint32_t>(locs_[loc].size() - 1);
  for (Thread& t : threads_) {
    widen(t.cur);
    t.cur[at(loc)] = index;
  }
}

void PtxMemory::widen(View& v) const {
  if (v.size() < at(live_locs_)) v.resize(at(live_locs_), 0);
}

namespace {
// into[i] = max(into[i], from[i]) for i < n: the model's inner loop (every acquire
// and release), built for AVX2 too where the machine has it (an unsigned max per
// lane; baseline x86-64 has none and emulates it).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void max_into(uint32_t* __restrict into, const uint32_t* __restrict from, size_t n) {
  for (size_t i = 0; i < n; ++i) into[i] = std::max(into[i], from[i]);
}
}  // namespace

void join_views(View& into, const View& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  max_into(into.data(), from.data(), from.size());
}


void PtxMemory::join(View& into, ViewId from) const {
  const uint32_t n = arena_[from];
  if (into.size() < n) into.resize(n, 0);
  max_into(into.data(), arena_.data() + from + 1, n);
}

ViewId PtxMemory::freeze(const View& v) {
  const auto id = static_cast<ViewId>(arena_.size());
  arena_.push_back(static_cast<uint32_t>(v.size()));
  arena_.insert(arena_.end(), v.begin(), v.end());
  return id;
}

ViewId PtxMemory::joined(ViewId a, ViewId b) {
  if (a == kNoView) return b;
  if (b == kNoView) return a;
  const uint32_t na = arena_[a], nb = arena_[b], n = std::max(na, nb);
  const auto id = static_cast<ViewId>(arena_.size());
  arena_.resize(arena_.size() + 1 + n, 0);  // a and b stay valid as indices
  arena_[id] = n;
  uint32_t* out = arena_.data() + id + 1;
  std::copy_n(arena_.data() + a + 1, na, out);
  max_into(out, arena_.data() + b + 1, nb);
  return id;
}

bool PtxMemory::observe(uint32_t t, const Message& m, Order o, Scope s) {
  // Only strong accesses synchronise (a morally strong pair), and the initial
  // values carry nothing.
  if (o == Order::Weak || !m.strong || m.released == kNoView || m.writer == kInitial) return false;
  Thread& r = threads_[t];
  const Place writer = threads_[m.writer].place;
  if (!includes(writer, m.release_scope, r.place)) return false;  // the release does not reach t
  if (acquires(o) && includes(r.place, s, writer)) {
    // Views only grow, so a view taken in before is in the thread's view still
    // (a spin's re-reads, the stores one release fence covers).
    if (m.released != r.last_taken) join(r.cur, m.released);
    r.last_taken = m.released;
    return true;
  }
  // For a later acquire fence, of the narrowest scope that reaches the writer (a
  // view already taken in needs none; one pending already, no second entry).
  if (m.released == r.last_taken) return false;
  for (Scope fence_scope : {Scope::Cta, Scope::Gpu, Scope::Sys}) {
    if (!includes(r.place, fence_scope, writer)) continue;
    if (r.acquirable.empty() || r.acquirable.back().view != m.released || r.acquirable.back().needs != fence_scope)
      r.acquirable.push_back({m.released, fence_scope});
    break;
  }
  if (r.acquirable.size() > kMaxPendingViews) {
    for (const Thread::Pending& p : r.acquirable) join(r.acquirable_joined[static_cast<int>(p.needs)], p.view);
    r.acquirable.clear();
  }
  return false;
}

bool PtxMemory::morally_strong(uint32_t t, Scope s, const Message& m) const {
  if (m.writer == kInitial) return true;  // the initial values: before every thread
  if (!m.strong) return false;
  const Place r = threads_[t].place, w = threads_[m.writer].place;
  return includes(r, s, w) && includes(w, m.scope, r);
}

bool PtxMemory::strong_pair(uint32_t a, Order oa, Scope sa, uint32_t b, Order ob, Scope sb) const {
  const Place pa = threads_[a].place, pb = threads_[b].place;
  return oa != Order::Weak && ob != Order::Weak && includes(pa, sa, pb) && includes(pb, sb, pa);
}

void PtxMemory::found(uint32_t loc, RaceAccess earlier, RaceAccess later) {
  if (!race_) race_ = Race{loc, earlier, later};
}

void PtxMemory::check_stores(uint32_t t, uint32_t loc, bool write, Order o, Scope s, const AccessTag& tag) {
  const Thread& r = threads_[t];
  const auto& stores = locs_[loc];
  const auto size = static_cast<uint32_t>(stores.size());
  // Stores up to the thread's view of the location it has observed (or a store
  // after them): causality orders them before this access.
  const uint32_t from = std::max(r.cur[at(loc)] + 1, size > kMaxCandidates ? size - kMaxCandidates : 0u);
  for (uint32_t i = size; i-- > from;) {
    const Message& m = stores[i];
    if (m.writer == kInitial || m.writer == t || r.cur[m.writer] >= m.epoch) continue;
    if (strong_pair(m.writer, m.order, m.scope, t, o, s)) continue;
    return found(loc, {m.writer, true, m.order, m.scope, m.tag}, {t, write, o, s, tag});
  }
}

void PtxMemory::check_reads(uint32_t t, uint32_t loc, Order o, Scope s, const AccessTag& tag) {
  const Thread& w = threads_[t];
  for (const ReadMark& m : reads_[loc]) {
    if (m.thread == t) continue;
    const uint32_t known = w.cur[m.thread];
    if (m.weak_epoch > known)
      return found(loc, {m.thread, false, Order::Weak, Scope::Cta, m.weak_tag}, {t, true, o, s, tag});
    if (m.strong_epoch > known && !strong_pair(m.thread, m.strong_order, m.strong_scope, t, o, s))
      return found(loc, {m.thread, false, m.strong_order, m.strong_scope, m.strong_tag}, {t, true, o, s, tag});
  }
}

void PtxMemory::mark_read(uint32_t t, uint32_t loc, uint32_t epoch, Order o, Scope s, const AccessTag& tag) {
  auto& marks = reads_[loc];
  // The last reader first: a thread's reads of a location tend to come together.
  auto it = !marks.empty() && marks.back().thread == t
                ? marks.end() - 1
                : std::find_if(marks.begin(), marks.end(), [t](const ReadMark& m) { return m.thread == t; });
  if (it == marks.end()) {
    it = marks.insert(marks.end(), ReadMark{});
    it->thread = t;
  }
  if (o == Order::Weak) {
    it->weak_epoch = epoch;
    it->weak_tag = tag;
  } else {
    it->strong_epoch = epoch;
    it->strong_order = o;
    it->strong_scope = s;
    it->strong_tag = tag;
  }
}

PtxMemory::Message PtxMemory::message(uint32_t t, uint64_t value, Order o, Scope s) {
  const Thread& w = threads_[t];
  Message m;
  m.value = value;
  m.writer = t;
  m.release_scope = s;
  m.strong = o != Order::Weak;
  m.scope = s;
  m.order = o;
  if (releases(o)) {
    m.released = freeze(w.cur);
  } else if (m.strong && w.fence_release != kNoView) {
    m.released = w.fence_release;
    m.release_scope = w.fence_scope;
  }
  return m;
}

uint64_t PtxMemory::load(uint32_t t, uint32_t loc, Order o, Scope s, ChooseRef choose, const AccessTag& tag) {
  Thread& r = threads_[t];
  widen(r.cur);
  const uint32_t epoch = tick(t);
  if (check_races_) {
    check_stores(t, loc, false, o, s, tag);
    mark_read(t, loc, epoch, o, s, tag);
  }
  const auto& stores = locs_[loc];
  const auto size = static_cast<uint32_t>(stores.size());
  uint32_t first = r.cur[at(loc)];
  if (size - first > kMaxCandidates) first = size - kMaxCandidates;
  const uint32_t n = size - first;
  const uint32_t index = first + (n > 1 ? std::min(choose(n), n - 1) : 0);
  const Message& m = stores[index];
  if (o != Order::Weak && morally_strong(t, s, m)) r.cur[at(loc)] = std::max(r.cur[at(loc)], index);
  observe(t, m, o, s);
  r.last_read = {m.writer, index};
  return m.value;
}

void PtxMemory::store(uint32_t t, uint32_t loc, uint64_t value, Order o, Scope s, const AccessTag& tag) {
  Thread& w = threads_[t];
  widen(w.cur);
  const uint32_t epoch = tick(t);
  if (check_races_) {
    check_stores(t, loc, true, o, s, tag);
    check_reads(t, loc, o, s, tag);
  }
  w.cur[at(loc)] = static_cast<uint32_t>(locs_[loc].size());  // the release view includes the store
  Message m = message(t, value, o, s);
  m.epoch = epoch;
  m.tag = tag;
  if (releases(o)) {
    auto head = std::find_if(w.release_heads.begin(), w.release_heads.end(), [loc](const auto& h) { return h.first == loc; });
    if (head == w.release_heads.end()) head = w.release_heads.insert(w.release_heads.end(), {loc, {}});
    head->second = {m.released, s};
  } else if (m.strong) {
    // A later strong store of the thread to its release's location carries it on.
    for (const auto& [at, head] : w.release_heads) {
      if (at != loc) continue;
      if (m.released == kNoView) m.release_scope = head.scope;
      m.released = joined(m.released, head.view);
    }
  }
  locs_[loc].push_back(std::move(m));
}

uint64_t PtxMemory::rmw(uint32_t t, uint32_t loc, Order o, Scope s,
                        UpdateRef update, const AccessTag& tag) {
  Thread& w = threads_[t];
  widen(w.cur);
  const uint32_t epoch = tick(t);
  const auto index = static_cast<uint32_t>(locs_[loc].size() - 1);
  // The store it reads, until its own goes after it (which may move the vector).
  const Message& old = locs_[loc][index];
  const uint64_t old_value = old.value;
  const std::optional<uint64_t> now = update(old_value);
  if (check_races_) {
    check_stores(t, loc, now.has_value(), o, s, tag);
    // One that writes is checked later as its store is; one that fails, as a read.
    if (now) check_reads(t, loc, o, s, tag);
    else mark_read(t, loc, epoch, o, s, tag);
  }
  w.cur[at(loc)] = index;
  const bool took_in = observe(t, old, acquires(o) ? Order::Acquire : Order::Relaxed, s);
  w.last_read = {old.writer, index};
  if (now) {
    w.cur[at(loc)] = index + 1;
    Message m = message(t, *now, o, s);
    m.epoch = epoch;
    m.tag = tag;
    // A release sequence: an RMW carries on what the store it read released
    // (already in its own released view when it acquired that: then not joined).
    if (old.released != kNoView && old.writer != kInitial && !(took_in && releases(o))) {
      if (m.released == kNoView) m.release_scope = old.release_scope;
      m.released = joined(m.released, old.released);
    }
    locs_[loc].push_back(std::move(m));
  }
  return old_value;
}

void PtxMemory::fence(uint32_t t, Order o, Scope s) {
  Thread& f = threads_[t];
  widen(f.cur);
  if (acquires(o)) {
    // A fence of scope s reaches the writers a narrower scope reaches. What it
    // takes in is part of the view now, which only grows: dropped.
    const auto reaches = [s](Scope needs) { return static_cast<int>(needs) <= static_cast<int>(s); };
    std::erase_if(f.acquirable, [&](const Thread::Pending& p) {
      if (!reaches(p.needs)) return false;
      join(f.cur, p.view);
      return true;
    });
    for (Scope needs : {Scope::Cta, Scope::Gpu, Scope::Sys})
      if (reaches(needs)) {
        View& v = f.acquirable_joined[static_cast<int>(needs)];
        if (!v.empty()) join_views(f.cur, v);
        v.clear();
      }
  }
  if (o == Order::Sc) {
    // The SC fences it is morally strong with, earlier in the (total) order they
    // ran in: it takes in their views.
    for (uint32_t u = 0; u < threads_.size(); ++u) {
      if (u == t) continue;
      for (Scope other : {Scope::Cta, Scope::Gpu, Scope::Sys}) {
        const ViewId v = threads_[u].sc_fence[static_cast<int>(other)];
        if (v != kNoView && includes(f.place, s, threads_[u].place) && includes(threads_[u].place, other, f.place))
          join(f.cur, v);
      }
    }
    f.sc_fence[static_cast<int>(s)] = freeze(f.cur);
  }
  if (releases(o)) {
    f.fence_release = freeze(f.cur);
    f.fence_scope = s;
  }
}

void PtxMemory::barrier(const std::vector<uint32_t>& participants) {
  View all;
  for (uint32_t p : participants) join_views(all, threads_[p].cur);
  widen(all);
  for (uint32_t p : participants) threads_[p].cur = all;
}

}  // namespace gpulin::sim::memory
