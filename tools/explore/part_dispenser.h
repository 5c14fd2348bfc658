// Hands the parts of an exploration (work_units.h) out to the ranks of explore --mpi
// in guided chunks: the first chunks are large, so a rank asks rank 0 a few dozen
// times rather than once a part, and they shrink with what is left, down to single
// parts at the end, so no rank is left holding much while the others idle. Each
// chunk is a quarter of the remaining parts' fair share (remaining / (4 x takers)):
// a dfs frontier's parts differ in size, and a chunk that happens to hold the heavy
// ones still holds little of what is left.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>

namespace gpulin::explore {

// Parts [first, last).
struct PartRange {
  uint64_t first = 0, last = 0;
  bool empty() const { return first >= last; }
};

class PartDispenser {
 public:
  explicit PartDispenser(uint64_t takers) : takers_(std::max<uint64_t>(takers, 1)) {}

  // The next chunk of parts [0, parts); empty once every part is handed out.
  // Thread-safe: rank 0's explorer and its main thread (answering the other ranks)
  // take from one dispenser.
  PartRange take(uint64_t parts) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t left = parts > next_ ? parts - next_ : 0;
    const uint64_t size = std::min(left, std::max<uint64_t>(1, left / (4 * takers_)));
    const PartRange chunk{next_, next_ + size};
    next_ += size;
    return chunk;
  }

 private:
  std::mutex mutex_;
  uint64_t takers_;
  uint64_t next_ = 0;
};

}  // namespace gpulin::explore
