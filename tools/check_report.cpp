#include "tools/check_report.h"

#include <fmt/core.h>

#include "histories/jsonl_writer.h"
#include "histories/value.h"

namespace gpulin::cli {

void set_minimal(CheckReport& r, const MinimalFailure& m) {
  r.minimal = history_to_jsonl(m.history);
  r.minimal_note = "op " + std::to_string(m.blame.op) + " fails in it as in the whole history";
  if (m.fixed.size() > 1) {
    std::string kept;
    for (size_t i = 1; i < m.fixed.size(); ++i) kept += (i > 1 ? ", " : "") + std::to_string(m.fixed[i]);
    r.minimal_note += "; kept with what its failure depends on: op" + std::string(m.fixed.size() > 2 ? "s " : " ") + kept;
  }
}

int print_report(const CheckReport& r, bool json) {
  if (json) {
    // The budget that ran out: null when none did.
    const std::string budget = r.budget == BudgetExhausted::None ? "null" : json_quoted(to_string(r.budget));
    fmt::print("{{\"file\":{},\"verdict\":{},\"exit\":{},\"method\":{},\"ops\":{},\"states\":{},\"steps\":{},"
               "\"seconds\":{:.6f},\"budget\":{},\"detail\":{},\"minimal\":{}}}\n",
               json_quoted(r.file), json_quoted(to_string(r.verdict)), static_cast<int>(r.verdict),
               json_quoted(r.method), r.ops, r.states, r.steps, r.seconds, budget, json_quoted(r.detail),
               json_quoted(r.minimal));
  } else {
    fmt::print("{}: {} ({}, {} operations, {:.3f} s)\n", r.file, to_string(r.verdict), r.method, r.ops, r.seconds);
    if (!r.detail.empty() && (r.verdict != Verdict::Linearizable || r.note)) fmt::print("  {}\n", r.detail);
    if (!r.minimal.empty()) fmt::print("minimal failing sub-history ({}):\n{}", r.minimal_note, r.minimal);
  }
  return static_cast<int>(r.verdict);
}

}  // namespace gpulin::cli
