// The rule-ordered check of a keyed history (map, set, multimap) at GPU scale:
// a recorded slab-hash run of tens of millions of operations, checked on every
// core (docs/checking-at-scale.md, "Keyed models").
//
// Every operation touches one key, so a history is linearizable exactly when each
// key's sub-history is (Herlihy and Wing's locality), and the rule's order (the
// lp events under `explicit`) explains the history exactly when it explains each
// key's sub-history. So the operations, as one word each (key, position in the
// rule's order), are grouped by key without a comparison sort (key_buckets.h,
// shared with the pq check) and each key's operations are replayed in the rule's
// order on that key's own small state, keys in parallel. The first failing
// position over all keys is the whole replay's first failure: the witness
// verdict, with check_witness's message. A key whose rule order fails (a wrong
// result, or a point missing, doubled or outside its op) is then decided by the
// search on that key's sub-history alone: linearizable by other points, or not
// linearizable with the search's counterexample. A history without lp events is
// ordered by its rets the same way (a linear extension of real time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "histories/history.h"
#include "histories/key_history.h"
#include "verify/search_checker.h"
#include "verify/witness_checker.h"

namespace gpulin {

struct KeyedCheckOptions {
  unsigned threads = 0;  // 0: every core
  // The keys whose rule order fails go to the search, which gives the verdict
  // (gpulin check --method auto). False: the rule's verdict alone (--method witness).
  bool decide = true;
  SearchOptions search;  // the search's budgets, over all failing keys together
};

struct KeyedCheckResult {
  // False when this check cannot judge the history and the generic path must
  // (check_witness, check_search on expand(h)): an op that does not fit the model
  // (the generic path names it), or keys spread over more than 2^(63 - bits of
  // the position count) values. `why` says which.
  bool applicable = true;
  std::string why;

  // Linearizable when the rule's order explains every key. Otherwise the search's
  // verdict over the failing keys (decide), or NotLinearizable (the rule's verdict).
  Verdict verdict = Verdict::Linearizable;
  // The rule's verdict on the whole history, as check_witness (without explain)
  // gives it: the same verdict, ops_replayed and violation.
  WitnessResult witness;
  uint64_t keys = 0;                  // distinct keys with a point
  std::vector<int64_t> failing_keys;  // every key whose rule order fails, ascending
  uint64_t failing_ops = 0;           // decide: the operations of those keys
  std::optional<SearchResult> search; // decide, when some key failed: the search on their ops
};

// A history with no lp_rule (no lp events: recorded by warp rounds,
// histories/key_clock_records.h) is ordered per key by its ops' rets instead, a
// candidate and no proof's points: `witness` then says where that order failed,
// and the search decides those keys. Throws FormatError for a header that names
// no keyed model, or no lp_rule when options.decide is false. The
// structural rules of the format (rules.h) must hold: the readers check them; a
// history downloaded from a recorder needs check_events first.
KeyedCheckResult check_keyed_linear(const KeyHistory& h, const KeyedCheckOptions& options = {});

// The operations of `keys` (each op's key is its first argument) with all their
// events, as a History of Values: for the search, the witness's window
// explanation and minimisation, which take that form.
History keys_sub_history(const KeyHistory& h, const std::vector<int64_t>& keys);

}  // namespace gpulin
