#include "tools/explore/judgement.h"

namespace gpulin::explore {

const char* to_string(Failure f) {
  switch (f) {
    case Failure::None: return "pass";
    case Failure::Violation: return "violation";
    case Failure::WitnessOnly: return "proof-points";
    case Failure::Invariant: return "invariant";
    case Failure::Deadlock: return "deadlock";
    case Failure::Livelock: return "livelock";
    case Failure::Fault: return "fault";
    case Failure::Undecided: return "undecided";
  }
  return "?";
}

bool is_bug(Failure f) { return f != Failure::None && f != Failure::WitnessOnly && f != Failure::Undecided; }

}  // namespace gpulin::explore
