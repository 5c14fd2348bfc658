#include "structures/gheap/gpu/device_heap.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "structures/gheap/bit_reversal.h"

namespace gpulin::gheap {

namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
template <class W>
__global__ void fill_kernel(W* p, uint64_t n, W v) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    p[i] = v;
}
template <class W>
void fill(W* p, uint64_t n, W v) {
  if (v == 0) return check(cudaMemset(p, 0, n * sizeof(W)), "fill");
  fill_kernel<<<static_cast<unsigned>(std::min<uint64_t>(1024, (n + 255) / 256)), 256>>>(p, n, v);
  check(cudaGetLastError(), "fill");
}
}  // namespace

template <class Key>
DeviceHeap<Key>::DeviceHeap(uint32_t k, uint64_t max_full_nodes) : k_(k) {
  capacity_ = heap_capacity_for(max_full_nodes);
  if (capacity_ == 0) throw std::runtime_error("DeviceHeap: too many nodes");
  check(cudaMalloc(&state_, (capacity_ + 1ull) * sizeof(uint32_t)), "cudaMalloc state");
  check(cudaMalloc(&keys_, (capacity_ + 1ull) * k * sizeof(Key)), "cudaMalloc keys");
  check(cudaMalloc(&scalars_, 2 * sizeof(uint32_t)), "cudaMalloc scalars");
  check(cudaMalloc(&pbuffer_, k * sizeof(Key)), "cudaMalloc pbuffer");
  reset();
}

template <class Key>
DeviceHeap<Key>::~DeviceHeap() {
  cudaFree(state_);
  cudaFree(keys_);
  cudaFree(scalars_);
  cudaFree(pbuffer_);
}

template <class Key>
size_t DeviceHeap<Key>::bytes() const {
  return (capacity_ + 1ull) * (k_ * sizeof(Key) + sizeof(uint32_t)) + k_ * sizeof(Key) + 2 * sizeof(uint32_t);
}

template <class Key>
HeapMemory<Key> DeviceHeap<Key>::memory() const {
  return {k_, capacity_, state_, keys_, scalars_, scalars_ + 1, pbuffer_};
}

template <class Key>
void DeviceHeap<Key>::reset() {
  reset_heap(memory(), [](auto* p, uint64_t n, auto v) { fill(p, n, v); });
  check(cudaDeviceSynchronize(), "reset");
}

template <class Key>
uint32_t DeviceHeap<Key>::lastelem() const {
  uint32_t v = 0;
  check(cudaMemcpy(&v, scalars_, sizeof v, cudaMemcpyDeviceToHost), "lastelem");
  return v;
}

template <class Key>
HeapImage<Key> DeviceHeap<Key>::download() const {
  HeapImage<Key> img;
  img.k = k_;
  img.capacity = capacity_;
  uint32_t sc[2];
  check(cudaMemcpy(sc, scalars_, sizeof sc, cudaMemcpyDeviceToHost), "download scalars");
  img.lastelem = sc[0];
  img.psize = sc[1];
  img.state.resize(capacity_ + 1ull);
  img.keys.resize((capacity_ + 1ull) * k_);
  img.pbuffer.resize(k_);
  check(cudaMemcpy(img.state.data(), state_, img.state.size() * 4, cudaMemcpyDeviceToHost), "download state");
  check(cudaMemcpy(img.keys.data(), keys_, img.keys.size() * sizeof(Key), cudaMemcpyDeviceToHost), "download keys");
  check(cudaMemcpy(img.pbuffer.data(), pbuffer_, img.pbuffer.size() * sizeof(Key), cudaMemcpyDeviceToHost),
        "download pbuffer");
  return img;
}

template class DeviceHeap<uint32_t>;
template class DeviceHeap<uint64_t>;

}  // namespace gpulin::gheap
