// The static cuckoo hash baseline (bench/baselines/cuckoo_hash.cuh) on the GPU:
// 2^20 distinct keys at load factor 0.8 all found with their values and 2^20
// absent keys not found; builds that must restart end correct or report failure;
// duplicate keys leave one value per key. Label `gpu`; the tests that launch
// kernels skip without a device, the host-side ones (hash arithmetic, argument
// checks) run everywhere.
#include <gtest/gtest.h>

#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "bench/baselines/cuckoo_hash.cuh"

namespace gpulin::baselines {
namespace {

using cuckoo::kEmptyKey;
using cuckoo::kNotFound;
using Keys = std::vector<uint32_t>;

#define REQUIRE_DEVICE()                                             \
  do {                                                               \
    int devices_ = 0;                                                \
    if (cudaGetDeviceCount(&devices_) != cudaSuccess || !devices_) { \
      (void)cudaGetLastError();                                      \
      GTEST_SKIP() << "no CUDA device";                              \
    }                                                                \
  } while (0)

// MurmurHash3's finalizer: a bijection on 32 bits, so distinct inputs give
// distinct keys without a set.
uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

// `count` distinct keys (never kEmptyKey) from `salt`; the first n of them go into
// a table, the rest serve as absent queries.
Keys distinct_keys(size_t count, uint32_t salt) {
  Keys keys;
  keys.reserve(count);
  for (uint32_t i = 0; keys.size() < count; ++i)
    if (const uint32_t k = fmix32(i ^ salt); k != kEmptyKey) keys.push_back(k);
  return keys;
}

// Values unlike keys and never kNotFound.
Keys values_for(size_t n) {
  Keys vals(n);
  for (size_t i = 0; i < n; ++i) vals[i] = 0x5A000000u ^ static_cast<uint32_t>(i);
  return vals;
}

CuckooBuildResult build(CuckooHashTable& table, const Keys& keys, const Keys& vals) {
  const thrust::device_vector<uint32_t> d_keys(keys.begin(), keys.end()), d_vals(vals.begin(), vals.end());
  return table.build(thrust::raw_pointer_cast(d_keys.data()), thrust::raw_pointer_cast(d_vals.data()), keys.size());
}

// The table's answers to `queries` (a search status other than Ok fails the test).
Keys lookup(const CuckooHashTable& table, const Keys& queries) {
  const thrust::device_vector<uint32_t> d_queries(queries.begin(), queries.end());
  thrust::device_vector<uint32_t> d_results(queries.size(), 0x12345678u);
  const CuckooStatus s = table.search(thrust::raw_pointer_cast(d_queries.data()),
                                      thrust::raw_pointer_cast(d_results.data()), queries.size());
  EXPECT_EQ(s, CuckooStatus::Ok) << to_string(s);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const thrust::host_vector<uint32_t> results = d_results;
  return Keys(results.begin(), results.end());
}

// Every key of keys[0, n) found with its value and every other key absent.
void expect_exact(const CuckooHashTable& table, const Keys& keys, size_t n, const Keys& vals) {
  const Keys found = lookup(table, keys);
  ASSERT_EQ(found.size(), keys.size());
  size_t wrong = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint32_t want = i < n ? vals[i] : kNotFound;
    if (found[i] != want && wrong++ < 5)
      ADD_FAILURE() << (i < n ? "present" : "absent") << " key " << keys[i] << ": got " << found[i] << ", want "
                    << want;
  }
  EXPECT_EQ(wrong, 0u) << "of " << n << " present and " << keys.size() - n << " absent keys";
}

TEST(CuckooBaseline, ModPrimeIsTheRemainder) {
  const uint64_t p = cuckoo::kPrime;
  for (uint64_t x :
       std::initializer_list<uint64_t>{0, p - 1, p, p + 1, (uint64_t{1} << 32) - 1, uint64_t{1} << 32, 2 * p - 1, 2 * p,
                                       (p - 1) * 0xFFFFFFFFull + (p - 1), ~uint64_t{0}, ~uint64_t{0} - 4}) {
    EXPECT_EQ(cuckoo::mod_prime(x), x % p) << x;
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t x = rng() >> (i % 40);  // all magnitudes
    ASSERT_EQ(cuckoo::mod_prime(x), x % p) << x;
  }
  const cuckoo::HashFunctions f = cuckoo::HashFunctions::draw(rng, 1000);
  for (uint32_t k = 0; k < 100000; ++k) {
    for (uint32_t i = 0; i < cuckoo::kNumHashes; ++i)
      ASSERT_EQ(f.location(i, k), ((uint64_t{f.h[i].a} * k + f.h[i].b) % p) % 1000) << k;
    ASSERT_LT(f.stash_slot(k), cuckoo::kStashSize);
  }
}

TEST(CuckooBaseline, RejectsBadLoadFactorsWithoutTouchingTheDevice) {
  for (double lf : {0.0, -0.5, 1.01, std::nan("")}) {
    CuckooHashTable table({.load_factor = lf});
    const CuckooBuildResult r = table.build(nullptr, nullptr, 0);
    EXPECT_EQ(r.status, CuckooStatus::BadArgument) << lf;
    EXPECT_FALSE(table.built());
    EXPECT_EQ(table.search(nullptr, nullptr, 0), CuckooStatus::NotBuilt);
  }
}

TEST(CuckooBaseline, FindsEveryKeyAtLoadFactor08) {
  REQUIRE_DEVICE();
  const size_t n = size_t{1} << 20;
  const Keys keys = distinct_keys(2 * n, 1), vals = values_for(n);
  CuckooHashTable table({.load_factor = 0.8, .seed = 11});
  const CuckooBuildResult r = build(table, Keys(keys.begin(), keys.begin() + n), vals);
  ASSERT_EQ(r.status, CuckooStatus::Ok) << to_string(r.status) << " after " << r.restarts << " restarts";
  EXPECT_EQ(r.table_size, 1310720u);  // 2^20 / 0.8
  EXPECT_EQ(r.max_chain, 140u);       // 7 lg 2^20
  std::printf("n = 2^20, load 0.8: %u restarts, %u pairs in the stash\n", r.restarts, r.stash_count);
  expect_exact(table, keys, n, vals);
  EXPECT_EQ(lookup(table, {kEmptyKey}), Keys{kNotFound});
}

TEST(CuckooBaseline, FindsEveryKeyAcrossLoadFactors) {
  REQUIRE_DEVICE();
  const size_t n = size_t{1} << 18;
  const Keys keys = distinct_keys(2 * n, 2), vals = values_for(n);
  for (double lf : {0.3, 0.55, 0.65, 0.75, 0.85, 0.9}) {
    CuckooHashTable table({.load_factor = lf, .seed = 12});
    const CuckooBuildResult r = build(table, Keys(keys.begin(), keys.begin() + n), vals);
    ASSERT_EQ(r.status, CuckooStatus::Ok) << "load " << lf << ": " << to_string(r.status);
    EXPECT_EQ(r.table_size, static_cast<uint32_t>(std::ceil(n / lf)));
    expect_exact(table, keys, n, vals);
  }
}

// One object, several builds (the incremental benchmark rebuilds like this): the
// table grows, shrinks its use, and forgets the previous contents.
TEST(CuckooBaseline, RebuildsReplaceTheContents) {
  REQUIRE_DEVICE();
  const Keys keys = distinct_keys(size_t{3} << 17, 3);
  CuckooHashTable table({.seed = 13});
  for (size_t n : {size_t{1} << 12, size_t{1} << 17, size_t{1} << 10, size_t{0}, size_t{1} << 16}) {
    const Keys vals = values_for(n);
    ASSERT_EQ(build(table, Keys(keys.begin(), keys.begin() + n), vals).status, CuckooStatus::Ok) << n;
    expect_exact(table, keys, n, vals);
  }
}

// Exchanges bounded at 4 at load 0.8: thousands of chains run out and the stash
// has 101 slots, so every attempt must fail, and the result must say so.
TEST(CuckooBaseline, AnImpossibleBuildReportsFailure) {
  REQUIRE_DEVICE();
  const size_t n = size_t{1} << 16;
  const Keys keys = distinct_keys(n, 4), vals = values_for(n);
  CuckooHashTable table({.load_factor = 0.8, .max_restarts = 3, .max_chain = 4, .seed = 14});
  const CuckooBuildResult r = build(table, keys, vals);
  EXPECT_EQ(r.status, CuckooStatus::Failed) << to_string(r.status);
  EXPECT_EQ(r.restarts, 3u);
  EXPECT_EQ(r.cuda_error, cudaSuccess);
  EXPECT_FALSE(table.built());
  // A failed table answers nothing rather than something half-built.
  thrust::device_vector<uint32_t> d_queries(keys.begin(), keys.end()), d_results(n, 7u);
  EXPECT_EQ(table.search(thrust::raw_pointer_cast(d_queries.data()), thrust::raw_pointer_cast(d_results.data()), n),
            CuckooStatus::NotBuilt);
  EXPECT_EQ(thrust::count(d_results.begin(), d_results.end(), 7u), static_cast<std::ptrdiff_t>(n));
}

// Chain bounds around the point where attempts start to fail (at 2^16 keys, load
// 0.8, between about 16 and 48 exchanges; a CPU model of the build puts single
// attempts' failure rates from ~100 % down to ~0 % over this range): every build
// either succeeds with every key found or fails after all its restarts, and some
// build succeeds only after restarting - the restart path works.
TEST(CuckooBaseline, RestartsEndCorrectOrFailHonestly) {
  REQUIRE_DEVICE();
  const size_t n = size_t{1} << 16;
  const Keys keys = distinct_keys(2 * n, 5), vals = values_for(n);
  const Keys present(keys.begin(), keys.begin() + n);
  uint32_t ok_after_restart = 0, failed = 0, ok = 0;
  for (uint32_t chain : {16u, 20u, 24u, 28u, 32u, 36u, 40u, 48u}) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      CuckooHashTable table({.load_factor = 0.8, .max_restarts = 20, .max_chain = chain, .seed = seed});
      const CuckooBuildResult r = build(table, present, vals);
      ASSERT_TRUE(r.status == CuckooStatus::Ok || r.status == CuckooStatus::Failed) << to_string(r.status);
      EXPECT_EQ(r.max_chain, chain);
      EXPECT_LE(r.stash_count, cuckoo::kStashSize);
      if (r.status == CuckooStatus::Failed) {
        EXPECT_EQ(r.restarts, 20u);
        EXPECT_FALSE(table.built());
        ++failed;
        continue;
      }
      ++ok;
      ok_after_restart += r.restarts > 0;
      expect_exact(table, keys, n, vals);
    }
  }
  std::printf("%u builds ok (%u after restarts), %u failed\n", ok, ok_after_restart, failed);
  EXPECT_GT(ok_after_restart, 0u) << "no build needed a restart: the sweep missed the failure region";
}

