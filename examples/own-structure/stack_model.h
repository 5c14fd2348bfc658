// The sequential specification of the lock stack's histories, model `stack`:
// `push [v]` -> null puts v on top; `pop []` -> [v] takes the top value v, or [] when
// the stack is empty. A program registers it (register_stack_model) before it runs
// the command line: then its histories read, check and render like the built-in
// models' (`own-stack check history.jsonl` too).
#pragma once

#include <memory>

#include "verify/model.h"

namespace own {

std::unique_ptr<gpulin::Model> make_stack_model();
// Adds `stack` to the catalog (histories/model_catalog.h) and its model to the
// checkers' registry (verify/model_registry.h).
void register_stack_model();

}  // namespace own
