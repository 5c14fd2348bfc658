// The per-key witness check on the GPU agrees with the host check and the replay
// on host-built histories uploaded in the recorder's layout; an irregular
// (malformed) recording is handed to the host, not judged; and a planted bad
// delete in a real recorded GPU run is reported with its keys.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <regex>

#include "histories/device_recorder.h"
#include "histories/key_history.h"
#include "structures/gheap/gpu/heap_stress.h"
#include "verify/pq_batch_witness.h"
#include "verify/pq_linear/gpu_check.h"
#include "verify/pq_linear/linear_check.h"
#include "verify/testing/generate_pq_history.h"

namespace gpulin {
namespace {

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

// Corrupts delete number `which` (among deletes that returned keys) in one of the
// ways the host tests use.
void corrupt(History& h, size_t which, int how) {
  std::vector<size_t> dels;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].f == "del" && h.ops[i].res && h.ops[i].res->is_array() && !h.ops[i].res->as_array().empty())
      dels.push_back(i);
  ASSERT_FALSE(dels.empty());
  Value::Array& res = h.ops[dels[which % dels.size()]].res->as_array();
  switch (how % 4) {
    case 0: res[0] = Value::integer(res[0].as_int() + 1); break;
    case 1: res.pop_back(); break;
    case 2: res.push_back(Value::integer(2000000)); break;
    case 3: res.back() = Value::integer(res.back().as_int() + 50); break;
  }
}

// Generated histories (k, key range, a corruption or none, its victim) with every
// key v replaced by widen(v), checked by the GPU from recorder words of KeyWord, by
// the host's per-key check and by the replay: all three must agree.
template <class KeyWord, class Widen>
void agree_on_generated_histories(Widen widen) {
  int cases = 0;
  for (int k : {1, 4, 16})
    for (uint64_t range : {uint64_t{1000000}, uint64_t{20}})
      for (int how = -1; how < 4; ++how)
        for (size_t which : {size_t{0}, size_t{7}, size_t{40}}) {
          History h = generate_pq_batch_history(600, k, 100 + k + which, 8, range);
          if (how >= 0) corrupt(h, which, how);
          KeyHistory kh = to_key_history(h);
          for (int64_t& v : kh.keys) v = widen(v);
          const WitnessResult replay = check_witness_pq_batch(kh);
          const LinearCheckResult host = check_pq_batch_linear(kh);
          BasicUploadedHistory<KeyWord> up(kh);
          const GpuCheckResult gpu = check_pq_batch_on_gpu(up.input());
          SCOPED_TRACE(std::to_string(8 * sizeof(KeyWord)) + "-bit keys: k=" + std::to_string(k) +
                       " range=" + std::to_string(range) + " how=" + std::to_string(how) +
                       " which=" + std::to_string(which));
          ASSERT_FALSE(gpu.irregular) << gpu.why;
          ASSERT_TRUE(host.applicable) << host.why;
          EXPECT_EQ(gpu.linear.witness.verdict, replay.verdict);
          EXPECT_EQ(gpu.linear.witness.ops_replayed, replay.ops_replayed);
          EXPECT_EQ(gpu.tuples, host.tuples);
          if (replay.violation) {
            ASSERT_TRUE(gpu.linear.witness.violation);
            EXPECT_EQ(gpu.linear.witness.violation->op, replay.violation->op);
            EXPECT_EQ(gpu.linear.witness.violation->expected, replay.violation->expected);
            EXPECT_EQ(gpu.linear.witness.violation->recorded, replay.violation->recorded);
            ASSERT_TRUE(gpu.linear.failure && host.failure);
            EXPECT_EQ(gpu.linear.failure->message, host.failure->message);
          }
          ++cases;
        }
  EXPECT_EQ(cases, 90);
}

TEST(GpuCheck, AgreesWithTheHostAndTheReplay) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  agree_on_generated_histories<uint32_t>([](int64_t v) { return v; });
}

