// A sequential specification (history-format.md, "Models") as the checkers use it.
//
// The search checker steps states millions of times and memoises them, so a state
// has a hash and an equality; the witness checker replays millions of operations
// on one state, so the checked step mutates in place and leaves the state
// untouched when the recorded result does not fit. Pending operations have no
// result: their step returns every state they can lead to (several only where the
// specification is nondeterministic, as bucket-pq's ties).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "histories/history.h"
#include "histories/value.h"

namespace gpulin {

// One model's state. Subclasses are private to their model; the model casts.
class ModelState {
 public:
  virtual ~ModelState() = default;
  virtual std::unique_ptr<ModelState> clone() const = 0;
  virtual size_t hash() const = 0;
  // `other` always comes from the same model.
  virtual bool equals(const ModelState& other) const = 0;
  // Readable form for reports.
  virtual std::string describe() const = 0;
  // Approximate bytes held, for the search's memory budget.
  virtual size_t bytes() const = 0;
};

// Value-semantic handle: copying copies the state.
class State {
 public:
  State() = default;
  explicit State(std::unique_ptr<ModelState> p) : p_(std::move(p)) {}
  State(const State& o) : p_(o.p_ ? o.p_->clone() : nullptr) {}
  State(State&&) noexcept = default;
  State& operator=(const State& o) {
    if (this != &o) p_ = o.p_ ? o.p_->clone() : nullptr;
    return *this;
  }
  State& operator=(State&&) noexcept = default;

  explicit operator bool() const { return p_ != nullptr; }
  size_t hash() const { return p_->hash(); }
  bool operator==(const State& o) const { return p_->equals(*o.p_); }
  std::string describe() const { return p_->describe(); }
  size_t bytes() const { return p_->bytes(); }

  template <class T> T& as() { return static_cast<T&>(*p_); }
  template <class T> const T& as() const { return static_cast<const T&>(*p_); }

 private:
  std::unique_ptr<ModelState> p_;
};

class Model {
 public:
  explicit Model(std::string name) : name_(std::move(name)) {}
  virtual ~Model() = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const std::string& name() const { return name_; }
  virtual State initial_state() const = 0;

  // A completed operation with its recorded result: when the specification allows
  // op.res from s, applies op to s and returns true; otherwise returns false and
  // leaves s as it was (so a report can still describe it).
  virtual bool apply(State& s, const Operation& op) const = 0;
  // A pending operation (its result unconstrained): appends to `out` every state
  // it can lead to from s; at least one, as every operation is total.
  virtual void apply_pending(const State& s, const Operation& op, std::vector<State>& out) const = 0;
  // What the specification would answer to op from s, for reports.
  virtual std::string expected_result(const State& s, const Operation& op) const = 0;

  // Whether f and args fit the model: nullopt, or what is wrong.
  virtual std::optional<std::string> check_call(const Operation& op) const = 0;
  // Whether res fits (only asked for completed operations whose call fits).
  virtual std::optional<std::string> check_result(const Operation& op) const = 0;

  // Models whose operations each touch one key (map, set, kv, multimap) are
  // checked key by key: a history is linearizable iff each key's sub-history is
  // (Herlihy and Wing's locality).
  virtual bool partitionable() const { return false; }
  // The key of op; only asked when partitionable().
  virtual const Value& partition_key(const Operation& op) const { return op.args.as_array().front(); }

  // Whether `writer` (completed or pending) may have produced what the completed op
  // `reader` returned: the replace that wrote the value a search found, the insert
  // of a key a delete returned. Minimisation keeps these ops beside the op a check
  // blames (verify/minimise.h), since dropping the write a read saw makes a failure
  // the run never had. A superset is safe (it only keeps more); the default, none,
  // leaves a model registered without it to keep the blamed op alone.
  virtual bool may_have_produced(const Operation& /*writer*/, const Operation& /*reader*/) const { return false; }

  // --- built on the above ---

  // The state after a completed op, or nullopt when its result does not fit.
  std::optional<State> step(const State& s, const Operation& op) const;
  // Every state after a pending op.
  std::vector<State> step_pending(const State& s, const Operation& op) const;
  // Throws FormatError(h.source, line, ...) for the first op whose f, args or res
  // do not fit, naming the inv line (call) or the ret line (result).
  void validate_ops(const History& h) const;
  // Indices into h.ops, grouped by key in order of each key's first operation; one
  // group holding every operation when the model is not partitionable.
  std::vector<std::vector<size_t>> partition(const History& h) const;
  // Indices into h.ops of the ops that may have produced the result of h.ops[i]
  // (may_have_produced), leaving out those invoked after it responded: none for a
  // pending op.
  std::vector<size_t> sources(const History& h, size_t i) const;

 private:
  std::string name_;
};

// --- helpers for the models' argument checks ---

// "[1,2]" style text of a value, shortened for messages.
std::string brief_json(const Value& v);
// True when v is an array of n integers, min_n <= n <= max_n.
bool is_int_list(const Value& v, size_t min_n, size_t max_n);
// True when v is an integer array sorted ascending.
bool is_ascending_ints(const Value& v);
// Order-independent mixing of element hashes: a multiset's hash is the sum of its
// elements' mixed hashes, so insertions and removals update it in O(1).
uint64_t mix64(uint64_t x);
// For unordered containers keyed by Value.
struct ValueHash {
  size_t operator()(const Value& v) const { return v.hash(); }
};

// A model whose every operation has exactly one outcome (map, set, register, kv,
// multimap): subclasses say whether a recorded result fits and what the operation
// does; applying a completed or pending operation is written once, here.
class DeterministicModel : public Model {
 public:
  using Model::Model;
  bool apply(State& s, const Operation& op) const final {
    if (!result_fits(s, op)) return false;
    effect(s, op);
    return true;
  }
  void apply_pending(const State& s, const Operation& op, std::vector<State>& out) const final {
    State next = s;
    effect(next, op);
    out.push_back(std::move(next));
  }

 protected:
  // Whether op.res (present) is what the specification answers from s.
  virtual bool result_fits(const State& s, const Operation& op) const = 0;
  virtual void effect(State& s, const Operation& op) const = 0;
};

// A deterministic model whose result is one value computed from the state (map,
// set, register): a recorded result fits when it equals that value.
class ValueResultModel : public DeterministicModel {
 public:
  using DeterministicModel::DeterministicModel;
  std::string expected_result(const State& s, const Operation& op) const final;

 protected:
  virtual Value result(const State& s, const Operation& op) const = 0;
  bool result_fits(const State& s, const Operation& op) const final { return *op.res == result(s, op); }
};

}  // namespace gpulin
