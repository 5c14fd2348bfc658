// The template structure (structures/counter_array/counter_array.h): counters behind
// spin locks, explored through the generic operation explorer. A new structure's
// row looks like this one.
#include <vector>

#include "structures/counter_array/counter_array.h"
#include "tools/registry/op_structure_row.h"
#include "tools/registry/registry.h"

namespace gpulin::drawings {
extern const char counter_array_draw_js[];  // draw.js (structures/CMakeLists.txt, gpulin_embed_drawing)
}

namespace gpulin::registry {

namespace {

// One run's counters; the mutant is a compile-time choice of the instance's type.
template <examples::CounterMutant M>
class Counters final : public explore::OpInstance {
 public:
  explicit Counters(uint32_t n) : locks_(n, 0), values_(n, 0), view_{n, locks_.data(), values_.data()} {}
  void run(sim::SimContext& x, const explore::OpCall& call) override {
    if (call.fn == examples::kFnAdd)
      examples::counter_add<M>(x, view_, call.args.at(0) % view_.n, call.args.at(1));
    else
      examples::counter_get(x, view_, call.args.at(0) % view_.n);
  }
  std::optional<std::string> at_rest() override {
    for (uint32_t i = 0; i < view_.n; ++i)
      if (locks_[i] != 0) return "counter " + std::to_string(i) + "'s lock is still held";
    return std::nullopt;
  }
  std::vector<sim::memory::GuardedRange> shared() const override {
    return {sim::memory::range_of(locks_), sim::memory::range_of(values_)};
  }

 private:
  std::vector<uint32_t> locks_, values_;
  examples::CounterArrayView view_;
};

explore::OpStructure counters(const Selection& s) {
  explore::OpStructure st;
  st.fns = {"add", "get"};
  const uint32_t n = s.u32("counters"), most = s.u32("amount");
  const bool lost_update = s.mutant == "lost-update";
  st.make = [n, lost_update]() -> std::unique_ptr<explore::OpInstance> {
    if (lost_update) return std::make_unique<Counters<examples::CounterMutant::LostUpdate>>(n);
    return std::make_unique<Counters<examples::CounterMutant::None>>(n);
  };
  // Three adds to a get: reads see the adds race.
  st.random_call = [n, most](std::mt19937_64& rng) {
    if (rng() % 4 != 0) return explore::OpCall{examples::kFnAdd, {uint32_t(rng() % n), 1 + uint32_t(rng() % most)}};
    return explore::OpCall{examples::kFnGet, {uint32_t(rng() % n)}};
  };
  return st;
}

}  // namespace

void add_counter_array_rows(Registry& r) {
  OpStructureSpec spec;
  StructureRow& row = spec.row;
  row.name = "counter-array";
  row.summary = "the template structure: counters behind spin locks (structures/counter_array/counter_array.h)";
  row.source = "this project (docs/architecture.md, \"Writing a new structure\")";
  row.mutants = {"lost-update"};
  row.model = "counters";
  row.params = {{"counters", "counters (each behind its lock)", "2", 1, 64},
                {"amount", "an add adds 1 to N", "3", 1, 1000}};
  row.survey = {{"", {}, 10000, true}};
  spec.make = counters;
  // The stepper: the instance's shared() regions, in order.
  row.draw_js = drawings::counter_array_draw_js;
  row.state_layout = [](const std::string&) { return std::string(R"({"regions":["locks","values"]})"); };
  r.add(op_structure_row(std::move(spec)));
}

}  // namespace gpulin::registry
