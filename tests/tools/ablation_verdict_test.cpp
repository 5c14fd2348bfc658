// ablate's verdicts apart from "needed" (tools/ablate/ablation.h): a failure that
// the weakening did not cause - its interleaving fails under sc, or with the ordering
// as written, too - is said to be so, not counted as needed; a weakening that breaks
// nothing is not shown needed.
#include <gtest/gtest.h>

#include "tools/ablate/ablation.h"
#include "tools/registry/registry.h"

namespace gpulin::ablate {
namespace {

const registry::StructureRow& counter_array() {
  const registry::StructureRow* row = registry::structures().find("counter-array");
  EXPECT_NE(row, nullptr);
  return *row;
}

explore::ExploreOptions options() {
  explore::ExploreOptions o;
  o.schedules = 300;
  o.progress = false;
  return o;
}

// The counter's increment store (counter_array.h) made weak: a site of the code
// as written (the inventory meets it).
Ablation store_made_weak(const registry::StructureRow& row) {
  const Inventory inv = inventory(row, registry::default_selection(row), options());
  EXPECT_FALSE(inv.as_written.found_bug());
  for (const Ablation& a : inv.ablations)
    if (a.weakening.what == sim::memory::Weaken::Weak) return a;
  ADD_FAILURE() << "no weakenable relaxed access met";
  return {};
}

TEST(AblationVerdicts, AFailureOfTheCodeItselfFailsWithoutTheWeakeningToo) {
  const registry::StructureRow& row = counter_array();
  registry::Selection broken = registry::default_selection(row);
  broken.mutant = "lost-update";  // fails under sc whatever the orderings
  const AblationResult r = run_ablation(row, broken, options(), store_made_weak(row));
  EXPECT_EQ(r.verdict, Verdict::FailsUnderSc) << r.message << "\n" << r.schedule;
  EXPECT_FALSE(r.schedule.empty());
}

TEST(AblationVerdicts, AWeakeningThatBreaksNothingIsNotShownNeeded) {
  const registry::StructureRow& row = counter_array();
  const AblationResult r = run_ablation(row, registry::default_selection(row), options(), store_made_weak(row));
  EXPECT_EQ(r.verdict, Verdict::NotShownNeeded) << r.message << "\n" << r.schedule;
  EXPECT_EQ(r.schedules, 300u);
  EXPECT_TRUE(r.schedule.empty());
}

}  // namespace
}  // namespace gpulin::ablate
