// A bucket heap program (structures/bucket_heap/sim/bucket_program.h) in device memory, as the
// GPU kernel reads it (structures/bucket_heap/gpu/bucket_heap_launch.h's DeviceProgram): operation kinds,
// each update batch's pairs packed as elements, DELETE values, room for the
// EXTRACTMIN answers. Header-only host code over cuda_support.
#pragma once

#include <cstdint>
#include <vector>

#include "common/cuda_support.h"
#include "structures/bucket_heap/gpu/bucket_heap_launch.h"
#include "structures/bucket_heap/sim/bucket_program.h"

namespace gpulin::stress {

class UploadedBucketProgram {
 public:
  explicit UploadedBucketProgram(const explore::BucketProgram& p) : UploadedBucketProgram(flatten(p), p.ops.size()) {}
  const bucket_heap::DeviceProgram& program() const { return program_; }
  uint64_t updates() const { return updates_; }  // (value, priority) pairs over all batches
  std::vector<bucket_heap::Element> answers() const { return cuda_support::download(out_.get(), program_.ops); }

 private:
  struct Flat {
    std::vector<uint32_t> fn, first{0}, value;
    std::vector<bucket_heap::Element> pairs;
  };
  static Flat flatten(const explore::BucketProgram& p) {
    Flat f;
    for (const explore::BucketOp& op : p.ops) {
      f.fn.push_back(op.fn);
      f.value.push_back(op.value);
      for (const auto& [v, pr] : op.updates) f.pairs.push_back(bucket_heap::make_element(v, pr));
      f.first.push_back(static_cast<uint32_t>(f.pairs.size()));
    }
    return f;
  }
  UploadedBucketProgram(const Flat& f, uint64_t ops)
      : fn_(f.fn), first_(f.first), value_(f.value), pairs_(f.pairs), out_(ops), updates_(f.pairs.size()),
        program_{fn_.get(), first_.get(), pairs_.get(), value_.get(), out_.get(), ops} {}

  cuda_support::DeviceBuffer<uint32_t> fn_, first_, value_;
  cuda_support::DeviceBuffer<bucket_heap::Element> pairs_, out_;
  uint64_t updates_ = 0;
  bucket_heap::DeviceProgram program_;
};

}  // namespace gpulin::stress
