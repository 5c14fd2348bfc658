// Histories written in code for the checker tests: ops with explicit times, lock
// holds and lp events, each op its own actor unless told otherwise.
#pragma once

#include <initializer_list>
#include <string>

#include "histories/history.h"

namespace gpulin::testing {

inline Value I(int64_t i) { return Value::integer(i); }
inline Value L(std::initializer_list<int64_t> xs) { return Value::int_array(xs); }
inline Value S(std::string s) { return Value::string(std::move(s)); }
inline Value B(bool b) { return Value::boolean(b); }
inline Value N() { return Value(); }
inline Value A(std::initializer_list<Value> xs) { return Value::array(Value::Array(xs)); }
// The header argument {"k": 2} of a pq-batch history (node capacity 2).
inline Value k2() { return Value::object({{"k", I(2)}}); }

class HistoryBuilder {
 public:
  explicit HistoryBuilder(std::string model, Value params = Value::object(), std::string lp_rule = "") {
    h_.source = "<test>";
    h_.header.model = std::move(model);
    h_.header.params = std::move(params);
    h_.header.lp_rule = std::move(lp_rule);
  }

  // A completed op over [inv, ret].
  HistoryBuilder& op(int64_t id, uint64_t inv, uint64_t ret, std::string f, Value args, Value res) {
    add(id, inv, std::move(f), std::move(args));
    h_.ops.back().res = std::move(res);
    h_.ops.back().ret_t = ret;
    h_.events.push_back(Event{ret, EventKind::Ret, id, id, 0, 0});
    return *this;
  }
  // A pending op invoked at inv.
  HistoryBuilder& pending(int64_t id, uint64_t inv, std::string f, Value args) {
    add(id, inv, std::move(f), std::move(args));
    return *this;
  }
  // Op `id` holds `node` over [acq, rel].
  HistoryBuilder& hold(int64_t id, int64_t node, uint64_t acq, uint64_t rel) {
    h_.events.push_back(Event{acq, EventKind::Acq, id, id, node, 0});
    h_.events.push_back(Event{rel, EventKind::Rel, id, id, node, 0});
    return *this;
  }
  // Op `id` acquires `node` at acq and never releases it.
  HistoryBuilder& acquire(int64_t id, int64_t node, uint64_t acq) {
    h_.events.push_back(Event{acq, EventKind::Acq, id, id, node, 0});
    return *this;
  }
  HistoryBuilder& lp(int64_t id, uint64_t t) {
    h_.events.push_back(Event{t, EventKind::Lp, id, id, 0, 0});
    return *this;
  }
  History build() {
    History h = h_;
    h.normalize();
    return h;
  }

 private:
  void add(int64_t id, uint64_t inv, std::string f, Value args) {
    Operation op;
    op.id = id;
    op.actor = id;
    op.f = std::move(f);
    op.args = std::move(args);
    op.inv_t = inv;
    op.inv_line = static_cast<uint32_t>(h_.ops.size() + 2);  // as if one op a line after the header
    op.ret_line = op.inv_line;
    h_.ops.push_back(std::move(op));
    h_.events.push_back(Event{inv, EventKind::Inv, id, id, 0, 0});
  }

  History h_;
};

}  // namespace gpulin::testing
