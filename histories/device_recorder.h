// Host side of device recording: allocates the per-actor buffers on the GPU, hands
// kernels a DeviceRecorderRef, and downloads what was recorded as a History.
// Implemented in device_recorder.cu; this header needs no CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/key_history.h"
#include "histories/device_events.h"
#include "histories/history.h"

namespace gpulin {

class DeviceRecorder {
 public:
  DeviceRecorder(uint32_t actors, uint32_t event_cap, uint32_t key_cap);
  ~DeviceRecorder();
  DeviceRecorder(const DeviceRecorder&) = delete;
  DeviceRecorder& operator=(const DeviceRecorder&) = delete;

  DeviceRecorderRef ref() const { return ref_; }
  void clear();  // counts and ticket to zero

  struct Usage {
    uint64_t events = 0, keys = 0;
    uint32_t worst_actor = 0;          // the actor closest to (or over) its capacity
    uint64_t worst_events = 0, worst_keys = 0;
    bool overflow = false;
  };
  Usage usage() const;

  // Every recorded event, in ticket order, with the keys in one pool. Throws
  // std::runtime_error naming the actor and the sizes when any buffer overflowed:
  // nothing is dropped in silence.
  KeyHistory download(Header header, const std::vector<std::string>& fn_names, std::string source) const;
  size_t bytes() const;

 private:
  uint32_t actors_;
  DeviceRecorderRef ref_;
};

// Assembles a history from raw device events (any order; sorted by t here) and the
// per-actor key buffers (actor a's keys at keys[a * key_cap ...]). Shared by
// download() and by tests on the host. The structural rules are not checked here.
KeyHistory assemble_device_history(std::vector<DeviceEvent> events, const std::vector<uint32_t>& keys,
                                   uint32_t key_cap, Header header, const std::vector<std::string>& fn_names,
                                   std::string source);

}  // namespace gpulin
