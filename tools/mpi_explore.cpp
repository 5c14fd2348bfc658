#include "tools/mpi_explore.h"

#include <mpi.h>

#include <cstdlib>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace gpulin::cli {

namespace {
enum Tag : int { kAsk = 1, kPart = 2, kReport = 3 };

// A rank other than 0: asks rank 0 for each next part.
std::optional<uint64_t> ask_rank0(uint64_t parts) {
  const uint64_t want = 0;
  uint64_t part = 0;
  MPI_Send(&want, 1, MPI_UINT64_T, 0, kAsk, MPI_COMM_WORLD);
  MPI_Recv(&part, 1, MPI_UINT64_T, 0, kPart, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return part < parts ? std::optional<uint64_t>(part) : std::nullopt;
}

// Rank 0's main thread: answers asks from the dispenser that rank 0's own explorer
// also draws from, and collects the other ranks' reports. It polls rather than
// blocks because Open MPI's blocking receive spins, taking the core rank 0's
// explorer needs.
std::vector<std::string> serve(std::atomic<uint64_t>& next, int ranks) {
  std::vector<std::string> reports;
  while (static_cast<int>(reports.size()) < ranks - 1) {
    int waiting = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, &st);
    if (!waiting) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    if (st.MPI_TAG == kAsk) {
      uint64_t want = 0;
      MPI_Recv(&want, 1, MPI_UINT64_T, st.MPI_SOURCE, kAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const uint64_t part = next++;
      MPI_Send(&part, 1, MPI_UINT64_T, st.MPI_SOURCE, kPart, MPI_COMM_WORLD);
    } else {
      int size = 0;
      MPI_Get_count(&st, MPI_CHAR, &size);
      std::string report(static_cast<size_t>(size), '\0');
      MPI_Recv(report.data(), size, MPI_CHAR, st.MPI_SOURCE, kReport, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      reports.push_back(std::move(report));
    }
  }
  return reports;
}
}  // namespace

bool mpi_available() { return true; }

std::optional<std::vector<std::string>> mpi_explore(const RankExplore& explore) {
  // Left to choose, Open MPI probes every messaging layer it has (cm with
  // libfabric, UCX), which takes most of a short run's start: two ranks of a tiny
  // exploration on the 2-core VM start in 0.40 s, in 0.18 s with ob1 named. ob1
  // is always there (over shared memory and TCP), and an exploration's messages
  // are a few words each (a part asked for, a part given, one report a rank). A
  // choice the user made (OMPI_MCA_pml in the environment, as mpirun --mca pml
  // sets it) stands.
  setenv("OMPI_MCA_pml", "ob1", /*overwrite=*/0);
  int provided = 0;
  // Only the main thread calls MPI; rank 0's explorer thread never does.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::optional<std::vector<std::string>> all;
  if (rank == 0) {
    std::atomic<uint64_t> next{0};
    std::string own;
    std::exception_ptr failed;
    std::thread explorer([&] {
      try {
        own = explore([&next](uint64_t parts) -> std::optional<uint64_t> {
          const uint64_t part = next++;
          return part < parts ? std::optional<uint64_t>(part) : std::nullopt;
        }, 0);
      } catch (...) {
        failed = std::current_exception();
      }
    });
    std::vector<std::string> others = serve(next, ranks);
    explorer.join();
    if (failed) {
      MPI_Finalize();
      std::rethrow_exception(failed);
    }
    all = std::vector<std::string>{std::move(own)};
    for (std::string& r : others) all->push_back(std::move(r));
  } else {
    const std::string report = explore(ask_rank0, rank);
    MPI_Send(report.data(), static_cast<int>(report.size()), MPI_CHAR, 0, kReport, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return all;
}

}  // namespace gpulin::cli
