#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "histories/device_recorder.h"

namespace gpulin {

namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("device recorder: ") + what + ": " + cudaGetErrorString(e));
}
}  // namespace

template <class KeyWord>
BasicDeviceRecorder<KeyWord>::BasicDeviceRecorder(uint32_t actors, uint32_t event_cap, uint32_t key_cap)
    : actors_(actors) {
  ref_.event_cap = event_cap;
  ref_.key_cap = key_cap;
  check(cudaMalloc(&ref_.ticket, sizeof(unsigned long long)), "cudaMalloc ticket");
  check(cudaMalloc(&ref_.events, sizeof(DeviceEvent) * size_t(actors) * event_cap), "cudaMalloc events");
  check(cudaMalloc(&ref_.event_count, sizeof(uint32_t) * actors), "cudaMalloc event counts");
  check(cudaMalloc(&ref_.keys, sizeof(KeyWord) * size_t(actors) * key_cap), "cudaMalloc keys");
  check(cudaMalloc(&ref_.key_count, sizeof(uint32_t) * actors), "cudaMalloc key counts");
  clear();
}

template <class KeyWord>
BasicDeviceRecorder<KeyWord>::~BasicDeviceRecorder() {
  cudaFree(ref_.ticket);
  cudaFree(ref_.events);
  cudaFree(ref_.event_count);
  cudaFree(ref_.keys);
  cudaFree(ref_.key_count);
  cudaFree(ref_.hold_versions);
}

template <class KeyWord>
void BasicDeviceRecorder<KeyWord>::version_holds(uint64_t nodes, bool implied_acqs) {
  cudaFree(ref_.hold_versions);
  ref_.hold_versions = nullptr;
  version_nodes_ = nodes;
  ref_.hold_version_nodes = nodes;
  ref_.implied_acqs = implied_acqs ? 1u : 0u;
  check(cudaMalloc(&ref_.hold_versions, sizeof(uint32_t) * nodes), "cudaMalloc hold versions");
  clear();
}

template <class KeyWord>
size_t BasicDeviceRecorder<KeyWord>::bytes() const {
  return size_t(actors_) * (sizeof(DeviceEvent) * ref_.event_cap + sizeof(KeyWord) * ref_.key_cap + 8) + 8;
}

template <class KeyWord>
void BasicDeviceRecorder<KeyWord>::clear() {
  check(cudaMemset(ref_.ticket, 0, sizeof(unsigned long long)), "clear ticket");
  check(cudaMemset(ref_.event_count, 0, sizeof(uint32_t) * actors_), "clear counts");
  check(cudaMemset(ref_.key_count, 0, sizeof(uint32_t) * actors_), "clear counts");
  if (ref_.hold_versions)
    check(cudaMemset(ref_.hold_versions, 0, sizeof(uint32_t) * version_nodes_), "clear hold versions");
}

template <class KeyWord>
typename BasicDeviceRecorder<KeyWord>::Usage BasicDeviceRecorder<KeyWord>::usage() const {
  std::vector<uint32_t> ev(actors_), ks(actors_);
  check(cudaMemcpy(ev.data(), ref_.event_count, 4 * actors_, cudaMemcpyDeviceToHost), "read counts");
  check(cudaMemcpy(ks.data(), ref_.key_count, 4 * actors_, cudaMemcpyDeviceToHost), "read counts");
  Usage u;
  double worst = -1;
  for (uint32_t a = 0; a < actors_; ++a) {
    u.events += ev[a];
    u.keys += ks[a];
    const double fill = std::max(double(ev[a]) / ref_.event_cap, double(ks[a]) / std::max(1u, ref_.key_cap));
    if (fill > worst) {
      worst = fill;
      u.worst_actor = a;
      u.worst_events = ev[a];
      u.worst_keys = ks[a];
    }
    if (ev[a] > ref_.event_cap || ks[a] > ref_.key_cap) u.overflow = true;
  }
  return u;
}

template <class KeyWord>
KeyHistory BasicDeviceRecorder<KeyWord>::download(Header header, const std::vector<std::string>& fn_names,
                                                std::string source) const {
  const Usage u = usage();
  if (u.overflow)
    throw std::runtime_error("device recorder overflow: actor " + std::to_string(u.worst_actor) + " recorded " +
                             std::to_string(u.worst_events) + " events (capacity " + std::to_string(ref_.event_cap) +
                             ") and " + std::to_string(u.worst_keys) + " keys (capacity " +
                             std::to_string(ref_.key_cap) + "); nothing was dropped silently: rerun with more room");
  std::vector<uint32_t> ev(actors_);
  check(cudaMemcpy(ev.data(), ref_.event_count, 4 * actors_, cudaMemcpyDeviceToHost), "read counts");
  std::vector<DeviceEvent> events;
  events.reserve(u.events);
  std::vector<DeviceEvent> buf(ref_.event_cap);
  for (uint32_t a = 0; a < actors_; ++a) {
    check(cudaMemcpy(buf.data(), ref_.events + size_t(a) * ref_.event_cap, sizeof(DeviceEvent) * ev[a],
                     cudaMemcpyDeviceToHost),
          "read events");
    events.insert(events.end(), buf.begin(), buf.begin() + ev[a]);
  }
  std::vector<KeyWord> keys(size_t(actors_) * ref_.key_cap);
  check(cudaMemcpy(keys.data(), ref_.keys, sizeof(KeyWord) * keys.size(), cudaMemcpyDeviceToHost), "read keys");
  return assemble_device_history(std::move(events), keys, ref_.key_cap, std::move(header), fn_names,
                                 std::move(source));
}

template class BasicDeviceRecorder<uint32_t>;
template class BasicDeviceRecorder<uint64_t>;

}  // namespace gpulin
