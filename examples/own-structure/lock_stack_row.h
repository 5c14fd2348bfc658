// The lock stack's row in gpulin's registry (tools/registry/structure_row.h): with
// it added, every subcommand that takes --structure knows `lock-stack`.
#pragma once

#include "tools/registry/structure_row.h"

namespace own {

gpulin::registry::StructureRow lock_stack_row();

}  // namespace own
