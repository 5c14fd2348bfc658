// The words of a per-key failure, shared by the host and GPU checkers.
#include <string>

#include "verify/keys_text.h"
#include "verify/pq_linear/key_rules.h"
#include "verify/pq_linear/linear_check.h"

namespace gpulin {

std::string describe_linear_failure(const LinearFailure& f, uint64_t k) {
  using namespace pq_linear;
  const std::string point = f.point_is_hold_number ? "the root's hold " + std::to_string(f.point_t)
                                                   : "t " + std::to_string(f.point_t);
  const std::string op = "op " + std::to_string(f.op) + " (del) at its point, " + point +
                         ", position " + std::to_string(f.position) + " in the rule's order, returned " +
                         keys_text(f.recorded) + "; the model answers " + keys_text(f.expected) + " (" +
                         std::to_string(f.present) + " keys present, k = " + std::to_string(k) + ")";
  auto history_of_key = [&] {
    std::string s = f.inserted_by >= 0 ? "last inserted by op " + std::to_string(f.inserted_by)
                                       : std::string("never inserted before it");
    if (f.removed_by >= 0) s += ", last removed by op " + std::to_string(f.removed_by);
    return s;
  };
  switch (f.kind) {
    case kUnsorted: return op + ": the result is not in ascending order";
    case kSize:
      return op + ": it returned " + std::to_string(f.recorded.size()) + " keys, not min(k, present) = " +
             std::to_string(std::min<uint64_t>(k, f.present));
    case kMissing:
      return op + ": it returned key " + std::to_string(f.key) + ", which was not present (" + history_of_key() + ")";
    case kBypassed:
      return op + ": key " + std::to_string(f.key) + " stayed present (" + history_of_key() +
             ") while the op returned a larger key";
  }
  return op;
}

}  // namespace gpulin
