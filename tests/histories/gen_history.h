// RapidCheck generator of random valid histories: any model with valid params,
// header extras, random op/actor ids over the whole int64 range, t near 2^64,
// lock holds on several nodes, lp events, pending operations (an actor whose op
// stays pending never starts another), and strings with quotes, backslashes,
// control characters and multi-byte UTF-8.
#pragma once

#include <rapidcheck.h>

#include <set>
#include <string>
#include <vector>

#include "histories/history.h"
#include "histories/rules.h"

namespace gpulin::test {

inline std::string any_text() {
  static const std::vector<std::string> pieces = {"a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\x01",
                                                  "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                                  "ins", "del", "{", "]", ",", ":"};
  std::string s;
  const int n = *rc::gen::inRange(0, 6);
  for (int i = 0; i < n; ++i) s += pieces[*rc::gen::inRange<size_t>(0, pieces.size())];
  return s;
}

inline Value any_value(int depth) {
  switch (*rc::gen::inRange(0, depth > 0 ? 6 : 4)) {
    case 0: return Value::null();
    case 1: return Value::boolean(*rc::gen::arbitrary<bool>());
    case 2: return Value::integer(*rc::gen::arbitrary<int64_t>());
    case 3: return Value::string(any_text());
    case 4: {
      Value::Array a;
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) a.push_back(any_value(depth - 1));
      return Value::array(std::move(a));
    }
    default: {
      Value::Object o;
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) o.emplace_back(std::to_string(i) + any_text(), any_value(depth - 1));
      return Value::object(std::move(o));
    }
  }
}

inline Header any_header() {
  Header h;
  const auto& models = known_models();
  h.model = models[*rc::gen::inRange<size_t>(0, models.size())];
  if (h.model == "pq-batch") h.params = Value::object({{"k", Value::integer(*rc::gen::inRange(1, 9))}});
  if (h.model == "psync-pq") h.params = Value::object({{"r", Value::integer(*rc::gen::inRange(1, 5))}});
  if (h.model == "register" && *rc::gen::arbitrary<bool>()) h.params = Value::object({{"init", any_value(1)}});
  static const char* rules[] = {"", "root-release", "last-lock", "explicit"};
  h.lp_rule = rules[*rc::gen::inRange(0, 4)];
  const int extras = *rc::gen::inRange(0, 4);
  for (int i = 0; i < extras; ++i) {
    std::string key = std::to_string(i);  // unique, and never a standard field's name
    key += any_text();
    h.extra.emplace_back(std::move(key), any_value(2).to_json());
  }
  return h;
}

// Builds the history by simulating actors: each step one live actor invokes,
// acquires or releases a node, marks an lp, returns, or crashes (its op stays
// pending and the actor stops).
inline History any_history() {
  History h;
  h.source = "<generated>";
  h.header = any_header();
  const int actors = *rc::gen::inRange(1, 5);
  int ops_left = *rc::gen::inRange(0, 25);
  std::vector<int64_t> actor_id;
  std::set<int64_t> used_actor, used_op;
  while (static_cast<int>(actor_id.size()) < actors) {
    const int64_t a = *rc::gen::arbitrary<int64_t>();
    if (used_actor.insert(a).second) actor_id.push_back(a);
  }
  struct State {
    int64_t op_index = -1;      // into h.ops, -1: idle
    std::vector<int64_t> held;  // nodes held by the current op
    bool dead = false;
  };
  std::vector<State> st(actors);
  uint64_t t = *rc::gen::element<uint64_t>(0, 1, 1000, UINT64_MAX - 200000);
  auto event = [&](EventKind k, int a, int64_t node) {
    t += *rc::gen::inRange<uint64_t>(1, 5);
    const Operation& op = h.ops[st[a].op_index];
    h.events.push_back(Event{t, k, op.id, actor_id[a], node, 0});
  };
  for (int guard = 0; guard < 400; ++guard) {
    std::vector<int> live;
    for (int a = 0; a < actors; ++a)
      if (!st[a].dead && (st[a].op_index >= 0 || ops_left > 0)) live.push_back(a);
    if (live.empty()) break;
    const int a = live[*rc::gen::inRange<size_t>(0, live.size())];
    State& s = st[a];
    if (s.op_index < 0) {
      int64_t id;
      do id = *rc::gen::element<int64_t>(0, 1, 2, 3, 4, 5, 6, 7, INT64_MIN, INT64_MAX, *rc::gen::arbitrary<int64_t>());
      while (!used_op.insert(id).second);
      Operation op;
      op.id = id;
      op.actor = actor_id[a];
      op.f = any_text();
      Value::Array args;
      const int n = *rc::gen::inRange(0, 4);
      for (int i = 0; i < n; ++i) args.push_back(any_value(2));
      op.args = Value::array(std::move(args));
      s.op_index = static_cast<int64_t>(h.ops.size());
      h.ops.push_back(std::move(op));
      event(EventKind::Inv, a, 0);
      h.ops[s.op_index].inv_t = t;
      --ops_left;
      continue;
    }
    switch (*rc::gen::inRange(0, 6)) {
      case 0: case 1: {  // acq a node not held, or rel one held
        const int64_t node = *rc::gen::inRange<int64_t>(-1, 4);
        auto it = std::find(s.held.begin(), s.held.end(), node);
        if (it == s.held.end()) {
          event(EventKind::Acq, a, node);
          s.held.push_back(node);
        } else {
          event(EventKind::Rel, a, node);
          s.held.erase(it);
        }
        break;
      }
      case 2: event(EventKind::Lp, a, 0); break;
      case 3: case 4: {  // ret
        event(EventKind::Ret, a, 0);
        h.ops[s.op_index].ret_t = t;
        h.ops[s.op_index].res = any_value(2);
        s = State{};
        break;
      }
      default:  // crash: pending forever
        s.dead = true;
        s.op_index = -1;
        break;
    }
  }
  return h;
}

}  // namespace gpulin::test
