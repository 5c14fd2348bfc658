#include "structures/gheap/gpu/device_workload.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "structures/gheap/config.h"
#include "structures/gheap/gpu/sort_keys.cuh"
#include "structures/gheap/gpu/workload_keys.h"

namespace gpulin::stress {

namespace {

constexpr uint32_t kGrid = 2048, kBlock = 256;

template <class Key>
__global__ void draw_stream_kernel(Key* dst, uint64_t count, uint64_t seed) {
  for (uint64_t p = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; p < count; p += uint64_t(gridDim.x) * blockDim.x)
    dst[p] = stream_key<Key>(seed, p);
}

template <class Key>
__global__ void fill_op_keys_kernel(Key* keys, const uint32_t* n, const uint64_t* off, uint64_t ops, uint32_t k,
                                    uint64_t seed, const Key* src) {
  const uint64_t total = ops * k;
  for (uint64_t e = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; e < total; e += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t i = e / k;
    const uint32_t j = static_cast<uint32_t>(e - i * k);
    Key v = gheap::KeyLimits<Key>::max_value;
    if (j < n[i]) {
      const uint64_t p = off[i] + j;
      v = src ? src[p] : stream_key<Key>(seed, p);
    }
    keys[e] = v;
  }
}

}  // namespace

template <class Key>
size_t draw_stream_temp_bytes(uint64_t n) {
  size_t up = 0, down = 0;
  cub::DoubleBuffer<Key> db(nullptr, nullptr);
  cuda_support::check(sort_keys(nullptr, up, db, n, false), "cub size query");
  cuda_support::check(sort_keys(nullptr, down, db, n, true), "cub size query");
  return std::max({up, down, size_t(256)});
}

template <class Key>
const Key* draw_stream(Key* a, Key* b, void* temp, size_t temp_bytes, uint64_t n, KeyOrder order, uint64_t seed) {
  draw_stream_kernel<<<kGrid, kBlock>>>(a, n, seed);
  cuda_support::check(cudaGetLastError(), "draw the key stream");
  if (order == KeyOrder::Random) return a;
  cub::DoubleBuffer<Key> db(a, b);
  cuda_support::check(sort_keys(temp, temp_bytes, db, n, order == KeyOrder::Descend), "sort the key stream");
  return db.Current();
}

template <class Key>
void fill_op_keys(Key* keys, const uint32_t* n, const uint64_t* off, uint64_t ops, uint32_t k, uint64_t seed,
                  const Key* src) {
  if (ops == 0) return;
  fill_op_keys_kernel<<<kGrid, kBlock>>>(keys, n, off, ops, k, seed, src);
  cuda_support::check(cudaGetLastError(), "fill the operations' keys");
}

template <class Key>
DeviceWorkload<Key>::DeviceWorkload(WorkloadShape shape, uint64_t seed) : shape_(std::move(shape)), seed_(seed) {
  if (shape_.order == KeyOrder::Random) return;
  const uint64_t n = shape_.stream_keys;
  sorted_.resize(n);
  cuda_support::DeviceBuffer<Key> other(n);
  const size_t bytes = draw_stream_temp_bytes<Key>(n);
  cuda_support::DeviceBuffer<unsigned char> temp(bytes);
  const Key* made = draw_stream(sorted_.get(), other.get(), temp.get(), bytes, n, shape_.order, seed_);
  if (made != sorted_.get())
    cuda_support::check(cudaMemcpy(sorted_.get(), made, n * sizeof(Key), cudaMemcpyDeviceToDevice), "sorted stream");
  cuda_support::check(cudaDeviceSynchronize(), "draw the sorted stream");
}

template <class Key>
DevicePhase<Key> DeviceWorkload<Key>::phase(size_t p) const {
  const ShapePhase& sp = shape_.phases.at(p);
  DevicePhase<Key> d;
  d.ops = sp.end - sp.begin;
  const auto part = [&](const auto& v) { return std::vector(v.begin() + static_cast<long>(sp.begin), v.begin() + static_cast<long>(sp.end)); };
  const std::vector<uint32_t> n = part(shape_.n);
  for (uint32_t x : n) d.inserted_keys += x;
  d.fn = cuda_support::DeviceBuffer<uint32_t>(part(shape_.fn));
  d.n = cuda_support::DeviceBuffer<uint32_t>(n);
  const cuda_support::DeviceBuffer<uint64_t> off(part(shape_.off));
  d.keys.resize(d.ops * shape_.k);
  fill_op_keys(d.keys.get(), d.n.get(), off.get(), d.ops, shape_.k, seed_,
               shape_.order == KeyOrder::Random ? nullptr : sorted_.get());
  cuda_support::check(cudaDeviceSynchronize(), "draw the phase's keys");
  return d;
}

template size_t draw_stream_temp_bytes<uint32_t>(uint64_t);
template size_t draw_stream_temp_bytes<uint64_t>(uint64_t);
template const uint32_t* draw_stream(uint32_t*, uint32_t*, void*, size_t, uint64_t, KeyOrder, uint64_t);
template const uint64_t* draw_stream(uint64_t*, uint64_t*, void*, size_t, uint64_t, KeyOrder, uint64_t);
template void fill_op_keys(uint32_t*, const uint32_t*, const uint64_t*, uint64_t, uint32_t, uint64_t, const uint32_t*);
template void fill_op_keys(uint64_t*, const uint32_t*, const uint64_t*, uint64_t, uint32_t, uint64_t, const uint64_t*);
template class DeviceWorkload<uint32_t>;
template class DeviceWorkload<uint64_t>;

}  // namespace gpulin::stress