// High load factors with the default bound (7 lg n exchanges): the stash fills
// near 0.95 and builds fail; whatever happens is reported truthfully.
TEST(CuckooBaseline, HighLoadFactorsEndCorrectOrFailHonestly) {
  REQUIRE_DEVICE();
  const size_t n = size_t{1} << 16;
  const Keys keys = distinct_keys(2 * n, 6), vals = values_for(n);
  for (double lf : {0.92, 0.95, 0.97, 0.99, 1.0}) {
    CuckooHashTable table({.load_factor = lf, .max_restarts = 5, .seed = 16});
    const CuckooBuildResult r = build(table, Keys(keys.begin(), keys.begin() + n), vals);
    std::printf("load %.2f: %s, %u restarts, %u in the stash\n", lf, to_string(r.status), r.restarts, r.stash_count);
    if (r.status == CuckooStatus::Ok) {
      expect_exact(table, keys, n, vals);
    } else {
      EXPECT_EQ(r.status, CuckooStatus::Failed);
      EXPECT_EQ(r.restarts, 5u);
    }
  }
}

// Duplicates: key j appears 1 + j % 8 times, each time with another value, in a
// shuffled order. One value wins per key: it is one of the key's values, and every
// search of the key (twice in one launch, again in another launch) returns it.
TEST(CuckooBaseline, DuplicateKeysLeaveOneValuePerKey) {
  REQUIRE_DEVICE();
  const size_t distinct = size_t{1} << 16;
  const Keys unique = distinct_keys(2 * distinct, 7);
  Keys keys, vals;
  std::map<uint32_t, std::set<uint32_t>> values_of;
  for (size_t j = 0; j < distinct; ++j)
    for (size_t c = 0; c <= j % 8; ++c) {
      const uint32_t v = 0x5A000000u ^ static_cast<uint32_t>(keys.size());
      keys.push_back(unique[j]);
      vals.push_back(v);
      values_of[unique[j]].insert(v);
    }
  std::vector<size_t> order(keys.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(17));
  Keys shuffled_keys(keys.size()), shuffled_vals(keys.size());
  for (size_t i = 0; i < order.size(); ++i) {
    shuffled_keys[i] = keys[order[i]];
    shuffled_vals[i] = vals[order[i]];
  }
  CuckooHashTable table({.load_factor = 0.8, .seed = 17});
  const CuckooBuildResult r = build(table, shuffled_keys, shuffled_vals);
  ASSERT_EQ(r.status, CuckooStatus::Ok) << to_string(r.status);

  Keys queries = unique;  // the distinct keys, then the absent ones, then the distinct keys again
  queries.insert(queries.end(), unique.begin(), unique.begin() + distinct);
  const Keys first = lookup(table, queries), second = lookup(table, queries);
  ASSERT_EQ(first.size(), queries.size());
  EXPECT_EQ(first, second) << "two searches of an unchanged table disagree";
  size_t wrong = 0;
  for (size_t j = 0; j < distinct; ++j) {
    const bool one_of_its_values = values_of[unique[j]].count(first[j]) == 1;
    const bool same_again = first[j] == first[2 * distinct + j];
    if ((!one_of_its_values || !same_again) && wrong++ < 5)
      ADD_FAILURE() << "key " << unique[j] << ": got " << first[j] << " and " << first[2 * distinct + j];
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(std::count(first.begin() + distinct, first.begin() + 2 * distinct, kNotFound),
            static_cast<std::ptrdiff_t>(distinct))
      << "absent keys found";
}

// The extreme duplicate: one key 2^16 times. Every exchange after the first gets
// the same key back and ends its chain, so the build cannot overflow.
TEST(CuckooBaseline, OneKeyRepeatedBuildsAndKeepsOneOfItsValues) {
  REQUIRE_DEVICE();
  const size_t n = size_t{1} << 16;
  const Keys keys(n, 0xC0FFEEu), vals = values_for(n);
  CuckooHashTable table({.load_factor = 0.8, .max_restarts = 0, .seed = 18});
  const CuckooBuildResult r = build(table, keys, vals);
  ASSERT_EQ(r.status, CuckooStatus::Ok) << to_string(r.status);
  EXPECT_EQ(r.stash_count, 0u);
  const Keys found = lookup(table, {0xC0FFEEu, 0xC0FFEFu, 0xC0FFEEu});
  ASSERT_EQ(found.size(), 3u);
  EXPECT_NE(std::find(vals.begin(), vals.end(), found[0]), vals.end()) << found[0];
  EXPECT_EQ(found[1], kNotFound);
  EXPECT_EQ(found[2], found[0]);
}

TEST(CuckooBaseline, TheSentinelKeyIsRefused) {
  REQUIRE_DEVICE();
  Keys keys = distinct_keys(1000, 8);
  keys[500] = kEmptyKey;
  CuckooHashTable table;
  const CuckooBuildResult r = build(table, keys, values_for(keys.size()));
  EXPECT_EQ(r.status, CuckooStatus::InvalidKey) << to_string(r.status);
  EXPECT_EQ(r.restarts, 0u);
  EXPECT_FALSE(table.built());
}

}  // namespace
}  // namespace gpulin::baselines
