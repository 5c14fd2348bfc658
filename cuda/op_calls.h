// A program of calls on the GPU: one list of calls an actor, each a function code
// and a few argument words, as the simulator's generic explorer runs them
// (tools/explore/op_program.h's OpProgram). cuda/op_program_kernel.cuh runs such a
// program on any structure, a thread block an actor; this header is its host side
// and layout, plain C++ over the CUDA runtime (docs/own-structure.md).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/cuda_support.h"
#include "common/host_device.h"

namespace gpulin::cuda_exec {

// The calls in device memory. Actor a's calls are [call_begin[a], call_begin[a + 1]);
// call i's arguments are args[arg_begin[i], arg_begin[i + 1]).
struct DeviceOpCalls {
  uint32_t actors = 0;
  const uint32_t* call_begin = nullptr;  // [actors + 1]
  const uint32_t* fn = nullptr;          // [calls]
  const uint32_t* arg_begin = nullptr;   // [calls + 1]
  const uint32_t* args = nullptr;
};

// The op id of actor a's i-th call in recorded histories: the actor in the high
// word (ids unique and each actor's increasing).
GPULIN_HD inline int64_t op_call_id(uint32_t actor, uint32_t i) { return (int64_t{actor} << 32) + i; }

// A program uploaded: `Program` is anything with p.actors[a][i].fn (uint32_t) and
// p.actors[a][i].args (a vector of uint32_t), such as explore::OpProgram.
class OpCallsOnDevice {
 public:
  template <class Program>
  explicit OpCallsOnDevice(const Program& p) {
    std::vector<uint32_t> call_begin{0}, fn, arg_begin{0}, args;
    for (const auto& calls : p.actors) {
      for (const auto& c : calls) {
        fn.push_back(c.fn);
        args.insert(args.end(), c.args.begin(), c.args.end());
        arg_begin.push_back(static_cast<uint32_t>(args.size()));
      }
      call_begin.push_back(static_cast<uint32_t>(fn.size()));
    }
    actors_ = static_cast<uint32_t>(p.actors.size());
    calls_ = fn.size();
    call_begin_ = std::make_unique<cuda_support::DeviceBuffer<uint32_t>>(call_begin);
    fn_ = std::make_unique<cuda_support::DeviceBuffer<uint32_t>>(fn);
    arg_begin_ = std::make_unique<cuda_support::DeviceBuffer<uint32_t>>(arg_begin);
    args_ = std::make_unique<cuda_support::DeviceBuffer<uint32_t>>(args);
  }
  DeviceOpCalls ref() const {
    return {actors_, call_begin_->get(), fn_->get(), arg_begin_->get(), args_->get()};
  }
  uint32_t actors() const { return actors_; }
  uint64_t calls() const { return calls_; }

 private:
  uint32_t actors_ = 0;
  uint64_t calls_ = 0;
  std::unique_ptr<cuda_support::DeviceBuffer<uint32_t>> call_begin_, fn_, arg_begin_, args_;
};

}  // namespace gpulin::cuda_exec
