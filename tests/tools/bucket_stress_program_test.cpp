// The bucket heap stress's workload (structures/bucket_heap/gpu/bucket_stress.h): Dijkstra-like as
// the heap requires - batches of at most d distinct values sorted by value, a value's
// priority only decreasing, nothing updated after it left - and a drain that empties
// the heap, its last EXTRACTMIN on an empty heap.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "structures/bucket_heap/operations.h"
#include "structures/bucket_heap/gpu/bucket_stress.h"

namespace gpulin::stress {
namespace {

using namespace bucket_heap;

TEST(BucketStressProgram, IsDijkstraLikeAndDrains) {
  for (uint32_t d : {1u, 7u, 64u})
    for (uint64_t seed : {1u, 2u}) {
      SCOPED_TRACE("d=" + std::to_string(d) + " seed=" + std::to_string(seed));
      const explore::BucketProgram p = make_bucket_stress_program(d, 5000, seed);
      std::map<uint32_t, uint32_t> prio;  // values in the heap
      std::set<uint32_t> gone;
      uint64_t decreases = 0;
      for (const explore::BucketOp& op : p.ops) {
        if (op.fn == kFnUpdate) {
          ASSERT_GE(op.updates.size(), 1u);
          ASSERT_LE(op.updates.size(), d);
          for (size_t i = 0; i < op.updates.size(); ++i) {
            const auto [v, pr] = op.updates[i];
            if (i > 0) {
              ASSERT_LT(op.updates[i - 1].first, v) << "a batch sorted by value, one per value";
            }
            ASSERT_FALSE(gone.count(v)) << "value " << v << " updated after it left";
            if (auto it = prio.find(v); it != prio.end()) {
              ASSERT_LT(pr, it->second) << "value " << v << "'s priority only decreases";
              ++decreases;
            }
            prio[v] = pr;
          }
        } else if (op.fn == kFnDelete) {
          ASSERT_EQ(prio.erase(op.value), 1u) << "DELETE of a value not in the heap";
          gone.insert(op.value);
        }
      }
      EXPECT_GT(decreases, 0u);
      EXPECT_LE(p.ops.size() - 5000, std::max<size_t>(16 * d, 4096) + d + 1) << "the heap holds on: a short drain";
      const std::vector<Element> answers = explore::bucket_pq_answers(p);
      for (size_t k = 0; k < p.ops.size(); ++k)
        if (p.ops[k].fn == kFnExtractMin && answers[k] != kNoElement) gone.insert(value_of(answers[k]));
      EXPECT_EQ(answers.back(), kNoElement) << "the drain ends on an empty heap";
      ASSERT_GE(p.ops.size(), 2u);
      EXPECT_NE(answers[p.ops.size() - 2], kNoElement) << "the drain has no EXTRACTMIN too many";
    }
}

}  // namespace
}  // namespace gpulin::stress
