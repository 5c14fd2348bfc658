#include "sim/strategies/dpor_strategy.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "sim/trace/trace_clocks.h"

namespace gpulin::sim {

namespace {
constexpr ActorSet bit(uint32_t a) { return ActorSet(1) << a; }
ActorSet first_n(uint32_t n) { return n >= 64 ? ~ActorSet(0) : bit(n) - 1; }
[[noreturn]] void nondeterministic(uint64_t step) {
  throw std::logic_error("dpor: decision " + std::to_string(step) +
                         " differs from the last run's under the same earlier decisions (the program must be "
                         "deterministic given its schedule)");
}
}  // namespace

bool DporStrategy::begin_run(uint32_t actors) {
  actors_ = actors;
  sleep_now_.clear();
  events_seen_ = 0;
  ran_ = 0;
  redundant_ = false;
  if (!started_) {
    started_ = true;
    return true;
  }
  // The deepest decision with an alternative left: a value not chosen yet, or an
  // actor of its backtrack set neither run from there nor asleep.
  while (!stack_.empty()) {
    Frame& f = stack_.back();
    if (!f.fixed && f.choice) {
      f.done |= bit(f.chosen);
      if (const ActorSet left = f.backtrack & ~f.done) {
        f.chosen = lowest(left);
        ++stats_.value_choices;
        return true;
      }
    } else if (!f.fixed) {
      if (!contains(f.done, f.chosen)) {
        f.done |= bit(f.chosen);
        f.done_events.push_back({f.chosen, f.event});
      }
      if (const ActorSet left = f.backtrack & ~f.done & eligible(f)) {
        f.chosen = lowest(left);
        f.event_known = false;
        return true;
      }
      const ActorSet skipped = f.enabled & ~f.done;
      stats_.pruned += count(skipped);
      for (ActorSet s = skipped; s; s &= s - 1)
        if (representative(f, lowest(s)) != lowest(s)) ++stats_.symmetric;
    }
    stack_.pop_back();
  }
  exhausted_ = true;
  return false;
}

uint32_t DporStrategy::representative(const Frame& f, uint32_t a) const {
  if (roles_.size() <= a || contains(f.started, a)) return a;
  for (uint32_t b = 0; b < a; ++b)
    if (roles_.size() > b && roles_[b] == roles_[a] && !contains(f.started, b) && contains(f.enabled, b)) return b;
  return a;
}

ActorSet DporStrategy::eligible(const Frame& f) const {
  ActorSet e = f.enabled;
  for (const Sleeper& s : f.sleep) e &= ~bit(s.actor);
  for (ActorSet s = e; s; s &= s - 1)
    if (representative(f, lowest(s)) != lowest(s)) e &= ~bit(lowest(s));
  return e;
}

void DporStrategy::advance_sleep() {
  const auto& events = log_.events();
  for (; events_seen_ < events.size(); ++events_seen_) {
    const EventLog::Event& e = events[events_seen_];
    const uint32_t a = e.actor;
    // An actor that has touched nothing shared is where its program starts (it is
    // deterministic and has read nothing): for symmetry, not started.
    if (e.last > e.first || e.records) ran_ |= bit(a);
    // An actor asleep runs only when no other can (the others parked or finished,
    // so no decision): the run is then equivalent to one run already.
    if (!redundant_ && std::any_of(sleep_now_.begin(), sleep_now_.end(), [a](const Sleeper& s) { return s.actor == a; })) {
      redundant_ = true;
      blocked_at_event_ = events_seen_;
    }
    // An await changes nothing: it wakes no sleeper.
    const bool await = log_.is_await(events_seen_);
    std::erase_if(sleep_now_, [&](const Sleeper& s) {
      return s.actor == a || (!await && log_.depends(s.next, events_seen_));
    });
  }
}

uint32_t DporStrategy::pick(ActorSet runnable, uint32_t current, uint64_t step) {
  advance_sleep();
  if (step < stack_.size()) {
    Frame& f = stack_[step];
    if (f.choice || f.enabled != runnable) nondeterministic(step);
  } else {
    Frame f;
    f.enabled = runnable;
    f.started = ran_;
    f.sleep = sleep_now_;
    if (step < prefix_.size()) {
      f.fixed = true;
      f.chosen = prefix_[step];
      if (is_choice(f.chosen) || !contains(runnable, f.chosen))
        throw std::invalid_argument("dpor: the prefix does not fit the program at decision " + std::to_string(step));
    } else if (const ActorSet can = eligible(f)) {
      f.chosen = contains(can, current) ? current : lowest(can);
    } else {
      // Every runnable actor sleeps: this run is equivalent to one run already.
      if (!redundant_) blocked_at_event_ = log_.events().size();
      redundant_ = true;
      f.chosen = contains(runnable, current) ? current : lowest(runnable);
    }
    f.backtrack = bit(f.chosen);
    stack_.push_back(std::move(f));
  }
  // After the pick, the frame's sleepers and the actors run from it before sleep,
  // all but the one picked.
  const Frame& f = stack_[step];
  sleep_now_ = f.sleep;
  sleep_now_.insert(sleep_now_.end(), f.done_events.begin(), f.done_events.end());
  std::erase_if(sleep_now_, [&](const Sleeper& s) { return s.actor == f.chosen; });
  return f.chosen;
}

uint32_t DporStrategy::choose(uint32_t options, uint64_t step) {
  if (step < stack_.size()) {
    if (!stack_[step].choice || stack_[step].enabled != first_n(options)) nondeterministic(step);
    return stack_[step].chosen;
  }
  Frame f;
  f.choice = true;
  f.enabled = first_n(options);
  if (step < prefix_.size()) {
    f.fixed = true;
    if (!is_choice(prefix_[step]) || unmarked(prefix_[step]) >= options)
      throw std::invalid_argument("dpor: the prefix does not fit the program at decision " + std::to_string(step));
    f.chosen = unmarked(prefix_[step]);
  } else {
    f.chosen = options - 1;  // the newest store first: the run sc would make
    f.backtrack = f.enabled;
  }
  stack_.push_back(std::move(f));
  return stack_[step].chosen;
}

void DporStrategy::end_run(uint64_t decisions) {
  advance_sleep();  // the events after the last decision
  ++stats_.runs;
  if (redundant_) ++stats_.redundant;
  if (stack_.size() > decisions) stack_.resize(decisions);  // a run that ended early
  const auto& events = log_.events();
  for (size_t k = 0; k < events.size(); ++k) {
    const uint32_t d = events[k].decision;
    if (d == EventLog::kForced || d >= stack_.size()) continue;
    Frame& f = stack_[d];
    if (!f.event_known) {
      f.event = log_.footprint(k);
      f.event_known = true;
    } else if (!log_.matches(f.event, k)) {
      // Sleep sets compare events of different runs by their words.
      const auto& e = events[k];
      char word[32] = "none";
      if (e.last > e.first) std::snprintf(word, sizeof word, "%#llx", static_cast<unsigned long long>(log_.accesses()[e.first].word));
      throw std::logic_error(
          "dpor: the event at decision " + std::to_string(d) + " (actor " + std::to_string(e.actor) +
          ", first word " + word +
          ") touched other words than in an earlier run of the same decisions: the program's shared memory moved "
          "between runs; its runner must declare it (Simulator::set_shared_regions)");
    }
  }
  reverse_races(redundant_ ? blocked_at_event_ : events.size());
}

void DporStrategy::reverse_races(size_t usable) {
  const auto& ev = log_.events();
  const TraceClocks tc(log_, actors_, true);
  trace_ = tc.fingerprint();
  constexpr uint32_t kNone = ~0u;
  std::vector<uint32_t> first(actors_);
  for (const auto& [i, j] : tc.races()) {
    if (j >= usable) break;  // races come in the order of their later event
    ++stats_.races;
    const uint32_t d = ev[i].decision;
    if (d == EventLog::kForced || d >= stack_.size()) continue;
    Frame& f = stack_[d];
    if (f.fixed || f.choice) continue;
    const uint32_t q = ev[j].actor;
    // v: the events after i not after it in happens-before, then j. Each actor's
    // events in v are a prefix of its events after i (what follows one after i in
    // its program is after i too), so its first one in v is its first after i,
    // when that is not after i.
    std::fill(first.begin(), first.end(), kNone);
    uint32_t found = 0;
    for (uint32_t k = i + 1; k < j && found < actors_; ++k) {
      const uint32_t a = ev[k].actor;
      if (first[a] != kNone || log_.is_await(k)) continue;  // an await is no step of v
      ++found;
      first[a] = tc.before(i, k) ? kNone - 1 : k;  // kNone - 1: none in v
    }
    for (uint32_t& x : first)
      if (x == kNone - 1) x = kNone;
    if (first[q] == kNone) first[q] = j;
    // Initials: actors whose first event in v follows no other event of v.
    ActorSet initials = 0;
    for (uint32_t a = 0; a < actors_; ++a) {
      if (first[a] == kNone) continue;
      bool initial = true;
      for (uint32_t b = 0; b < actors_ && initial; ++b)
        if (b != a && first[b] != kNone && first[b] < first[a] && tc.before(first[b], first[a])) initial = false;
      if (initial) initials |= bit(representative(f, a));
    }
    // An initial parked before i cannot start the reordering there: one woken by i
    // itself has no reordering at all; one woken by another actor's event in v is
    // not an initial (that event comes first).
    initials &= f.enabled;
    if (initials == 0 || (initials & (f.backtrack | f.done))) continue;
    const uint32_t rq = representative(f, q);
    f.backtrack |= bit(contains(initials, rq) ? rq : lowest(initials));
    ++stats_.reversals;
  }
}

}  // namespace gpulin::sim
