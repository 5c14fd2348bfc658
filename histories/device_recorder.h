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

// `KeyWord`: the recorded keys' type (uint32_t or uint64_t, the structure's key);
// both are built (device_recorder.cu).
template <class KeyWord>
class BasicDeviceRecorder {
 public:
  using Ref = BasicDeviceRecorderRef<KeyWord>;
  BasicDeviceRecorder(uint32_t actors, uint32_t event_cap, uint32_t key_cap);
  ~BasicDeviceRecorder();
  BasicDeviceRecorder(const BasicDeviceRecorder&) = delete;
  BasicDeviceRecorder& operator=(const BasicDeviceRecorder&) = delete;

  Ref ref() const { return ref_; }
  void clear();  // counts, ticket (and hold versions) to zero
  // Holds recorded by hold versions (device_events.h) on nodes [0, nodes): for
  // histories judged by the root-release rule, whose holds' tickets inside the
  // root's hold are most of what recording costs. The holds of nodes at or past
  // `nodes` are not recorded (a heap's root alone: nodes = 2). implied_acqs: each
  // hold one record after its release, its acq implied (device_events.h: only
  // where nothing is recorded inside a recorded hold).
  void version_holds(uint64_t nodes, bool implied_acqs = false);

  struct Usage {
    uint64_t events = 0, keys = 0;
    uint32_t worst_actor = 0;          // the actor closest to (or over) its capacity
    uint64_t worst_events = 0, worst_keys = 0;
    bool overflow = false;
  };
  Usage usage() const;

  // Every recorded event, in ticket order, with the keys in one pool. Throws
  // std::runtime_error naming the actor and the sizes when any buffer overflowed:
  // nothing is dropped in silence; FormatError for a 64-bit key above 2^63 - 1
  // (assemble_device_history).
  KeyHistory download(Header header, const std::vector<std::string>& fn_names, std::string source) const;
  size_t bytes() const;

 private:
  uint32_t actors_;
  uint64_t version_nodes_ = 0;
  Ref ref_;
};
using DeviceRecorder = BasicDeviceRecorder<uint32_t>;
using DeviceRecorder64 = BasicDeviceRecorder<uint64_t>;
extern template class BasicDeviceRecorder<uint32_t>;
extern template class BasicDeviceRecorder<uint64_t>;

// Assembles a history from raw device events (any order; sorted by t here) and the
// per-actor key buffers (actor a's keys at keys[a * key_cap ...]). Shared by
// download() and by tests on the host. The structural rules are not checked here;
// what the recorder itself guarantees is: two events with one ticket (its counter
// gives each its own), and an event whose keys run past its actor's key_cap (an
// overflow download() should have reported) are FormatErrors naming the event.
// A history's integers are signed 64-bit (history-format.md): a 64-bit key above
// 2^63 - 1 is refused (FormatError naming the op), never wrapped.
// Built for uint32_t and uint64_t key words (device_history.cpp).
template <class KeyWord>
KeyHistory assemble_device_history(std::vector<DeviceEvent> events, const std::vector<KeyWord>& keys,
                                   uint32_t key_cap, Header header, const std::vector<std::string>& fn_names,
                                   std::string source);

}  // namespace gpulin
