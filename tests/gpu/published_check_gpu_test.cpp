// The check of a published-clock recording on the GPU (verify/keyed_linear/
// gpu_published_check.h) against the host's path (assemble, check_events,
// check_keyed_linear) on generated recordings: the same keys, the same keys where
// ret order fails, the same first failure and, with the search on the failing
// keys' operations alone, the same verdict. A recording the host would refuse is
// handed to it, not judged; and `gpulin stress` on the slab hash gives the same
// result with the check on the GPU as on the host.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/cuda_support.h"
#include "histories/published_clock_history.h"
#include "histories/result_shapes.h"
#include "histories/rules.h"
#include "structures/slab_hash/gpu/slab_stress.h"
#include "verify/keyed_linear/gpu_published_check.h"
#include "verify/keyed_linear/keyed_check.h"
#include "verify/search_checker.h"
#include "verify/testing/generate_published_recording.h"

namespace gpulin {
namespace {

bool have_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

const ResultShapes& shapes() {
  static const ResultShapes s = {{"search", ResultShape::Scalar}, {"contains", ResultShape::Bool}};
  return s;
}

Header header_of(const std::string& model) {
  Header h;
  h.model = model;
  return h;
}

// The recording on the device, checked there.
PublishedCheckResult check_on_gpu(const PublishedRecording& rec, const std::string& model) {
  std::vector<uint32_t> keys, values;
  for (const PublishedCall& c : rec.calls) keys.push_back(c.key), values.push_back(c.value);
  const cuda_support::DeviceBuffer<PublishedRecord> d_records(rec.records);
  const cuda_support::DeviceBuffer<uint32_t> d_keys(keys), d_values(values);
  const cuda_support::DeviceBuffer<PublishedTick> d_ticks(rec.ticks);
  return check_published_keyed_on_gpu({d_records.get(), d_keys.get(), d_values.get(), rec.records.size(), d_ticks.get(),
                                       static_cast<uint32_t>(rec.ticks.size()), false, model, rec.fn_names});
}

// The host's path; throws FormatError where the host refuses the recording.
KeyedCheckResult check_on_host(const PublishedRecording& rec, const std::string& model, KeyHistory* out = nullptr) {
  KeyHistory kh = assemble_published_history(rec.records, rec.calls, rec.ticks, false, header_of(model), rec.fn_names,
                                             "<gen>");
  apply_result_shapes(kh, shapes());
  check_events(kh.events, kh.source);
  KeyedCheckResult r = check_keyed_linear(kh);
  if (out) *out = std::move(kh);
  return r;
}

// The search on the failing keys' operations as the GPU handed them over.
Verdict search_failing(const PublishedCheckResult& g, const std::string& model, const std::vector<std::string>& fns) {
  KeyHistory sub = assemble_published_ops(g.failing.records, g.failing.calls, g.failing.ids, g.failing.ticks, false,
                                          header_of(model), fns, "<gen>");
  apply_result_shapes(sub, shapes());
  check_events(sub.events, sub.source);
  return check_search(expand(std::move(sub))).verdict;
}

TEST(PublishedCheckGpu, AgreesWithTheHostOnGeneratedRecordings) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  int cases = 0, searched = 0, not_linearizable = 0;
  for (bool map : {true, false})
    for (double wrong : {0.0, 0.02})
      for (double pending : {0.0, 0.03})
        for (uint64_t seed = 1; seed <= 6; ++seed) {
          PublishedRecordingOptions o;
          o.map = map, o.wrong = wrong, o.pending = pending, o.seed = seed, o.ops = 2000, o.keys = 24;
          const std::string model = map ? "map" : "set";
          SCOPED_TRACE(model + " wrong " + std::to_string(wrong) + " pending " + std::to_string(pending) + " seed " +
                       std::to_string(seed));
          const PublishedRecording rec = generate_published_recording(o);
          KeyHistory kh;
          const KeyedCheckResult host = check_on_host(rec, model, &kh);
          const PublishedCheckResult gpu = check_on_gpu(rec, model);
          ASSERT_TRUE(host.applicable) << host.why;
          ASSERT_FALSE(gpu.irregular) << gpu.why;
          EXPECT_EQ(gpu.completed + rec.records.size(), kh.events.size());
          EXPECT_EQ(gpu.keys, host.keys);
          EXPECT_EQ(gpu.failing_keys, host.failing_keys);
          EXPECT_EQ(gpu.witness.verdict, host.witness.verdict);
          EXPECT_EQ(gpu.witness.ops_replayed, host.witness.ops_replayed);
          if (host.witness.violation) {
            ASSERT_TRUE(gpu.witness.violation);
            EXPECT_EQ(gpu.witness.violation->op, host.witness.violation->op);
            EXPECT_EQ(gpu.witness.violation->message, host.witness.violation->message);
          }
          if (!gpu.failing_keys.empty()) {
            ++searched;
            EXPECT_EQ(search_failing(gpu, model, rec.fn_names), host.verdict);
          }
          not_linearizable += host.verdict == Verdict::NotLinearizable;
          ++cases;
        }
  EXPECT_EQ(cases, 48);
  EXPECT_GT(searched, 24);           // ret order failed, the search decided
  EXPECT_GT(not_linearizable, 10);   // and the planted wrong answers were caught
}

// Each malformed recording: the host refuses it (or cannot check it by key), and
// the GPU hands it over, saying what it saw.
TEST(PublishedCheckGpu, IrregularRecordingsGoToTheHost) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  PublishedRecordingOptions o;
  o.ops = 300;
  const PublishedRecording good = generate_published_recording(o);
  struct Case {
    const char* what;
    void (*spoil)(PublishedRecording&);
  };
  const Case cases[] = {
      {"a record never written", [](PublishedRecording& r) { r.records[17] = PublishedRecord{}; }},
      {"a ret no sighting published", [](PublishedRecording& r) { r.ticks.clear(); }},
      {"an unknown operation", [](PublishedRecording& r) { r.records[5].shape |= 0xFu << 4; }},
      {"a multiprocessor's sightings go back", [](PublishedRecording& r) { r.ticks.push_back(r.ticks.front()); }},
      {"an operation that does not fit the model",
       [](PublishedRecording& r) {
         for (PublishedRecord& rec : r.records)
           if (((rec.shape >> 4) & 0xFu) == 0) {  // a replace with one argument
             rec.shape = (rec.shape & ~3u) | 1u;
             return;
           }
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    PublishedRecording bad = good;
    c.spoil(bad);
    const PublishedCheckResult gpu = check_on_gpu(bad, "map");
    EXPECT_TRUE(gpu.irregular);
    EXPECT_NE(gpu.why.find(c.what), std::string::npos) << gpu.why;
    bool host_refused = false;
    try {
      host_refused = !check_on_host(bad, "map").applicable;
    } catch (const FormatError&) {
      host_refused = true;
    }
    EXPECT_TRUE(host_refused);
  }
}

// A recorded slab-hash run: the check on the GPU and the one on the host see the
// same history (events, keys, keys searched) and give the same verdict.
TEST(PublishedCheckGpu, SlabStressChecksOnTheGpuAsOnTheHost) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  for (auto mode : {slab_hash::Mode::Map, slab_hash::Mode::Set}) {
    stress::SlabStressOptions o;
    o.mode = mode;
    o.buckets = 1 << 12;
    o.initial = 1 << 16;
    o.ops = 1 << 18;
    o.batch = 1 << 16;
    o.record = true;
    o.check = "device";
    const stress::SlabStressResult gpu = stress::run_slab_stress(o);
    o.check = "host";
    const stress::SlabStressResult host = stress::run_slab_stress(o);
    EXPECT_EQ(gpu.checked_on, "GPU") << gpu.irregular;
    EXPECT_EQ(host.checked_on, "host");
    EXPECT_TRUE(gpu.failures.empty()) << gpu.failures.front();
    EXPECT_TRUE(host.failures.empty()) << host.failures.front();
    EXPECT_EQ(gpu.events, host.events);
    EXPECT_EQ(gpu.keys_checked, host.keys_checked);
    EXPECT_GT(gpu.keys_checked, uint64_t{1} << 16);
    // Two runs of one GPU interleave differently: the keys ret order fails on are
    // the run's, not the seed's; both runs searched some.
    EXPECT_GT(gpu.keys_searched + host.keys_searched, 0u);
  }
}

}  // namespace
}  // namespace gpulin
