// The lock stack as a registry row built by op_structure_row (as gpulin's own
// counter array is, structures/counter_array/row.cpp): the row says what the
// structure is called, its mutants, model, lp rule and parameters, and how to make
// one run's memory and a random call; explore, replay, survey and list come from
// gpulin's generic operation explorer. Its GPU run is lock_stack_stress.cpp.
#include "lock_stack_row.h"

#include <memory>
#include <vector>

#include "lock_stack.h"
#include "lock_stack_stress.h"
#include "tools/registry/op_structure_row.h"

namespace own {

namespace {

using gpulin::explore::OpCall;

// One simulated run's stack; the mutant is a compile-time choice of the instance's type.
template <StackMutant M>
class SimStack final : public gpulin::explore::OpInstance {
 public:
  explicit SimStack(uint32_t capacity) : slots_(capacity, 0), view_{capacity, &lock_, &top_, slots_.data()} {}
  void run(gpulin::sim::SimContext& x, const OpCall& call) override {
    if (call.fn == kFnPush) {
      stack_push(x, view_, call.args.at(0));
    } else {
      uint32_t v = 0;
      stack_pop<M>(x, view_, &v);
    }
  }
  std::optional<std::string> at_rest() override {
    if (lock_ != 0) return std::string("the stack's lock is still held");
    if (top_ > view_.capacity) return "the top (" + std::to_string(top_) + ") is past the capacity";
    return std::nullopt;
  }
  // The memory the actors share: in gpulin's sanitized build it is guarded during a
  // ptx run, so a structure touching it around its context is reported.
  std::vector<gpulin::sim::memory::GuardedRange> shared() const override {
    using gpulin::sim::memory::range_of;
    return {range_of(&lock_, 1), range_of(&top_, 1), range_of(slots_)};
  }

 private:
  uint32_t lock_ = 0, top_ = 0;
  std::vector<uint32_t> slots_;
  LockStackView view_;
};

gpulin::explore::OpStructure lock_stack(const gpulin::registry::Selection& s) {
  gpulin::explore::OpStructure st;
  st.fns = {"push", "pop"};          // by function code: kFnPush, kFnPop
  st.header.lp_rule = "root-release";  // each operation's one hold of the lock (node 1)
  const uint32_t capacity = s.u32("capacity"), values = s.u32("values");
  const bool unlocked_pop = s.mutant == "unlocked-pop";
  st.make = [capacity, unlocked_pop]() -> std::unique_ptr<gpulin::explore::OpInstance> {
    if (unlocked_pop) return std::make_unique<SimStack<StackMutant::UnlockedPop>>(capacity);
    return std::make_unique<SimStack<StackMutant::None>>(capacity);
  };
  // As many pushes as pops: the stack fills, empties, and pops race on its top.
  st.random_call = [values](std::mt19937_64& rng) {
    if (rng() % 2 == 0) return OpCall{kFnPush, {1 + uint32_t(rng() % values)}};
    return OpCall{kFnPop, {}};
  };
  return st;
}

}  // namespace

gpulin::registry::StructureRow lock_stack_row() {
  gpulin::registry::OpStructureSpec spec;
  gpulin::registry::StructureRow& row = spec.row;
  row.name = "lock-stack";
  row.summary = "a stack behind one spin lock (examples/own-structure: a structure of a program of its own)";
  row.source = "docs/own-structure.md";
  row.mutants = {"unlocked-pop"};
  row.model = "stack";
  row.lp_rules = {"root-release"};
  row.params = {{"values", "a push pushes 1 to N", "100", 1, 1u << 30},
                {"capacity", "slots of the stack (a push on a full one is a fault)", "1024", 1, 1u << 20}};
  row.survey = {{"", {}, 2000, true}};
  row.stress = run_lock_stack_stress;
  row.stress_params = lock_stack_stress_params();
  spec.make = lock_stack;
  return gpulin::registry::op_structure_row(std::move(spec));
}

}  // namespace own
