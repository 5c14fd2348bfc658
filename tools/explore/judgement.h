// What an explored run can come to, for every structure: the kinds of failure the
// explorer counts, and the judgement of one run. (The heap and the merge runners
// both produce these; neither includes the other.)
#pragma once

#include <optional>
#include <string>

#include "sim/simulator.h"

namespace gpulin::explore {

enum class Failure {
  None,
  Violation,      // the search found no linearization (or, for the merge, a wrong output)
  WitnessOnly,    // the proof's points fail, but the search linearizes the history
  Invariant,      // a quiescent heap broke properties 1-3, or kept a lock
  Deadlock,
  Livelock,
  Fault,          // an impossible state the structure detected
  Race,           // a data race (ptx), or two threads of a block in one barrier phase (any mode); the first stops the run
  Undecided,      // witness failed and the search ran out of budget
};
const char* to_string(Failure f);
// Failures that make `explore` exit 1 (WitnessOnly is a finding about a proof).
bool is_bug(Failure f);

struct Judgement {
  Failure failure = Failure::None;
  std::string message;
  bool searched = false;  // the search ran on this history
};

// The judgement of a run the simulator stopped before it completed (deadlock,
// livelock, fault, data race); none for a completed run.
std::optional<Judgement> judge_stopped_run(const sim::RunResult& run);

}  // namespace gpulin::explore
