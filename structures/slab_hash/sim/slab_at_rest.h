// The slab hash at rest (no operation in flight): what every correct execution
// leaves behind, checked after each simulated run and on GPU tables after a run.
//   - every slab of a list is an allocated unit, reached once;
//   - every allocated unit is on a list (none lost), every free unit all-EMPTY;
//   - every key lies in its own bucket's list;
//   - unique modes: a key lives at most once, and EMPTY spots come only after every
//     filled one (the prefix property slab_list.h relies on);
//   - the fixed multimap: the prefix property too (no spot is EMPTY again once
//     used), and every bucket's version word even (no writer holds it at rest;
//     bucket_version.h). Every table's version words, where the view has them,
//     are even (the paper's never touches them).
#pragma once

#include <optional>
#include <string>

#include "structures/slab_hash/slab_hash_view.h"

namespace gpulin::explore {

template <class P>
std::optional<std::string> slab_table_at_rest(const slab_hash::SlabHashView<P>& h);

}  // namespace gpulin::explore