// 64-bit keys: every key v made v << 32 | 0x5a5a5a5a (order kept, all above 2^32,
// all with one low word: a 32-bit narrowing would make them one key), checked from
// 64-bit recorder words; the host's per-key check still packs these keys.
TEST(GpuCheck, SixtyFourBitKeysAgreeWithTheHostAndTheReplay) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  agree_on_generated_histories<uint64_t>([](int64_t v) { return v << 32 | 0x5a5a5a5a; });
}

TEST(GpuCheck, MalformedRecordingIsIrregular) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  History h = generate_pq_batch_history(200, 4, 5, 4);
  // Drop one rel: its acq is never released, so the holds do not alternate.
  for (size_t i = 0; i < h.events.size(); ++i)
    if (h.events[i].kind == EventKind::Rel) {
      h.events.erase(h.events.begin() + static_cast<long>(i));
      break;
    }
  // Tickets must stay 1..E for the recorder's layout: renumber.
  for (size_t i = 0; i < h.events.size(); ++i) h.events[i].t = i + 1;
  KeyHistory kh = to_key_history(h);
  UploadedHistory up(kh);
  const GpuCheckResult gpu = check_pq_batch_on_gpu(up.input());
  EXPECT_TRUE(gpu.irregular);
  EXPECT_NE(gpu.why.find("alternate"), std::string::npos) << gpu.why;
}

// A recorded GPU run with one delete's first key made one larger, checked on the
// device (the root's holds numbered, or every node's) and on the host: the failure
// is found and explained with the model's answer. With 64-bit keys the host
// decides by the replay (the per-key check cannot pack keys spread over 2^63),
// whose message names no single key; the keys it shows are 64-bit ones (11 digits
// or more: above 2^32).
void planted_bad_delete_is_explained(uint32_t key_bits) {
  for (const char* where : {"device", "host", "device-all"}) {
    stress::StressOptions o;
    // The root's holds numbered on the root (the default for the root-release
    // rule), once every node's numbered (--holds all).
    if (std::string(where) == "device-all") o.holds = stress::StressOptions::Holds::All;
    if (o.holds != stress::StressOptions::Holds::Root) where = "device";
    o.blocks = 16;
    o.threads = 64;
    o.k = 16;
    o.keys = 1 << 13;
    o.key_bits = key_bits;
    o.record = true;
    o.check = where;
    o.plant_bad_delete = true;
    const stress::StressResult r = stress::run_stress(o);
    SCOPED_TRACE(std::to_string(key_bits) + "-bit keys, checked on the " + where);
    ASSERT_FALSE(r.witness_failure.empty()) << "the planted delete (first key + 1) was not found";
    EXPECT_NE(r.witness_failure.find("the model answers"), std::string::npos) << r.witness_failure;
    if (key_bits == 32 || std::string(where) == "device") {
      EXPECT_NE(r.witness_failure.find("key "), std::string::npos) << r.witness_failure;
    }
    if (key_bits == 64) {
      EXPECT_TRUE(std::regex_search(r.witness_failure, std::regex("[0-9]{11,}"))) << r.witness_failure;
    }
  }
}

TEST(GpuCheck, PlantedBadDeleteInARecordedRunIsExplained) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  planted_bad_delete_is_explained(32);
}

TEST(GpuCheck, PlantedBadDeleteInARecordedSixtyFourBitRunIsExplained) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  planted_bad_delete_is_explained(64);
}

