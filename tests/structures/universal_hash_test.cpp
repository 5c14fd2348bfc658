// The slab hash's bucket function (structures/slab_hash/universal_hash.h): the
// division-free x mod p agrees with the division on the edges of its argument
// (the folds' worst cases, p itself and the few values past it that the single
// final subtraction must handle) and on random values, and buckets stay in range.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>

#include "structures/slab_hash/universal_hash.h"

namespace gpulin::slab_hash {
namespace {

constexpr uint64_t kP = UniversalHash::kPrime;

TEST(UniversalHash, ModPrimeAgreesWithDivisionOnEdges) {
  const uint64_t edges[] = {0,          1,          kP - 1,       kP,          kP + 1,          kP + 4,
                            kP + 5,     kP + 29,    (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 24, 2 * kP,
                            2 * kP + 7, ~0ull,      ~0ull - 4,    (kP - 1) * (kP - 1) + kP - 1, 6ull << 32,
                            (5ull << 32) + (1ull << 32) - 1};
  for (uint64_t x : edges) EXPECT_EQ(UniversalHash::mod_prime(x), x % kP) << x;
}

// Values just above each multiple of 2^32 up to 2^38 reach the second fold's
// largest results (hi = 5 after the first fold).
TEST(UniversalHash, ModPrimeAgreesWhereTheSecondFoldPeaks) {
  for (uint64_t hi = 0; hi < 64; ++hi)
    for (uint64_t lo : {0ull, 1ull, 0xFFFFFFFAull, 0xFFFFFFFBull, 0xFFFFFFFFull}) {
      const uint64_t x = (hi << 32) | lo;
      ASSERT_EQ(UniversalHash::mod_prime(x), x % kP) << x;
    }
}

RC_GTEST_PROP(UniversalHash, ModPrimeAgreesWithDivision, (uint64_t x)) {
  RC_ASSERT(UniversalHash::mod_prime(x) == x % kP);
}

RC_GTEST_PROP(UniversalHash, BucketsInRange, (uint64_t seed, uint32_t key, uint32_t buckets)) {
  RC_PRE(buckets > 0u);
  const UniversalHash h = UniversalHash::from_seed(seed, buckets);
  RC_ASSERT(h.a >= 1u);
  RC_ASSERT(h(key) < buckets);
  RC_ASSERT(h(key) == ((uint64_t{h.a} * key + h.b) % kP) % buckets);
}

}  // namespace
}  // namespace gpulin::slab_hash
