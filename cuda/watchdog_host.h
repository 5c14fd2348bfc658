// The host's side of the GPU watchdog (cuda/watchdog.h): its words in device
// memory, read back after a kernel, and the report a user reads: who stopped the
// run, on which word, and who was waiting on what. Plain C++ (cudart only).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cuda/watchdog.h"

namespace gpulin::cuda_exec {

struct WatchdogReport {
  bool stopped = false;
  uint32_t stopped_by = 0;  // the actor whose wait passed the bound (or that failed)
  uint64_t spin_bound = 0;
  std::vector<WatchdogWait> waits;  // in the order they were recorded
  uint64_t waits_lost = 0;          // recorded past the room (counted, not kept)
};

// Names a waited-on word for the report ("the lock of node 1"); the structure's
// launcher knows its layout. Empty: the report prints the address.
using WordNamer = std::function<std::string(uint64_t address)>;

// Reads a waited-on word's value for the report, after "value " ("8193, state 1
// after 1024 holds" for a heap root's counted word); empty: the number alone.
using ValueNamer = std::function<std::string(uint64_t address, uint32_t value)>;

// `actor_noun`: "block" or "warp". One paragraph, without a trailing newline.
std::string describe(const WatchdogReport& r, const WordNamer& name_word, const std::string& actor_noun = "block",
                     const ValueNamer& name_value = {});

// "0-4, 6, 9-127": actor ids, sorted, as ranges.
std::string id_ranges(std::vector<uint32_t> ids);

class DeviceWatchdog {
 public:
  // Room for one recorded wait per actor is enough: an actor stops once.
  explicit DeviceWatchdog(uint32_t actors, uint64_t spin_bound = kDefaultSpinBound);
  ~DeviceWatchdog();
  DeviceWatchdog(const DeviceWatchdog&) = delete;
  DeviceWatchdog& operator=(const DeviceWatchdog&) = delete;

  const WatchdogRef& ref() const { return ref_; }
  // After the kernels (synchronises): what the device recorded. Throws
  // std::runtime_error when the copy fails (a fault in the kernel shows here).
  WatchdogReport read() const;

 private:
  WatchdogRef ref_;
};

}  // namespace gpulin::cuda_exec
