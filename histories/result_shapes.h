// Recorders store every result as a list of integer words (or null); a model's
// results may be a single value (`map` and `multimap` search: value or null) or a
// boolean (`set` contains). The recording structure states each operation's
// shape once, and the recorded history is given its model's JSON shapes here,
// before it is checked or written (history-format.md, the model table).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "histories/history.h"
#include "histories/key_history.h"

namespace gpulin {

enum class ResultShape {
  Keys,    // an array of integers (as recorded)
  Scalar,  // one integer, or null: [v] -> v
  Bool,    // [0] / [1] -> false / true
};

using ResultShapes = std::vector<std::pair<std::string, ResultShape>>;

// Reshapes the results of completed ops whose f is listed; throws FormatError
// naming the op when a Scalar or Bool result does not hold exactly one word.
void apply_result_shapes(History& h, const ResultShapes& shapes);
// The same on the lean form, as a recorded run of millions of operations is
// downloaded (DeviceRecorder::download): a one-key result becomes a
// KeyOp::kValueResult or kBoolResult (its key 0 or 1), with the same errors.
void apply_result_shapes(KeyHistory& h, const ResultShapes& shapes);

}  // namespace gpulin