// Hold versions on the GPU check: two actors' events written straight into a
// recorder's buffers, the root's holds numbered. Actor 0 inserts 5 (tickets 1, 2),
// actor 1 deletes and gets 5 (tickets 3, 4). Numbered insert first: linearizable.
// Numbered delete first, though it was invoked after the insert returned: the
// rule's order is not a real-time order, and the check says so.
GpuCheckResult check_numbered(uint32_t insert_hold, uint32_t delete_hold, bool whole = false) {
  DeviceRecorder rec(2, 8, 4);
  rec.version_holds(4, whole);
  std::vector<DeviceEvent> a0 = {{1, 0, 0, kDeviceInv, 0, 0, 1, 0, 0},
                                 {0, 0, 1, kDeviceAcq, kHoldUnnumbered, 0, 0, 0, 0},
                                 {0, 0, 1, kDeviceRel, insert_hold, 0, 0, 0, 0},
                                 {2, 0, 0, kDeviceRet, 0, 0, 0, 1, 0}};
  std::vector<DeviceEvent> a1 = {{3, 1, 0, kDeviceInv, 1, 0, 0, 0, 1},
                                 {0, 1, 1, kDeviceAcq, kHoldUnnumbered, 0, 0, 0, 1},
                                 {0, 1, 1, kDeviceRel, delete_hold, 0, 0, 0, 1},
                                 {4, 1, 0, kDeviceRet, 0, 0, 1, 0, 1}};
  // Implied acqs: each hold one record (kDeviceHold) after its release.
  if (whole)
    for (auto* log : {&a0, &a1}) {
      log->erase(log->begin() + 1);
      (*log)[1].kind = kDeviceHold;
    }
  const DeviceRecorderRef ref = rec.ref();
  const uint32_t n = static_cast<uint32_t>(a0.size());
  const uint32_t counts[2] = {n, n}, key_counts[2] = {1, 1}, keys[8] = {5, 0, 0, 0, 5, 0, 0, 0};
  EXPECT_EQ(cudaMemcpy(ref.events, a0.data(), sizeof(DeviceEvent) * n, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(ref.events + 8, a1.data(), sizeof(DeviceEvent) * n, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(ref.event_count, counts, 8, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(ref.key_count, key_counts, 8, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(ref.keys, keys, 32, cudaMemcpyHostToDevice), cudaSuccess);
  GpuCheckInput in;
  in.rec = ref;
  in.actors = 2;
  in.ops = 2;
  return check_pq_batch_on_gpu(in);
}

TEST(GpuCheck, HoldNumbersGiveTheRulesOrderAndMustAgreeWithRealTime) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  // Each hold as acq and rel, and as one whole record (implied acqs): the same verdicts.
  for (const bool whole : {false, true}) {
    SCOPED_TRACE(whole ? "whole holds" : "acq and rel");
    const GpuCheckResult ok = check_numbered(0, 1, whole);
    EXPECT_FALSE(ok.irregular) << ok.why;
    EXPECT_EQ(ok.linear.witness.verdict, Verdict::Linearizable);
    EXPECT_EQ(ok.events, 8u);
    const GpuCheckResult against = check_numbered(1, 0, whole);
    EXPECT_TRUE(against.irregular);
    EXPECT_NE(against.why.find("real-time"), std::string::npos) << against.why;
    const GpuCheckResult twice = check_numbered(0, 0, whole);
    EXPECT_TRUE(twice.irregular);
    EXPECT_NE(twice.why.find("alternate"), std::string::npos) << twice.why;
  }
}

// A recorded 64-bit key above 2^63 - 1 (what a heap returning its MAX_VALUE would
// record) has no history integer: the GPU check calls the recording irregular and
// leaves the diagnosis to the host (whose assembly names the key and the op).
TEST(GpuCheck, SixtyFourBitKeyAboveTheHistoryRangeIsIrregular) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  KeyHistory kh = to_key_history(generate_pq_batch_history(200, 4, 5, 4));
  BasicUploadedHistory<uint64_t> up(kh);
  const uint64_t max_value = ~uint64_t{0};
  ASSERT_EQ(cudaMemcpy(up.input().rec.keys, &max_value, 8, cudaMemcpyHostToDevice), cudaSuccess);  // the first recorded key
  const GpuCheckResult gpu = check_pq_batch_on_gpu(up.input());
  EXPECT_TRUE(gpu.irregular) << "a key of 2^64 - 1 was judged as if a history could hold it";
  EXPECT_NE(gpu.why.find("2^63 - 1"), std::string::npos) << gpu.why;
}

}  // namespace
}  // namespace gpulin
