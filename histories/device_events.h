// The device recorder's layout, shared by the recording code (CUDA contexts) and
// the host side that downloads it: one preallocated append buffer of events and one
// of keys per recording actor (thread block), and one global ticket counter whose
// order is real-time order (../shared/design.md, Recording). Plain structs only, so
// host and device code both include this.
#pragma once

#include <cstdint>

namespace gpulin {

struct DeviceEvent {
  uint64_t t;
  int64_t op;
  int64_t node;      // acq, rel
  uint32_t kind;     // EventKind
  uint32_t fn;       // inv
  uint32_t key_off;  // inv, ret: payload in the actor's key buffer
  uint32_t key_len;
  uint32_t is_null;  // ret: the result is null
  uint32_t actor;
};

// Passed by value to kernels. Actor b appends to events[b * event_cap ...] and
// keys[b * key_cap ...]; the counts keep counting past the capacity, so that an
// overflow is detected (and its size known) instead of silently truncated.
struct DeviceRecorderRef {
  unsigned long long* ticket = nullptr;
  DeviceEvent* events = nullptr;
  uint32_t* event_count = nullptr;  // [actors]
  uint32_t* keys = nullptr;
  uint32_t* key_count = nullptr;    // [actors]
  uint32_t event_cap = 0;
  uint32_t key_cap = 0;
};

}  // namespace gpulin
