// gpulin list: what is registered. Every structure (tools/registry/) with its
// variants, mutants, model, linearization-point rules, options and GPU driver; the
// models a history may name (histories/model_catalog.h); the lp rules.
#include <fmt/core.h>

#include "histories/model_catalog.h"
#include "tools/commands.h"
#include "tools/param_options.h"
#include "tools/registry/registry.h"

namespace gpulin::cli {

namespace {

std::string or_none(const std::vector<std::string>& names) { return names.empty() ? "-" : registry::joined(names); }

int list() {
  fmt::print("structures (gpulin explore --structure NAME):\n");
  for (const registry::StructureRow& row : registry::structures().rows()) {
    fmt::print("\n{}  {}\n", row.name, row.summary);
    fmt::print("  source:    {}\n", row.source);
    fmt::print("  variants:  {}\n", row.variants.empty() ? "-" : registry::joined(row.variants) + " (default " +
                                                                     row.variants.front() + ")");
    fmt::print("  mutants:   {}\n", or_none(row.mutants));
    fmt::print("  model:     {}\n", row.model.empty() ? "- (outputs checked against a reference)" : row.model);
    fmt::print("  lp rules:  {}\n", or_none(row.lp_rules));
    fmt::print("  options:   {}\n", or_none(param_summaries(row.params)));
    std::vector<std::string> survey;
    for (const registry::SurveyEntry& e : row.survey)
      survey.push_back(fmt::format("{} {} schedules{}", e.variant.empty() ? row.name : e.variant, e.schedules,
                                   e.must_pass ? "" : " (known findings)"));
    fmt::print("  survey:    {}\n", or_none(survey));
    fmt::print("  GPU:       {}\n", row.stress ? "gpulin stress --structure " + row.name : "-");
    if (row.stress) fmt::print("  stress:    {}\n", or_none(param_summaries(row.stress_params)));
  }
  fmt::print("\nmodels (a history header's \"model\"):\n");
  for (const ModelInfo& m : model_catalog())
    fmt::print("  {:<10} {}{}\n", m.name, m.summary,
               m.positive_params.empty() ? "" : " (params: " + registry::joined(m.positive_params) + ")");
  fmt::print("\nlp rules (a history header's \"lp_rule\"): root-release, last-lock, explicit\n");
  return int(kPass);
}

}  // namespace

void add_list(CLI::App& app, std::function<int()>& run) {
  app.add_subcommand("list", "print the registered structures (variants, mutants, models, rules, options) and models")
      ->callback([&run] { run = list; });
}

}  // namespace gpulin::cli
