#include "sim/memory/model_memory.h"

#include <fmt/format.h>

#include "sim/memory/access_site.h"

namespace gpulin::sim::memory {

namespace {
const uint32_t* low_word(const uint64_t* p) { return reinterpret_cast<const uint32_t*>(p); }
uint32_t low(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t high(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
}  // namespace

namespace {
std::vector<Place> own_ctas(uint32_t actors) {
  std::vector<Place> places(actors);
  for (uint32_t a = 0; a < actors; ++a) places[a].cta = a;
  return places;
}
}  // namespace

ModelMemory::ModelMemory(uint32_t actors) : model_(own_ctas(actors)), rereads_(actors) { model_.check_races(true); }

void ModelMemory::reset(uint32_t actors) {
  guard_.release();
  model_.reset(own_ctas(actors));
  live_pages_ = 0;
  last_page_ = 0;
  newest_.clear();
  address_.clear();
  rereads_.assign(actors, Rereads{});
  stale_marks_.clear();
  stale_reads_ = outside_writes_ = 0;
  record_clock_ = 0;
}

uint32_t& ModelMemory::slot(const uint32_t* p) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  const uintptr_t base = addr & ~(kPageBytes - 1);
  if (last_page_ >= live_pages_ || pages_[last_page_].base != base) {
    last_page_ = 0;
    while (last_page_ < live_pages_ && pages_[last_page_].base != base) ++last_page_;
    if (last_page_ == live_pages_) {
      if (live_pages_ == pages_.size()) pages_.emplace_back();
      Page& page = pages_[live_pages_++];
      page.base = base;
      page.loc_plus_one.assign(kPageBytes / sizeof(uint32_t), 0);
    }
  }
  return pages_[last_page_].loc_plus_one[(addr - base) / sizeof(uint32_t)];
}

uint32_t ModelMemory::location(const uint32_t* p) {
  uint32_t& s = slot(p);
  const uint32_t now = unguarded_load(p);
  if (s == 0) {
    s = model_.add_location(now) + 1;
    newest_.push_back(now);
    address_.push_back(p);
    if (guarding_ && p != &record_clock_) guard_.guard(p);  // the model's own counter is not a structure's
    return s - 1;
  }
  const uint32_t loc = s - 1;
  if (newest_[loc] != now) {
    ++outside_writes_;
    model_.outside_store(loc, now);
    newest_[loc] = now;
  }
  return loc;
}

uint32_t ModelMemory::read(uint32_t actor, uint32_t loc, Order o, Scope s, const Choose& choose, const AccessTag& tag) {
  Rereads& r = rereads_[actor];
  if (r.loc != loc) r = {loc, 0};
  const bool bounded = r.stale >= kStaleRereads;
  const auto v = static_cast<uint32_t>(model_.load(actor, loc, o, s, [&](uint32_t n) { return bounded ? n - 1 : choose(n); }, tag));
  if (const PtxMemory::ReadFrom from = model_.last_read(actor); from.index + 1 < model_.stores(loc)) {
    ++r.stale;
    ++stale_reads_;
    if (stale_marks_.size() < kMaxMarks)
      stale_marks_.push_back(Mark{false, model_.store_access(loc, from.index), RaceAccess{actor, false, o, s, tag},
                                  address_[loc], model_.stores(loc) - from.index - 1});
  } else {
    r.stale = 0;
  }
  return v;
}

uint32_t ModelMemory::load(uint32_t actor, const uint32_t* p, Order o, Scope s, const Choose& choose,
                          const AccessTag& tag) {
  return read(actor, location(p), o, s, choose, tag);
}

uint64_t ModelMemory::load(uint32_t actor, const uint64_t* p, Order o, Scope s, const Choose& choose,
                          const AccessTag& tag) {
  const uint32_t lo = location(low_word(p)), hi = location(low_word(p) + 1);
  const uint32_t v_lo = read(actor, lo, o, s, choose, tag);
  const uint32_t index = model_.last_read(actor).index;
  uint32_t v_hi = 0;
  if (o != Order::Weak && model_.stores(lo) == model_.stores(hi)) {
    // Single-copy atomic: the high half from the store the low half came from
    // (the candidates end at the newest store; `index` is among them, as the two
    // words' views move together).
    v_hi = read(actor, hi, o, s, [&](uint32_t n) {
      const uint32_t first = model_.stores(hi) - n;
      return index >= first ? index - first : 0;
    }, tag);
  } else {
    v_hi = read(actor, hi, o, s, choose, tag);
  }
  return uint64_t{v_hi} << 32 | v_lo;
}

void ModelMemory::store(uint32_t actor, const uint32_t* p, uint32_t v, Order o, Scope s, const AccessTag& tag) {
  const uint32_t loc = location(p);
  model_.store(actor, loc, v, o, s, tag);
  newest_[loc] = v;
}

void ModelMemory::store(uint32_t actor, const uint64_t* p, uint64_t v, Order o, Scope s, const AccessTag& tag) {
  store(actor, low_word(p), low(v), o, s, tag);
  store(actor, low_word(p) + 1, high(v), o, s, tag);
}

void ModelMemory::rmw(uint32_t actor, const uint32_t* p, std::optional<uint32_t> next, Order o, Scope s,
                      const AccessTag& tag) {
  const uint32_t loc = location(p);
  model_.rmw(actor, loc, o, s, [&](uint64_t) { return next ? std::optional<uint64_t>(*next) : std::nullopt; }, tag);
  if (next) newest_[loc] = *next;
  rereads_[actor] = {};
}

void ModelMemory::rmw(uint32_t actor, const uint64_t* p, std::optional<uint64_t> next, Order o, Scope s,
                      const AccessTag& tag) {
  rmw(actor, low_word(p), next ? std::optional<uint32_t>(low(*next)) : std::nullopt, o, s, tag);
  rmw(actor, low_word(p) + 1, next ? std::optional<uint32_t>(high(*next)) : std::nullopt, o, s, tag);
}

std::string ModelMemory::access_text(const RaceAccess& a) {
  std::string order = to_string(a.order);
  if (a.order != Order::Weak) order += std::string(".") + to_string(a.scope);
  const std::string op = a.tag.op < 0 ? "outside any operation" : fmt::format("history op {}", a.tag.op);
  return fmt::format("actor {} ({}) {} {} at {}", a.thread, op, a.write ? "write" : "read", order, site_text(a.tag.site()));
}

std::string ModelMemory::describe(const Mark& m) {
  if (m.race)
    return fmt::format("data race on word {}: {}, then {}: no causality orders them and they are not morally strong",
                       m.word, access_text(m.earlier), access_text(m.later));
  return fmt::format("stale read of word {}: {} returned {}, not the {} store{} after it", m.word, access_text(m.later),
                     m.earlier.thread == PtxMemory::kInitial ? "the value the word held before the run"
                                                              : "what " + access_text(m.earlier) + " wrote",
                     m.newer, m.newer == 1 ? "" : "s");
}

std::string ModelMemory::describe_race() const {
  const std::optional<Race>& r = model_.race();
  return r ? describe(Mark{true, r->earlier, r->later, address_[r->loc], 0}) : "";
}

std::vector<ModelMemory::Mark> ModelMemory::marks() const {
  std::vector<Mark> out = stale_marks_;
  if (const std::optional<Race>& r = model_.race()) out.push_back(Mark{true, r->earlier, r->later, address_[r->loc], 0});
  return out;
}

}  // namespace gpulin::sim::memory
