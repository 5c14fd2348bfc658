#include "tools/registry/replay_states.h"

#include <stdexcept>

#include "sim/point_observer.h"

namespace gpulin::registry {

PointStates replay_states(const StructureRow& row, const std::string& schedule, uint64_t max_points,
                          std::optional<uint64_t> stop_at) {
  sim::PointObserver observer(stop_at);
  {
    const sim::PointObserver::Installed installed(observer);
    try {
      row.replay(schedule, max_points);
    } catch (const sim::StoppedAtState&) {
      // the run ended at the state asked for
    }
  }
  PointStates s = observer.take();
  if (s.size() == 0) throw std::runtime_error(row.name + ": its replay made no simulated run to observe");
  if (stop_at && s.size() != *stop_at + 1)
    throw std::out_of_range("the run has no state " + std::to_string(*stop_at) + " (it has " + std::to_string(s.size()) +
                            ")");
  return s;
}

}  // namespace gpulin::registry
