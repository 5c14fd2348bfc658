// The verdict of a check, numbered as the checker's exit codes in
// history-format.md (2, malformed input, is a FormatError, never a verdict).
#pragma once

namespace gpulin {

enum class Verdict { Linearizable = 0, NotLinearizable = 1, Undecided = 3 };

inline const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Linearizable: return "linearizable";
    case Verdict::NotLinearizable: return "not linearizable";
    case Verdict::Undecided: return "undecided";
  }
  return "?";
}

}  // namespace gpulin
