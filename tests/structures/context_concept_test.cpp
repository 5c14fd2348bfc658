// The execution-context contract as concepts (structures/exec/context.h): the
// simulator's context satisfies every part, and a context one method short of the
// shared-word part - no cas - satisfies none that builds on it, so a structure's
// entry point refuses it at the call (the concept naming the missing requirement)
// instead of failing deep inside the instantiation. The checks are compile-time;
// the TEST repeats them so that the suite lists them.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/sim_context.h"
#include "structures/counter_array/counter_array.h"
#include "structures/exec/context.h"

namespace gpulin {
namespace {

using sim::SimContext;

static_assert(exec::SharedWords<SimContext>);
static_assert(exec::CountedWords<SimContext>);
static_assert(exec::PairedWords<SimContext>);
static_assert(exec::ActorLoops<SimContext>);
static_assert(exec::BulkData<SimContext>);
static_assert(exec::BlockCollectives<SimContext>);
static_assert(exec::Recording<SimContext>);
static_assert(exec::ActorIds<SimContext>);
static_assert(exec::WarpLanes<SimContext>);
static_assert(exec::BlockBarriers<SimContext>);

// A context of shared words and recording only, declared and never defined (the
// concepts' expressions are unevaluated). With kHasCas it has exactly what
// exec::SharedWords and exec::Recording ask for; without it, it lacks the plain,
// relaxed and acquiring cas and nothing else.
template <bool kHasCas>
struct WordsContext {
  uint32_t load(uint32_t* p);
  uint32_t load(uint32_t* p, exec::Relaxed);
  void store(uint32_t* p, uint32_t v);
  void store(uint32_t* p, uint32_t v, exec::Relaxed);
  void store_guarded(uint32_t* p, uint32_t v);
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired)
    requires kHasCas;
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed)
    requires kHasCas;
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Acquire)
    requires kHasCas;
  template <class W>
  W cas(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Release)
    requires kHasCas;
  template <class W>
  bool cas_won(W* p, std::type_identity_t<W> expected, std::type_identity_t<W> desired, exec::Relaxed);
  uint32_t fetch_add(uint32_t* p, uint32_t v);
  uint32_t fetch_and(uint32_t* p, uint32_t v);
  uint32_t fetch_or(uint32_t* p, uint32_t v);
  uint32_t fetch_add(uint32_t* p, uint32_t v, exec::Relaxed);
  uint32_t fetch_and(uint32_t* p, uint32_t v, exec::Relaxed);
  void release(uint32_t* p, uint32_t held, uint32_t to);
  void release_pair(uint32_t* p, uint32_t* q, uint32_t held, uint32_t to);
  void wait_while_equals(uint32_t* p, uint32_t seen);
  void wait_while_equals(uint32_t* p, uint32_t seen, exec::Holding);
  void wait_while_equals(uint32_t* p, uint32_t seen, exec::KeepsSeen);
  template <class Done, class... Tags>
  uint32_t cas_until(uint32_t* p, uint32_t from, uint32_t to, Done&& done, Tags...);
  void fail(const char* what);

  void begin_op(int64_t op);
  void end_op();
  void record_acq(int64_t node);
  void record_acq(int64_t node, uint32_t holds_before);
  void record_rel(int64_t node);
  void after_release(int64_t node);
  void record_lp();
  template <class Key>
  void record_inv(uint32_t fn, const Key* args, uint32_t n);
  template <class Key>
  void record_ret(const Key* res, uint32_t n, bool is_null);
};
using WithCas = WordsContext<true>;
using WithoutCas = WordsContext<false>;

// The mock is complete but for cas: with it, the parts it has are satisfied...
static_assert(exec::SharedWords<WithCas>);
static_assert(exec::Recording<WithCas>);
// ...without it, the shared words are not, nor any part built on them.
static_assert(!exec::SharedWords<WithoutCas>);
static_assert(!exec::CountedWords<WithoutCas>);
static_assert(!exec::PairedWords<WithoutCas>);
static_assert(exec::Recording<WithoutCas>);
// Parts it never had.
static_assert(!exec::BulkData<WithCas>);
static_assert(!exec::WarpLanes<WithCas>);

// A structure's entry point states its parts (counter_get: shared words and
// recording), so a context short of one is refused by overload resolution: the
// call below does not form. Unconstrained, it would (the return type is declared),
// and the error would come from the body's x.cas.
template <class X>
constexpr bool counter_get_accepts = requires(X& x, const examples::CounterArrayView& c) {
  examples::counter_get(x, c, 0u);
};
static_assert(counter_get_accepts<SimContext>);
static_assert(counter_get_accepts<WithCas>);
static_assert(!counter_get_accepts<WithoutCas>);

TEST(ContextConcept, SimContextSatisfiesEveryPartAndAContextWithoutCasIsRefused) {
  EXPECT_TRUE(exec::SharedWords<SimContext>);
  EXPECT_TRUE(exec::CountedWords<SimContext>);
  EXPECT_TRUE(exec::PairedWords<SimContext>);
  EXPECT_TRUE(exec::BulkData<SimContext>);
  EXPECT_TRUE(exec::BlockCollectives<SimContext>);
  EXPECT_TRUE(exec::Recording<SimContext>);
  EXPECT_TRUE(exec::ActorIds<SimContext>);
  EXPECT_TRUE(exec::WarpLanes<SimContext>);
  EXPECT_TRUE(exec::BlockBarriers<SimContext>);
  EXPECT_TRUE(exec::SharedWords<WithCas>);
  EXPECT_FALSE(exec::SharedWords<WithoutCas>);
  EXPECT_TRUE(counter_get_accepts<WithCas>);
  EXPECT_FALSE(counter_get_accepts<WithoutCas>);
}

}  // namespace
}  // namespace gpulin
