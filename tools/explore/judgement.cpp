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
    case Failure::Race: return "race";
    case Failure::Undecided: return "undecided";
  }
  return "?";
}

std::optional<Judgement> judge_stopped_run(const sim::RunResult& run) {
  switch (run.outcome) {
    case sim::Outcome::Deadlock: return Judgement{Failure::Deadlock, run.message, false};
    case sim::Outcome::Livelock: return Judgement{Failure::Livelock, run.message, false};
    case sim::Outcome::Fault: return Judgement{Failure::Fault, run.message, false};
    case sim::Outcome::Race: return Judgement{Failure::Race, run.message, false};
    case sim::Outcome::Completed: break;
  }
  return std::nullopt;
}

bool is_bug(Failure f) { return f != Failure::None && f != Failure::WitnessOnly && f != Failure::Undecided; }

}  // namespace gpulin::explore
