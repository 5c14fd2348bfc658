// explore --mpi where gpulin was built without MPI (find_package(MPI) failed).
#include <stdexcept>

#include "tools/mpi_explore.h"

namespace gpulin::cli {

bool mpi_available() { return false; }

std::optional<std::vector<std::string>> mpi_explore(const RankExplore&) {
  throw std::runtime_error("this gpulin was built without MPI (install libopenmpi-dev: scripts/setup.sh)");
}

}  // namespace gpulin::cli
