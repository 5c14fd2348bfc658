#include "tools/check_keyed.h"

#include <chrono>

#include <fmt/core.h>

#include "histories/key_history_reader.h"
#include "histories/value.h"
#include "tools/commands.h"
#include "verify/distinct_pq_checker.h"
#include "verify/pq_linear/linear_check.h"

namespace gpulin::cli {

namespace {
std::string json_string(const std::string& s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

int report(const KeyedCheckArgs& a, Verdict v, const std::string& method, size_t ops, double secs,
           const std::string& detail) {
  if (a.json) {
    fmt::print("{{\"file\":{},\"verdict\":{},\"exit\":{},\"method\":{},\"ops\":{},\"states\":0,\"seconds\":{:.6f},"
               "\"detail\":{},\"minimal\":\"\"}}\n",
               json_string(a.file), json_string(to_string(v)), static_cast<int>(v), json_string(method), ops, secs,
               json_string(detail));
  } else {
    fmt::print("{}: {} ({}, {} operations, {:.3f} s)\n", a.file, to_string(v), method, ops, secs);
    if (v != Verdict::Linearizable && !detail.empty()) fmt::print("  {}\n", detail);
  }
  return static_cast<int>(v);
}
}  // namespace

std::optional<int> check_keyed(const KeyedCheckArgs& a) {
  if (a.method == "search") return std::nullopt;
  const auto t0 = std::chrono::steady_clock::now();
  KeyHistory h;
  try {
    h = read_key_history_any(a.file);
  } catch (const FormatError& e) {
    // Not keys-only (or malformed): the generic reader gives the verdict or the same error.
    return std::nullopt;
  }
  auto secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  try {
    const bool pq_model = h.header.model == "pq-batch" || h.header.model == "pq";
    if (pq_model && !h.header.lp_rule.empty()) {
      const LinearCheckResult r = check_pq_batch_linear(h);
      if (!r.applicable) return std::nullopt;
      // A failing rule order is the proof's failure, not yet a violation: the
      // generic path then asks the search (auto) whether anything explains it.
      if (r.witness.verdict != Verdict::Linearizable && a.method == "auto") return std::nullopt;
      return report(a, r.witness.verdict, "witness " + h.header.lp_rule + " (per key)", h.ops.size(), secs(),
                    r.witness.violation ? r.witness.violation->message : "");
    }
    if (pq_model && a.method == "auto") {
      const DistinctPqResult d = check_distinct_pq(h);
      if (d.applicable != DistinctPqResult::Applicable::Yes) return std::nullopt;
      return report(a, d.verdict, "distinct-key pq", h.ops.size(), secs(), d.message);
    }
  } catch (const FormatError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kBadInput;
  }
  return std::nullopt;
}

}  // namespace gpulin::cli
