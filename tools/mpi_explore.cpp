#include "tools/mpi_explore.h"

#include <mpi.h>

#include <cstdlib>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <thread>

#include "tools/explore/part_dispenser.h"

namespace gpulin::cli {

namespace {
enum Tag : int { kAsk = 1, kChunk = 2, kReport = 3 };

// A rank other than 0: asks rank 0 for chunks of parts, one ask ahead. It asks for
// the next chunk as it begins the last part of the current one, so while it
// explores that part the answer is on its way (rank 0's main thread looks for asks
// every 250 us, and a waiting Open MPI receive spins on the core the rank would
// explore on).
class ChunkAsker {
 public:
  std::optional<uint64_t> operator()(uint64_t parts) {
    if (chunk_.empty()) {
      if (!pending_) ask(parts);
      MPI_Wait(&answer_, MPI_STATUS_IGNORE);
      pending_ = false;
      chunk_ = {answer_words_[0], answer_words_[1]};
      if (chunk_.empty()) return std::nullopt;
    }
    const uint64_t mine = chunk_.first++;
    if (chunk_.empty()) ask(parts);
    return mine;
  }

 private:
  void ask(uint64_t parts) {
    MPI_Send(&parts, 1, MPI_UINT64_T, 0, kAsk, MPI_COMM_WORLD);
    MPI_Irecv(answer_words_, 2, MPI_UINT64_T, 0, kChunk, MPI_COMM_WORLD, &answer_);
    pending_ = true;
  }
  explore::PartRange chunk_;
  uint64_t answer_words_[2] = {0, 0};
  MPI_Request answer_ = MPI_REQUEST_NULL;
  bool pending_ = false;
};

// Rank 0's main thread: answers asks from the dispenser that rank 0's own explorer
// also draws from, and collects the other ranks' reports. It polls rather than
// blocks because Open MPI's blocking receive spins, taking the core rank 0's
// explorer needs; with chunks there are few asks to answer, so a poll every 50 us
// costs little (bench/results/architecture-notes.md §7).
std::vector<std::string> serve(explore::PartDispenser& dispenser, int ranks) {
  std::vector<std::string> reports;
  while (static_cast<int>(reports.size()) < ranks - 1) {
    int waiting = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, &st);
    if (!waiting) {
      std::this_thread::sleep_for(std::chrono::microseconds(250));
      continue;
    }
    if (st.MPI_TAG == kAsk) {
      uint64_t parts = 0;
      MPI_Recv(&parts, 1, MPI_UINT64_T, st.MPI_SOURCE, kAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const explore::PartRange chunk = dispenser.take(parts);
      const uint64_t words[2] = {chunk.first, chunk.last};
      MPI_Send(words, 2, MPI_UINT64_T, st.MPI_SOURCE, kChunk, MPI_COMM_WORLD);
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
  // libfabric, UCX), which takes most of a short run's start (about half, with ob1
  // named: bench/results/architecture-notes.md §7). ob1
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
    explore::PartDispenser dispenser(static_cast<uint64_t>(ranks));
    std::string own;
    std::exception_ptr failed;
    std::thread explorer([&] {
      try {
        explore::PartRange chunk;
        own = explore([&dispenser, chunk](uint64_t parts) mutable -> std::optional<uint64_t> {
          if (chunk.empty()) chunk = dispenser.take(parts);
          if (chunk.empty()) return std::nullopt;
          return chunk.first++;
        }, 0);
      } catch (...) {
        failed = std::current_exception();
      }
    });
    std::vector<std::string> others = serve(dispenser, ranks);
    explorer.join();
    if (failed) {
      MPI_Finalize();
      std::rethrow_exception(failed);
    }
    all = std::vector<std::string>{std::move(own)};
    for (std::string& r : others) all->push_back(std::move(r));
  } else {
    ChunkAsker asker;
    const std::string report = explore(std::ref(asker), rank);
    MPI_Send(report.data(), static_cast<int>(report.size()), MPI_CHAR, 0, kReport, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return all;
}

}  // namespace gpulin::cli
