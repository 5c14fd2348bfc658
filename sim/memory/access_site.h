// The source line of an access: where a structure called the execution context
// (sim/sim_context.h fills it in by a defaulted argument), as race reports name
// it. std::source_location's job, from the compiler builtins it is made of: the
// sanitized test build's clang 14 has no std::source_location.
#pragma once

#include <cstdint>
#include <string>

namespace gpulin::sim::memory {

struct SourceSite {
  const char* file = "";
  uint32_t line = 0;
  // As a defaulted argument, the line of the call that left it out.
  static constexpr SourceSite here(const char* file = __builtin_FILE(), uint32_t line = __builtin_LINE()) {
    return {file, line};
  }
};

// "structures/gheap/td_insert.h:88": the path relative to the repository (the
// compiler gives it as the build named the file); "?" for a site with no file.
std::string site_text(const SourceSite& site);

}  // namespace gpulin::sim::memory
