#include "structures/slab_hash/gpu/device_slab_hash.h"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "common/cuda_support.h"

namespace gpulin::slab_hash {

namespace {

using cuda_support::check;

template <class T>
T* device_alloc(size_t count, const char* what) {
  T* p = nullptr;
  check(cudaMalloc(&p, count * sizeof(T)), std::string("slab hash: ") + what);
  return p;
}

__global__ void count_bits(const uint32_t* words, size_t n, unsigned long long* total) {
  unsigned long long mine = 0;
  GPULIN_GRID_STRIDE(i, n) mine += __popc(words[i]);
  if (mine) atomicAdd(total, mine);
}

}  // namespace

DeviceSlabHash::DeviceSlabHash(const SlabHashShape& shape, bool light) : shape_(shape), light_(light) {
  if (shape.supers == 0 || shape.supers > 256 || shape.blocks_per_super == 0 || shape.blocks_per_super > (1u << 14))
    throw std::runtime_error("slab hash: 1..256 super blocks of 1..16384 memory blocks (the 32-bit address layout)");
  base_ = device_alloc<uint32_t>(shape.base_words(), "base slabs");
  versions_ = device_alloc<uint32_t>(shape.version_words(), "bucket versions");
  bitmaps_ = device_alloc<uint32_t>(shape.bitmap_words(), "SlabAlloc bitmaps");
  failures_ = device_alloc<uint32_t>(1, "failure counter");
  if (light) {
    supers_host_.push_back(device_alloc<uint32_t>(shape.pool_words(), "SlabAlloc-light pool"));
    for (uint32_t s = 1; s < shape.supers; ++s) supers_host_.push_back(supers_host_[0] + s * shape.super_words());
  } else {
    for (uint32_t s = 0; s < shape.supers; ++s)
      supers_host_.push_back(device_alloc<uint32_t>(shape.super_words(), "SlabAlloc super block"));
  }
  super_table_ = device_alloc<uint32_t*>(shape.supers, "super block table");
  check(cudaMemcpy(super_table_, supers_host_.data(), shape.supers * sizeof(uint32_t*), cudaMemcpyHostToDevice),
        "slab hash: super block table");
  reset();
}

DeviceSlabHash::~DeviceSlabHash() {
  cudaFree(base_);
  cudaFree(versions_);
  cudaFree(bitmaps_);
  cudaFree(failures_);
  cudaFree(super_table_);
  if (light_) {
    if (!supers_host_.empty()) cudaFree(supers_host_[0]);
  } else {
    for (uint32_t* s : supers_host_) cudaFree(s);
  }
}

void DeviceSlabHash::reset() {
  check(cudaMemset(base_, 0xFF, shape_.base_words() * sizeof(uint32_t)), "slab hash: reset");
  check(cudaMemset(versions_, 0, shape_.version_words() * sizeof(uint32_t)), "slab hash: reset");
  if (light_)
    check(cudaMemset(supers_host_[0], 0xFF, shape_.pool_words() * sizeof(uint32_t)), "slab hash: reset");
  else
    for (uint32_t* s : supers_host_) check(cudaMemset(s, 0xFF, shape_.super_words() * sizeof(uint32_t)), "slab hash: reset");
  check(cudaMemset(bitmaps_, 0, shape_.bitmap_words() * sizeof(uint32_t)), "slab hash: reset");
  check(cudaMemset(failures_, 0, sizeof(uint32_t)), "slab hash: reset");
  check(cudaDeviceSynchronize(), "slab hash: reset");
}

uint32_t DeviceSlabHash::failures() const { return cuda_support::read_at(failures_); }

uint64_t DeviceSlabHash::allocated_units() const {
  cuda_support::DeviceBuffer<unsigned long long> total(1);
  total.fill_bytes(0);
  count_bits<<<cuda_support::grid_for(shape_.bitmap_words()), 256>>>(bitmaps_, shape_.bitmap_words(), total.get());
  check(cudaGetLastError(), "slab hash: count");
  return total.at(0);
}

size_t DeviceSlabHash::bytes() const {
  return (shape_.base_words() + shape_.version_words() + shape_.pool_words() + shape_.bitmap_words()) *
         sizeof(uint32_t);
}

std::vector<uint32_t> DeviceSlabHash::base_words() const { return cuda_support::download(base_, shape_.base_words()); }
std::vector<uint32_t> DeviceSlabHash::version_words() const {
  return cuda_support::download(versions_, shape_.version_words());
}
std::vector<uint32_t> DeviceSlabHash::pool_words() const {
  std::vector<uint32_t> v(shape_.pool_words());
  for (uint32_t s = 0; s < shape_.supers; ++s)
    check(cudaMemcpy(v.data() + s * shape_.super_words(), supers_host_[s], shape_.super_words() * 4,
                     cudaMemcpyDeviceToHost),
          "slab hash: download");
  return v;
}
std::vector<uint32_t> DeviceSlabHash::bitmap_words() const {
  return cuda_support::download(bitmaps_, shape_.bitmap_words());
}

}  // namespace gpulin::slab_hash
