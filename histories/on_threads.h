// Runs fn(0), ..., fn(n - 1) on n threads, the calling one as thread 0, and
// rethrows the first exception any of them threw. The readers and the host
// checks (verify/pq_linear) share it; it sits here, in the lowest layer both use.
#pragma once

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpulin {

template <class F>
void on_threads(unsigned n, F&& fn) {
  std::exception_ptr error;
  std::mutex error_mutex;
  auto run = [&](unsigned i) {
    try {
      fn(i);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> workers;
    for (unsigned i = 1; i < n; ++i) workers.emplace_back(run, i);
    run(0);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace gpulin
