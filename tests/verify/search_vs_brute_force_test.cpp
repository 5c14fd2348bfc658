// The search checker against a brute-force enumerator written here, on small
// random histories (at most 7 ops): every order consistent with real time, each
// pending op placed anywhere after its invocation or left out. The two must agree.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "tests/verify/history_builder.h"
#include "verify/model_registry.h"
#include "verify/search_checker.h"

namespace gpulin {
namespace {

using namespace gpulin::testing;

// --- the enumerator ---

bool extend(const History& h, const Model& m, const State& s, std::vector<bool>& done, size_t completed_left) {
  if (completed_left == 0) return true;  // pending ops left over never took effect
  for (size_t i = 0; i < h.ops.size(); ++i) {
    if (done[i]) continue;
    // i can come next only if every completed op that responded before i's
    // invocation is already in the sequence.
    bool ready = true;
    for (size_t j = 0; j < h.ops.size() && ready; ++j)
      ready = done[j] || h.ops[j].pending() || h.ops[j].ret_t >= h.ops[i].inv_t;
    if (!ready) continue;
    done[i] = true;
    if (h.ops[i].pending()) {
      for (const State& next : m.step_pending(s, h.ops[i]))
        if (extend(h, m, next, done, completed_left)) return true;
    } else if (auto next = m.step(s, h.ops[i])) {
      if (extend(h, m, *next, done, completed_left - 1)) return true;
    }
    done[i] = false;
  }
  return false;
}

Verdict brute_force(const History& h) {
  const Model& m = model_for(h);
  std::vector<bool> done(h.ops.size(), false);
  const auto completed = static_cast<size_t>(std::count_if(h.ops.begin(), h.ops.end(), [](const Operation& o) { return !o.pending(); }));
  return extend(h, m, m.initial_state(), done, completed) ? Verdict::Linearizable : Verdict::NotLinearizable;
}

// --- random histories ---
// Each op gets an interval and a point inside it; results are computed by the
// model's meaning in point order (so most histories are linearizable), then some
// are corrupted. Pending ops take effect at their point or not at all.

// RapidCheck scales inRange by the test's size, which starts at 0: the first
// tests would all be one-op histories at t = 0. These draws ignore the size.
template <class T>
T pick(T lo, T hi) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

struct Timing {
  uint64_t inv, point, ret;
};

Timing gen_timing(size_t i) {
  // Short intervals over a longer span: some ops overlap, most are ordered, so
  // that corrupted results are often detectable.
  const int start = pick(0, 16);
  const int to_point = pick(0, 4);
  const int to_ret = pick(0, 4);
  // Unique t: the drawn value, then a slot per (op, event); inv < point < ret.
  auto t = [&](int x, size_t j) { return static_cast<uint64_t>(x) * 64 + 3 * i + j; };
  return {t(start, 0), t(start + to_point, 1), t(start + to_point + to_ret, 2)};
}

struct Planned {
  std::string f;
  Value args;
  Timing time;
  bool pending;
  bool takes_effect;  // pending ops only
};

// Computes results in point order with `simulate` (the test's own, independent
// account of the model), then lets `corrupt` change some.
History realise(const char* model, Value params, const std::vector<Planned>& plan,
                const std::function<Value(const Planned&)>& simulate,
                const std::function<Value(const Planned&, const Value&)>& corrupt) {
  std::vector<size_t> by_point(plan.size());
  for (size_t i = 0; i < plan.size(); ++i) by_point[i] = i;
  std::sort(by_point.begin(), by_point.end(), [&](size_t a, size_t c) { return plan[a].time.point < plan[c].time.point; });
  std::vector<Value> results(plan.size());
  for (size_t i : by_point)
    if (!plan[i].pending || plan[i].takes_effect) results[i] = simulate(plan[i]);
  HistoryBuilder b(model, std::move(params));
  for (size_t i = 0; i < plan.size(); ++i) {
    const Planned& p = plan[i];
    if (p.pending) b.pending(static_cast<int64_t>(i), p.time.inv, p.f, p.args);
    else b.op(static_cast<int64_t>(i), p.time.inv, p.time.ret, p.f, p.args, corrupt(p, results[i]));
  }
  return b.build();
}

bool gen_pending() { return *rc::gen::weightedElement<bool>({{5, false}, {1, true}}); }
bool gen_corrupt() { return *rc::gen::weightedElement<bool>({{3, false}, {1, true}}); }

History gen_register_history() {
  const auto n = pick<size_t>(1, 8);
  std::vector<Planned> plan;
  for (size_t i = 0; i < n; ++i) {
    Planned p;
    switch (pick(0, 3)) {
      case 0: p.f = "write", p.args = A({I(pick(0, 3))}); break;
      case 1: p.f = "read", p.args = A({}); break;
      default: p.f = "cas", p.args = A({I(pick(0, 3)), I(pick(0, 3))}); break;
    }
    p.time = gen_timing(i);
    p.pending = gen_pending();
    p.takes_effect = *rc::gen::arbitrary<bool>();
    plan.push_back(std::move(p));
  }
  int64_t cell = 0;
  auto simulate = [&](const Planned& p) {
    const auto& a = p.args.as_array();
    if (p.f == "write") cell = a[0].as_int();
    if (p.f == "read") return I(cell);
    if (p.f == "cas") {
      const bool hit = cell == a[0].as_int();
      if (hit) cell = a[1].as_int();
      return B(hit);
    }
    return N();
  };
  return realise("register", Value::object({{"init", I(0)}}), plan, simulate, [](const Planned& p, const Value& res) {
    if (!gen_corrupt() || p.f == "write") return res;
    if (p.f == "cas") return B(!res.as_bool());
    return I(pick(0, 3));
  });
}

History gen_pq_history() {
  const auto n = pick<size_t>(1, 8);
  std::vector<Planned> plan;
  for (size_t i = 0; i < n; ++i) {
    Planned p;
    if (*rc::gen::arbitrary<bool>()) {
      auto keys = *rc::gen::container<std::vector<int64_t>>(pick(1, 3), rc::gen::resize(100, rc::gen::inRange<int64_t>(0, 4)));
      p.f = "ins", p.args = Value::int_array(keys);
    } else {
      p.f = "del", p.args = A({});
    }
    p.time = gen_timing(i);
    p.pending = gen_pending();
    p.takes_effect = *rc::gen::arbitrary<bool>();
    plan.push_back(std::move(p));
  }
  std::multiset<int64_t> keys;
  auto simulate = [&](const Planned& p) {
    if (p.f == "ins") {
      for (int64_t k : p.args.to_ints()) keys.insert(k);
      return N();
    }
    std::vector<int64_t> out;
    while (!keys.empty() && out.size() < 2) out.push_back(*keys.begin()), keys.erase(keys.begin());
    return Value::int_array(out);
  };
  return realise("pq-batch", Value::object({{"k", I(2)}}), plan, simulate, [](const Planned& p, const Value& res) {
    if (!gen_corrupt() || p.f == "ins") return res;
    auto keys = *rc::gen::container<std::vector<int64_t>>(pick(0, 3), rc::gen::resize(100, rc::gen::inRange<int64_t>(0, 4)));
    std::sort(keys.begin(), keys.end());
    return Value::int_array(keys);
  });
}

History gen_set_history() {
  const auto n = pick<size_t>(1, 8);
  std::vector<Planned> plan;
  for (size_t i = 0; i < n; ++i) {
    Planned p;
    static const char* fs[] = {"insert", "delete", "contains"};
    p.f = fs[pick(0, 3)];
    p.args = A({I(pick(0, 3))});
    p.time = gen_timing(i);
    p.pending = gen_pending();
    p.takes_effect = *rc::gen::arbitrary<bool>();
    plan.push_back(std::move(p));
  }
  std::set<int64_t> members;
  auto simulate = [&](const Planned& p) {
    const int64_t key = p.args.as_array()[0].as_int();
    if (p.f == "insert") members.insert(key);
    if (p.f == "delete") members.erase(key);
    return p.f == "contains" ? B(members.count(key) != 0) : N();
  };
  return realise("set", Value::object(), plan, simulate, [](const Planned& p, const Value& res) {
    return gen_corrupt() && p.f == "contains" ? B(!res.as_bool()) : res;
  });
}

// Ties of priority make extractmin nondeterministic: a pending one branches, and
// the search must try each branch.
History gen_bucket_history() {
  const auto n = pick<size_t>(1, 8);
  std::vector<Planned> plan;
  for (size_t i = 0; i < n; ++i) {
    Planned p;
    switch (pick(0, 3)) {
      case 0: p.f = "update", p.args = A({L({pick<int64_t>(0, 3), pick<int64_t>(0, 2)})}); break;
      case 1: p.f = "delete", p.args = L({pick<int64_t>(0, 3)}); break;
      default: p.f = "extractmin", p.args = A({}); break;
    }
    p.time = gen_timing(i);
    p.pending = gen_pending();
    p.takes_effect = *rc::gen::arbitrary<bool>();
    plan.push_back(std::move(p));
  }
  std::map<int64_t, int64_t> prio;  // value -> priority
  auto simulate = [&](const Planned& p) {
    const auto& a = p.args.as_array();
    if (p.f == "update") prio[a[0].as_array()[0].as_int()] = a[0].as_array()[1].as_int();
    if (p.f == "delete") prio.erase(a[0].as_int());
    if (p.f != "extractmin") return N();
    if (prio.empty()) return N();
    auto least = prio.begin();  // the least priority; among ties, any will do
    for (auto it = prio.begin(); it != prio.end(); ++it)
      if (it->second < least->second) least = it;
    const Value out = L({least->first, least->second});
    prio.erase(least);
    return out;
  };
  return realise("bucket-pq", Value::object(), plan, simulate, [](const Planned& p, const Value& res) {
    if (!gen_corrupt() || p.f != "extractmin") return res;
    return *rc::gen::arbitrary<bool>() ? N() : L({pick<int64_t>(0, 3), pick<int64_t>(0, 2)});
  });
}

void agree(const History& h) {
  const Verdict expected = brute_force(h);
  SearchOptions on, off;
  off.partition = false;
  RC_ASSERT(check_search(h, on).verdict == expected);
  RC_ASSERT(check_search(h, off).verdict == expected);
  RC_TAG(expected == Verdict::Linearizable ? "linearizable" : "not linearizable");
}

RC_GTEST_PROP(SearchVsBruteForce, Register, ()) { agree(gen_register_history()); }
RC_GTEST_PROP(SearchVsBruteForce, PqBatchK2, ()) { agree(gen_pq_history()); }
RC_GTEST_PROP(SearchVsBruteForce, SetPartitioned, ()) { agree(gen_set_history()); }
RC_GTEST_PROP(SearchVsBruteForce, BucketPqTies, ()) { agree(gen_bucket_history()); }

}  // namespace
}  // namespace gpulin
