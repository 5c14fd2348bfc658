// Watching a simulated run point by point: while a PointObserver is installed on
// this thread (PointObserver::Installed), every Simulator::run takes the words of
// the regions its runner declared at each scheduling point into the observer's
// PointStates (histories/point_states.h), without any change to the structure or its
// runner. What the stepper of gpulin render draws, and what `gpulin replay
// --state-at` prints. A run not observed pays nothing for it (Simulator::point).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "histories/point_states.h"
#include "sim/memory/direct_access_guard.h"

namespace gpulin {
class HostRecorder;
}

namespace gpulin::sim {

// Thrown from inside the run at the state a stopping observer waits for: the run
// ends there, as a replay stopped at that point.
struct StoppedAtState : std::runtime_error {
  StoppedAtState() : std::runtime_error("stopped at the state asked for") {}
};

class PointObserver {
 public:
  // `stop_at`: end the run (StoppedAtState) once state p is taken.
  explicit PointObserver(std::optional<uint64_t> stop_at = {}) : stop_at_(stop_at) {}

  // While one lives, runs on this thread are observed by `o`.
  class Installed {
   public:
    explicit Installed(PointObserver& o);
    ~Installed();
    Installed(const Installed&) = delete;
    Installed& operator=(const Installed&) = delete;

   private:
    PointObserver* before_;
  };
  static PointObserver* installed();

  // The simulator's side: a run starts over these regions, reaches a point
  // (`actor` is at it), ends.
  void begin(const std::vector<memory::GuardedRange>& shared, const std::vector<memory::GuardedRange>& named);
  void at_point(uint32_t actor, const HostRecorder* recorder);
  void end(uint32_t actor, const HostRecorder* recorder, std::string outcome);

  const PointStates& states() const { return states_; }
  PointStates take() { return std::move(states_); }

 private:
  void take_state(uint32_t actor, const HostRecorder* recorder);

  std::optional<uint64_t> stop_at_;
  std::vector<memory::GuardedRange> regions_;
  std::vector<uint32_t> last_;  // the words of the last state taken
  PointStates states_;
};

}  // namespace gpulin::sim
