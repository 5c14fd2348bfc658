// Which heap a run uses, and its names on the command line and in replay strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/memory/memory_mode.h"
#include "structures/gheap/config.h"
#include "structures/gheap/operation.h"

namespace gpulin::explore {

struct HeapConfig {
  gheap::Flavor flavor = gheap::Flavor::TopDown;
  gheap::Variant variant = gheap::Variant::Fixed;
  gheap::Mutant mutant = gheap::Mutant::None;
  uint32_t k = 4;
  uint32_t threads = 2;  // lanes per simulated block: exercises the merge-path split
  sim::memory::MemorySetting memory;
};

std::string structure_name(gheap::Flavor f);                 // gheap-td, gheap-bu
std::optional<gheap::Flavor> parse_structure(const std::string& s);
std::string variant_name(gheap::Variant v);                  // paper, fixed
std::optional<gheap::Variant> parse_variant(const std::string& s);
std::string mutant_name(gheap::Mutant m);                    // none, early-root-release, ...
std::optional<gheap::Mutant> parse_mutant(const std::string& s);
// Every mutant with a one-line description, for --help and docs.
const char* mutant_description(gheap::Mutant m);
constexpr gheap::Mutant kAllMutants[] = {
    gheap::Mutant::EarlyRootRelease, gheap::Mutant::StartAtParent,       gheap::Mutant::SkipPartialMerge,
    gheap::Mutant::UnlockBeforeLock, gheap::Mutant::BitReversalOffByOne, gheap::Mutant::FixedBigChild,
    gheap::Mutant::LostRootRelease,  gheap::Mutant::RelaxedLocks,        gheap::Mutant::RelaxedLocksFenced,
    gheap::Mutant::MaximaInMerged,
};
// A mutant of the ordering alone (relaxed-locks, relaxed-locks-fenced): the same
// code, so only the ptx memory mode can tell it from the fixed heap.
bool mutant_is_ordering(gheap::Mutant m);
// The linearization-point rule (history format, lp_rule) a heap's histories are
// witness-checked with: the TD heap's root-release (Theorem 3.2); the paper's BU
// heap claims last-lock (Theorem 3.4); the fixed BU heap's inserts take effect in
// their hold of the root, as the TD heap's do (structures/gheap/bu_insert.h).
const char* lp_rule_for(gheap::Flavor f, gheap::Variant v);
// The mutants that change the given flavor's code path.
bool mutant_applies(gheap::Mutant m, gheap::Flavor f);

// "gheap-td:fixed:k=4:t=2[:mutant=NAME][:memory=ptx]"
std::string encode_config(const HeapConfig& c);
HeapConfig decode_config(const std::string& text);  // throws std::invalid_argument

}  // namespace gpulin::explore
