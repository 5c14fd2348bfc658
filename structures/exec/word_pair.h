// The results of two shared-word accesses an actor issues together
// (structures/exec/context.h: load_pair, cas_pair).
#pragma once

#include <cstdint>

namespace gpulin::exec {

struct WordPair {
  uint32_t first;   // the access to the first word
  uint32_t second;  // the access to the second word
};

}  // namespace gpulin::exec
