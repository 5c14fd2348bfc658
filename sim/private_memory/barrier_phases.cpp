#include "sim/private_memory/barrier_phases.h"

#include "sim/simulator.h"

namespace gpulin::sim {
namespace {

const char* code_text(PhaseCode c) {
  switch (c) {
    case PhaseCode::Uniform: return "actor-uniform code after the barrier at";
    case PhaseCode::ParallelFor: return "the parallel_for at";
    case PhaseCode::BulkLoad: return "the transfer (its loaded keys' writes) at";
    case PhaseCode::BulkStore: return "the transfer (its stored keys' reads) at";
    case PhaseCode::Collective: return "the collective at";
    case PhaseCode::Record: return "the recorder's copy of an event's keys at";
  }
  return "?";
}

}  // namespace

std::string BarrierPhases::describe(PhaseStamp a, const char* did) const {
  const Code& c = codes_[(a - phase_floor_) >> 32];
  const uint32_t thread = thread_of(a);
  std::string who = thread == kEveryThread     ? "every thread"
                    : thread == kSeveralThreads ? "two or more threads"
                                                : "thread " + std::to_string(thread);
  // A phase's first code has no barrier before it in the actor's run.
  const std::string where = c.kind == PhaseCode::Uniform && c.at.line == 0
                                ? "actor-uniform code at the actor's start"
                                : std::string(code_text(c.kind)) + " " + memory::site_text(c.at);
  return who + " " + did + " it in " + where + " (history op " + std::to_string(c.op) + ")";
}

void BarrierPhases::report(PhaseStamp first, PhaseStamp second, const char* first_did, const char* second_did,
                           uint32_t region, uint64_t index) {
  sim_.race("data race in block-private memory (shared memory on the GPU): word " + std::to_string(index) +
            " of actor " + std::to_string(actor_) + "'s private region " + std::to_string(region) + ": " +
            describe(first, first_did) + ", then " + describe(second, second_did) +
            ", with no barrier of the block between them (" + std::to_string(threads_) + " threads)");
}

void BarrierPhases::grow_codes() {
  codes_.resize(codes_.size() * 2 + 4);
  room_ = static_cast<uint32_t>(codes_.size());
}

void BarrierPhases::out_of_bounds(uint32_t region, uint64_t index, uint64_t size) {
  sim_.fault("block-private memory: an access at word " + std::to_string(index) + " of actor " +
             std::to_string(actor_) + "'s private region " + std::to_string(region) + ", which has " +
             std::to_string(size) + " words");
}

}  // namespace gpulin::sim
