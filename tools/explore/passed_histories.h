// The histories an exploration has already judged passing, by identity
// (histories/history_identity.h): a schedule that records one of them again passes
// the history checks (witness, search) without running them; its structure's own
// checks (deadlock, invariants at rest) still run every time. Only passes are
// remembered, so a failure is always judged afresh and reported with its message.
// DFS 3 x 3 bound 2 of the fixed TD heap meets 80 644 schedules but about 5 300
// distinct histories. Memory is bounded: past `max_bytes` of identities, nothing
// more is remembered and every new history is judged.
//
// Looking a history up costs about a tenth of judging a small one (packing its
// identity, hashing it), which is lost where histories rarely repeat (PCT over a
// fresh program every schedule). So the lookups go in
// windows of kWindow: a window with fewer than one hit in 16 is followed by kRest
// judgements without lookups, then another window tries again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>

namespace gpulin::explore {

class PassedHistories {
 public:
  explicit PassedHistories(size_t max_bytes = size_t(64) << 20) : max_bytes_(max_bytes) {}

  static constexpr uint64_t kWindow = 1024, kRest = 8 * kWindow;

  // Whether to look the next history up: false while resting after a window of few
  // hits, each such call using up one judgement of the rest.
  bool worth_looking() {
    if (resting_ == 0) return true;
    --resting_;
    return false;
  }
  // The lookup of a history: whether it passed before. Counts the hit.
  bool look_up(const std::string& identity) {
    const bool hit = passed_.count(identity) != 0;
    ++lookups_;
    window_hits_ += hit;
    if (++window_ == kWindow) {
      if (window_hits_ * 16 < kWindow) resting_ = kRest;
      window_ = window_hits_ = 0;
    }
    return hit;
  }
  void remember(std::string identity) {
    if (bytes_ + identity.size() > max_bytes_) return;
    bytes_ += identity.size();
    passed_.insert(std::move(identity));
  }
  size_t size() const { return passed_.size(); }
  size_t bytes() const { return bytes_; }
  uint64_t lookups() const { return lookups_; }

 private:
  std::unordered_set<std::string> passed_;
  size_t bytes_ = 0;
  size_t max_bytes_;
  uint64_t lookups_ = 0, window_ = 0, window_hits_ = 0, resting_ = 0;
};

}  // namespace gpulin::explore
