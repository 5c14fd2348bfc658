// A registry row for a structure described by operations (tools/explore/op_explore.h):
// the structure gives its names, model and parameters and how to make one run's
// shared memory and a random call; explore, replay, survey and list come from the
// generic explorer. The counter array is built this way, and so is a user's own
// structure (docs/own-structure.md).
#pragma once

#include <functional>

#include "tools/explore/op_explore.h"
#include "tools/registry/structure_row.h"

namespace gpulin::registry {

struct OpStructureSpec {
  // name, summary, source, variants, mutants, model, lp_rules, params, survey and
  // stress as any row; explore, title and replay are filled in. Parameters
  // "actors" (default 3) and "ops" (default 4, calls an actor) are added unless
  // declared.
  StructureRow row;
  // The structure for a selection: fns, header (the model is set from the row),
  // lanes, make and random_call. Its config, file_name and shape are filled in.
  std::function<explore::OpStructure(const Selection& s)> make;
};

StructureRow op_structure_row(OpStructureSpec spec);

}  // namespace gpulin::registry
