#include "tools/explore/judge_history.h"

#include "histories/history_identity.h"
#include "histories/rules.h"
#include "verify/search_checker.h"
#include "verify/witness_checker.h"

namespace gpulin::explore {

namespace {
// A history without a linearization-point rule (a structure that records no holds
// or points, the counter array's): the search alone decides it, whatever its size.
Judgement judge_by_search(const History& history, const JudgeOptions& options) {
  SearchOptions so;
  so.max_states = options.search_max_states;
  SearchResult s;
  try {
    s = check_search(history, so);
  } catch (const FormatError& e) {
    return {Failure::Violation, std::string("recorded a result the model refuses: ") + e.what(), false};
  }
  if (s.verdict == Verdict::NotLinearizable) return {Failure::Violation, s.message, true};
  if (s.verdict == Verdict::Undecided) return {Failure::Undecided, s.message, true};
  return {Failure::None, "", true};
}

Judgement judge_history_afresh(const History& history, const JudgeOptions& options) {
  if (history.header.lp_rule.empty()) return judge_by_search(history, options);
  Judgement j;
  // The witness checker validates every call and result against the model first: a
  // structure that records one its model refuses (a cycle's keys out of order, too
  // many of them) is wrong, not its input.
  WitnessResult w;
  try {
    w = check_witness(history);
  } catch (const FormatError& e) {
    // A release of a node the op does not hold breaks the lock protocol the format
    // requires (its acq/rel rules): a fault of the structure, as the survey's
    // columns count it, not a result the model refuses.
    try {
      check_events(history.events, history.source);
    } catch (const FormatError& lock) {
      return {Failure::Fault, std::string("lock protocol: ") + lock.what(), false};
    }
    return {Failure::Violation, std::string("recorded a result the model refuses: ") + e.what(), false};
  }
  const bool small = history.ops.size() <= options.search_max_ops;
  if (w.verdict == Verdict::Linearizable && !small) return j;
  SearchOptions so;
  so.max_states = options.search_max_states;
  const SearchResult s = check_search(history, so);
  j.searched = true;
  if (s.verdict == Verdict::NotLinearizable) return {Failure::Violation, s.message, true};
  if (w.verdict == Verdict::Linearizable) return j;
  const std::string why = w.violation ? w.violation->message : "witness check failed";
  if (s.verdict == Verdict::Undecided) return {Failure::Undecided, why, true};
  return {Failure::WitnessOnly, why, true};
}
}  // namespace

Judgement judge_history(const History& history, const JudgeOptions& options) {
  if (!options.passed || !options.passed->worth_looking()) return judge_history_afresh(history, options);
  std::string identity = history_identity(history);
  if (options.passed->look_up(identity)) return {};
  Judgement j = judge_history_afresh(history, options);
  if (j.failure == Failure::None) options.passed->remember(std::move(identity));
  return j;
}

Judgement judge_run(const sim::RunResult& run, const History& history, const std::optional<std::string>& invariant,
                    const JudgeOptions& options) {
  if (auto stopped = judge_stopped_run(run)) return *stopped;
  Judgement j = judge_history(history, options);
  if (j.failure != Failure::None) return j;
  if (invariant) return {Failure::Invariant, *invariant, j.searched};
  return j;
}

}  // namespace gpulin::explore
