// Not a test: times generate_distinct_pq_history and check_distinct_pq on pq
// histories (k = 1) from 64 actors, linearizable and corrupted; median of 3.
//   verify_distinct_pq_speed [ops] [k] [actors]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "histories/key_history.h"
#include "verify/distinct_pq_checker.h"
#include "verify/testing/generate_distinct_pq_history.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpulin;
  const size_t ops = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  const int k = argc > 2 ? std::atoi(argv[2]) : 1;
  const int actors = argc > 3 ? std::atoi(argv[3]) : 64;
  std::printf("%zu ops, k=%d, %d actors, median of 3\n", ops, k, actors);
  for (bool linearizable : {true, false}) {
    std::vector<double> gen_s, convert_s, check_s;
    DistinctPqResult r;
    for (uint64_t run = 0; run < 3; ++run) {
      auto t0 = std::chrono::steady_clock::now();
      const History h = generate_distinct_pq_history(ops, k, actors, 100 + run, linearizable);
      gen_s.push_back(seconds_since(t0));
      t0 = std::chrono::steady_clock::now();
      const KeyHistory kh = to_key_history(h);
      convert_s.push_back(seconds_since(t0));
      t0 = std::chrono::steady_clock::now();
      r = check_distinct_pq(kh);
      check_s.push_back(seconds_since(t0));
      if (r.verdict != (linearizable ? Verdict::Linearizable : Verdict::NotLinearizable)) {
        std::fprintf(stderr, "wrong verdict (%s, %s): %s\n", to_string(r.applicable), to_string(r.verdict),
                     r.message.c_str());
        return 1;
      }
    }
    std::printf("%-14s generate %.3f s, to_key_history %.3f s, check_distinct_pq %.3f s (%s)\n",
                linearizable ? "linearizable" : "corrupted", median(gen_s), median(convert_s), median(check_s),
                to_string(r.verdict));
    if (!linearizable) std::printf("  %s\n", r.message.c_str());
  }
  return 0;
}
