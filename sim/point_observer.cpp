#include "sim/point_observer.h"

#include <algorithm>
#include <cstring>

#include "histories/recorder.h"

namespace gpulin::sim {

namespace {
thread_local PointObserver* current = nullptr;
}  // namespace

PointObserver::Installed::Installed(PointObserver& o) : before_(current) { current = &o; }
PointObserver::Installed::~Installed() { current = before_; }
PointObserver* PointObserver::installed() { return current; }

void PointObserver::begin(const std::vector<memory::GuardedRange>& shared, const std::vector<memory::GuardedRange>& named) {
  states_ = PointStates{};
  regions_ = shared;
  regions_.insert(regions_.end(), named.begin(), named.end());
  size_t words = 0;
  for (const memory::GuardedRange& r : regions_) {
    states_.region_words.push_back(static_cast<uint32_t>((r.bytes + 3) / 4));
    words += states_.region_words.back();
  }
  // A keyframe costs its words, a step its few changes: about as many words a
  // keyframe as steps between keyframes keeps the two alike.
  states_.keyframe_every = static_cast<uint32_t>(std::clamp<size_t>(words, 64, 4096));
  last_.clear();
}

void PointObserver::take_state(uint32_t actor, const HostRecorder* recorder) {
  std::vector<uint32_t> now;
  now.reserve(last_.size());
  for (const memory::GuardedRange& r : regions_) {
    const size_t at = now.size();
    now.resize(at + (r.bytes + 3) / 4, 0);
    if (r.bytes) std::memcpy(now.data() + at, r.at, r.bytes);  // an empty input may have no address
  }
  const size_t p = states_.size();
  if (p % states_.keyframe_every == 0) states_.keyframes.push_back(now);
  if (p == 0) {
    states_.change_end.push_back(0);
  } else {
    for (size_t i = 0; i < now.size(); ++i)
      if (now[i] != last_[i]) {
        states_.changes.push_back(static_cast<uint32_t>(i));
        states_.changes.push_back(now[i]);
      }
    states_.change_end.push_back(static_cast<uint32_t>(states_.changes.size() / 2));
  }
  states_.actor.push_back(actor);
  states_.events.push_back(recorder ? recorder->size() : 0);
  last_ = std::move(now);
  if (stop_at_ && p == *stop_at_) {
    states_.outcome = "stopped";
    throw StoppedAtState{};
  }
}

void PointObserver::at_point(uint32_t actor, const HostRecorder* recorder) { take_state(actor, recorder); }

void PointObserver::end(uint32_t actor, const HostRecorder* recorder, std::string outcome) {
  take_state(actor, recorder);  // throws StoppedAtState where this is the state asked for
  states_.outcome = std::move(outcome);
}

}  // namespace gpulin::sim
