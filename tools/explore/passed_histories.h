// The histories an exploration has already judged passing, by identity
// (histories/history_identity.h): a schedule that records one of them again passes
// the history checks (witness, search) without running them; its structure's own
// checks (deadlock, invariants at rest) still run every time. Only passes are
// remembered, so a failure is always judged afresh and reported with its message.
// DFS 3 x 3 bound 2 of the fixed TD heap meets 80 644 schedules but about 5 300
// distinct histories. Memory is bounded: past `max_bytes` of identities, nothing
// more is remembered and every new history is judged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>

namespace gpulin::explore {

class PassedHistories {
 public:
  explicit PassedHistories(size_t max_bytes = size_t(64) << 20) : max_bytes_(max_bytes) {}

  bool contains(const std::string& identity) const { return passed_.count(identity) != 0; }
  void remember(std::string identity) {
    if (bytes_ + identity.size() > max_bytes_) return;
    bytes_ += identity.size();
    passed_.insert(std::move(identity));
  }
  size_t size() const { return passed_.size(); }
  size_t bytes() const { return bytes_; }

 private:
  std::unordered_set<std::string> passed_;
  size_t bytes_ = 0;
  size_t max_bytes_;
};

}  // namespace gpulin::explore
