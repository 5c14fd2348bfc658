// The CUDA global merge (GPU Merge Path §2) against thrust::merge (stable, on the
// device) and std::merge (host) - label `gpu`; every test skips without a device.
// Sizes 10^6, 10^7, 10^8 per input; every key type; pairs with tagged values for
// stability; descending order; empty, tiny, very unequal and misaligned inputs.
#include <gtest/gtest.h>

#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/merge.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "structures/merge_path/merge.h"
#include "structures/merge_path/testing/sorted_keys.cuh"

namespace gpulin::merge_path {
namespace {

#define SKIP_WITHOUT_DEVICE()                                                       \
  do {                                                                              \
    int count_ = 0;                                                                 \
    if (cudaGetDeviceCount(&count_) != cudaSuccess || count_ == 0) {                \
      (void)cudaGetLastError();                                                     \
      GTEST_SKIP() << "no CUDA device";                                             \
    }                                                                               \
  } while (0)

#define CUDA_OK(expr)                                                               \
  do {                                                                              \
    const cudaError_t err_ = (expr);                                                \
    ASSERT_EQ(err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(err_);      \
  } while (0)

using test_inputs::sorted_keys;

template <class T>
T* raw(thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}
template <class T>
const T* raw(const thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}

// merge_keys (temp-storage form) vs thrust::merge, compared on the device.
template <class T, class Comp = Less, class ThrustComp = thrust::less<T>>
void check_against_thrust(uint64_t na, uint64_t nb, uint32_t spread, Comp comp = Comp(), ThrustComp tcomp = ThrustComp()) {
  const bool desc = std::is_same_v<Comp, Greater>;
  const auto a = sorted_keys<T>(na, 1 + na, spread, desc);
  const auto b = sorted_keys<T>(nb, 2 + nb * 3, spread, desc);
  thrust::device_vector<T> out(na + nb), ref(na + nb);
  size_t temp_bytes = 0;
  CUDA_OK(merge_keys(nullptr, temp_bytes, raw(a), na, raw(b), nb, raw(out), 0, comp));
  thrust::device_vector<unsigned char> temp(temp_bytes + 1);
  CUDA_OK(merge_keys(static_cast<void*>(raw(temp)), temp_bytes, raw(a), na, raw(b), nb, raw(out), 0, comp));
  CUDA_OK(cudaDeviceSynchronize());
  thrust::merge(a.begin(), a.end(), b.begin(), b.end(), ref.begin(), tcomp);
  EXPECT_TRUE(thrust::equal(out.begin(), out.end(), ref.begin())) << "na=" << na << " nb=" << nb;
}

TEST(GpuMerge, Int32Million) {
  SKIP_WITHOUT_DEVICE();
  check_against_thrust<int32_t>(1000000, 1000000, 4);
  check_against_thrust<int32_t>(1000000, 1000000, 1);  // all equal
}
TEST(GpuMerge, Int32TenMillion) {
  SKIP_WITHOUT_DEVICE();
  check_against_thrust<int32_t>(10000000, 10000000, 3);
}
TEST(GpuMerge, Int32HundredMillion) {
  SKIP_WITHOUT_DEVICE();
  check_against_thrust<int32_t>(100000000, 100000000, 3);
}
TEST(GpuMerge, FloatHundredMillion) {
  SKIP_WITHOUT_DEVICE();
  check_against_thrust<float>(100000000, 100000000, 3);
}
TEST(GpuMerge, EveryKeyTypeMillion) {
  SKIP_WITHOUT_DEVICE();
  check_against_thrust<int64_t>(1000000, 700000, 5);
  check_against_thrust<uint32_t>(1000000, 1300000, 5);
  check_against_thrust<uint64_t>(999999, 1000001, 5);
  check_against_thrust<float>(1000000, 1000000, 2);
  check_against_thrust<double>(1234567, 765432, 2);
}
TEST(GpuMerge, DescendingTenMillion) {
  SKIP_WITHOUT_DEVICE();
  check_against_thrust<double>(10000000, 3000000, 4, Greater(), thrust::greater<double>());
  check_against_thrust<int32_t>(3000000, 10000000, 4, Greater(), thrust::greater<int32_t>());
}
TEST(GpuMerge, VeryUnequalTenMillion) {
  SKIP_WITHOUT_DEVICE();
  check_against_thrust<int32_t>(10000000, 1, 3);
  check_against_thrust<int32_t>(1, 10000000, 3);
  check_against_thrust<int32_t>(10000000, 0, 3);
  check_against_thrust<int32_t>(0, 10000000, 3);
  check_against_thrust<int32_t>(10000000, 1000, 3);
}

// Tiny and odd sizes around the window size, empty inputs, misaligned arrays: the
// allocating form, checked on the host against std::merge.
TEST(GpuMerge, SmallAndMisalignedAgainstStdMerge) {
  SKIP_WITHOUT_DEVICE();
  const uint64_t tile = DefaultMergePolicy<int32_t, NoValue>::type::tile;
  const std::vector<uint64_t> sizes{0, 1, 2, 3, 4, 5, 17, tile - 1, tile, tile + 1, 2 * tile + 3, 100000};
  for (uint64_t na : sizes)
    for (uint64_t nb : sizes)
      for (uint32_t off : {0u, 1u, 3u}) {
        std::vector<int32_t> a(na), b(nb);
        for (uint64_t i = 0; i < na; ++i) a[i] = static_cast<int32_t>(i / 3);
        for (uint64_t j = 0; j < nb; ++j) b[j] = static_cast<int32_t>(j / 2);
        std::vector<int32_t> expected(na + nb);
        std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
        thrust::device_vector<int32_t> da(na + off), db(nb + off), dc(na + nb + off + 1, -7);
        thrust::copy(a.begin(), a.end(), da.begin() + off);
        thrust::copy(b.begin(), b.end(), db.begin());
        CUDA_OK(merge_keys(raw(da) + off, na, raw(db), nb, raw(dc) + off, 0));
        CUDA_OK(cudaDeviceSynchronize());
        thrust::host_vector<int32_t> got(dc.begin(), dc.end());
        for (uint64_t k = 0; k < na + nb; ++k) ASSERT_EQ(got[off + k], expected[k]) << na << "," << nb << " @" << k;
        for (uint32_t k = 0; k < off; ++k) ASSERT_EQ(got[k], -7);
        ASSERT_EQ(got[off + na + nb], -7);
      }
}

// Pairs whose values tag their origin: A[i] -> i, B[j] -> 2^31 | j. thrust::merge_by_key
// is stable; ours must give the same values, i.e. on equal keys A first.
struct TagB {
  __host__ __device__ uint32_t operator()(uint32_t j) const { return 0x80000000u | j; }
};

template <class K>
void check_pairs(uint64_t na, uint64_t nb, uint32_t spread, uint32_t off) {
  const auto a = sorted_keys<K>(na, 5 + na, spread), b = sorted_keys<K>(nb, 6 + nb, spread);
  thrust::device_vector<uint32_t> va(na), vb(nb + off);
  thrust::sequence(va.begin(), va.end());
  thrust::transform(thrust::counting_iterator<uint32_t>(0), thrust::counting_iterator<uint32_t>(static_cast<uint32_t>(nb)),
                    vb.begin() + off, TagB());
  thrust::device_vector<K> ok(na + nb + off), rk(na + nb);
  thrust::device_vector<uint32_t> ov(na + nb), rv(na + nb);
  CUDA_OK(merge_pairs(raw(a), raw(va), na, raw(b), raw(vb) + off, nb, raw(ok) + off, raw(ov), 0));
  CUDA_OK(cudaDeviceSynchronize());
  thrust::merge_by_key(a.begin(), a.end(), b.begin(), b.end(), va.begin(), vb.begin() + off, rk.begin(), rv.begin());
  EXPECT_TRUE(thrust::equal(ok.begin() + off, ok.end(), rk.begin()));
  EXPECT_TRUE(thrust::equal(ov.begin(), ov.end(), rv.begin()));
}

TEST(GpuMerge, PairsStableTenMillion) {
  SKIP_WITHOUT_DEVICE();
  check_pairs<int32_t>(10000000, 10000000, 2, 0);
  check_pairs<uint64_t>(10000000, 7000000, 2, 1);
  check_pairs<float>(1000000, 3000000, 1, 3);  // all equal: all of A, then all of B
}

TEST(GpuMerge, PairsAllEqualHundredMillion) {
  SKIP_WITHOUT_DEVICE();
  const uint64_t na = 60000000, nb = 40000000;
  thrust::device_vector<uint32_t> a(na, 9), b(nb, 9), va(na), vb(nb), ok(na + nb), ov(na + nb);
  thrust::sequence(va.begin(), va.end());
  thrust::sequence(vb.begin(), vb.end(), static_cast<uint32_t>(na));
  CUDA_OK(merge_pairs(raw(a), raw(va), na, raw(b), raw(vb), nb, raw(ok), raw(ov), 0));
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_TRUE(thrust::equal(ov.begin(), ov.end(), thrust::counting_iterator<uint32_t>(0)));
}

TEST(GpuMerge, ErrorsAndEmpty) {
  SKIP_WITHOUT_DEVICE();
  size_t bytes = 123;
  CUDA_OK(merge_keys<int32_t>(nullptr, bytes, nullptr, 0, nullptr, 0, nullptr));
  EXPECT_EQ(bytes, 16u);  // the least it asks for, even for nothing to merge
  CUDA_OK(merge_keys<int32_t>(nullptr, 0, nullptr, 0, nullptr));  // empty merge: nothing to do
  thrust::device_vector<int32_t> a(100, 1), c(200);
  size_t need = 0;
  CUDA_OK(merge_keys(nullptr, need, raw(a), 100, raw(a), 100, raw(c)));
  ASSERT_GT(need, 0u);
  thrust::device_vector<unsigned char> temp(need);
  size_t too_small = need - 1;
  EXPECT_EQ(merge_keys(static_cast<void*>(raw(temp)), too_small, raw(a), 100, raw(a), 100, raw(c)),
            cudaErrorInvalidValue);
  EXPECT_EQ(merge_keys(static_cast<void*>(raw(temp) + 8), need, raw(a), 100, raw(a), 100, raw(c)),
            cudaErrorInvalidValue);  // the scratch's splits are 16-byte aligned from its start
  // Reused temp storage, left as the last merge left it: each merge clears what it
  // needs (its counters and flags), so garbage in it changes nothing.
  thrust::fill(temp.begin(), temp.end(), static_cast<unsigned char>(0xA7));
  thrust::device_vector<int32_t> b(100);
  thrust::sequence(b.begin(), b.end());
  for (int round = 0; round < 3; ++round) {
    CUDA_OK(merge_keys(static_cast<void*>(raw(temp)), need, raw(a), 100, raw(b), 100, raw(c)));
    std::vector<int32_t> got(200);
    thrust::copy(c.begin(), c.end(), got.begin());
    std::vector<int32_t> ha(100, 1), hb(100), want(200);
    std::iota(hb.begin(), hb.end(), 0);
    std::merge(ha.begin(), ha.end(), hb.begin(), hb.end(), want.begin());
    EXPECT_EQ(got, want) << "round " << round;
  }
  const int32_t* misaligned = reinterpret_cast<const int32_t*>(reinterpret_cast<const char*>(raw(a)) + 1);
  EXPECT_EQ(merge_keys(static_cast<void*>(raw(temp)), need, misaligned, 10, raw(a), 10, raw(c)),
            cudaErrorMisalignedAddress);
}

}  // namespace
}  // namespace gpulin::merge_path
