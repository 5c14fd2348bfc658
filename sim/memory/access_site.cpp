#include "sim/memory/access_site.h"

#include <string_view>

namespace gpulin::sim::memory {

namespace {
// The repository's root as this file's own path gives it: what precedes
// "sim/memory/access_site.cpp" (every file of the build is named alike).
std::string_view repository_root() {
  static const std::string_view root = [] {
    const std::string_view self = SourceSite::here().file;
    const std::string_view tail = "sim/memory/access_site.cpp";
    return self.ends_with(tail) ? self.substr(0, self.size() - tail.size()) : std::string_view{};
  }();
  return root;
}
}  // namespace

std::string site_text(const SourceSite& site) {
  std::string_view file = site.file;
  if (file.empty()) return "?";
  if (const std::string_view root = repository_root(); !root.empty() && file.starts_with(root))
    file.remove_prefix(root.size());
  return std::string(file) + ":" + std::to_string(site.line);
}

}  // namespace gpulin::sim::memory
