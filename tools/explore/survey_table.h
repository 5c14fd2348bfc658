// `gpulin survey`'s table: one row per structure and variant, a column for every kind of
// outcome the explorer counts (none hidden), and what makes a row clean.
#pragma once

#include <string>

#include "tools/explore/explore.h"

namespace gpulin::explore {

std::string survey_header();
std::string survey_row(const std::string& structure, const std::string& variant, const ExploreSummary& s);
std::string survey_legend();

// Clean: no bug of any kind and nothing left undecided (an undecided history is
// one the checkers could not clear, so it cannot count as passing).
bool survey_clean(const ExploreSummary& s);

}  // namespace gpulin::explore
