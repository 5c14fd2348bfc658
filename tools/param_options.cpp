#include "tools/param_options.h"

#include <fmt/core.h>

namespace gpulin::cli {

std::string param_range(const registry::Param& p) {
  if (!p.choices.empty()) return registry::joined(p.choices);
  if (p.free_text) return "text";
  return fmt::format("{}-{}", p.min, p.max);
}

std::vector<std::string> param_summaries(const std::vector<registry::Param>& params) {
  std::vector<std::string> out;
  for (const registry::Param& p : params) out.push_back(fmt::format("--{} {} ({})", p.name, p.fallback, param_range(p)));
  return out;
}

void add_param_options(CLI::App* sub, const ParamsOf& params_of, std::map<std::string, std::string>& given) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> help;
  for (const registry::StructureRow& row : registry::structures().rows())
    for (const registry::Param& p : params_of(row)) {
      if (!help.count(p.name)) order.push_back(p.name);
      help[p.name].push_back(fmt::format("{}: {} ({}; default {})", row.name, p.help, param_range(p), p.fallback));
    }
  for (const std::string& name : order) {
    std::string text;
    for (const std::string& h : help[name]) text += (text.empty() ? "" : "; ") + h;
    sub->add_option_function<std::string>("--" + name, [&given, name](const std::string& v) { given[name] = v; }, text);
  }
}

}  // namespace gpulin::cli
