// The host recorder: events appended in ticket order by whoever executes operations
// on the CPU (the fiber simulator). It knows nothing of any structure: an event is
// a kind, an operation, an actor, a node, and for inv/ret a list of integers whose
// JSON shape the caller states (an array or null; for a ret also one integer or
// true/false: DeviceResult in device_events.h). Turned into a History at the end,
// by the same conversion as the device recorder's buffers (assemble_events.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "histories/device_events.h"
#include "histories/history.h"
#include "histories/key_history.h"

namespace gpulin {

class HostRecorder {
 public:
  // `fn_names[fn]` is the operation name recorded for code `fn`.
  explicit HostRecorder(std::vector<std::string> fn_names) : fn_names_(std::move(fn_names)) {}

  template <class Key>
  void inv(int64_t op, uint32_t actor, uint32_t fn, const Key* args, uint32_t n) {
    push(EventKind::Inv, op, actor, 0, fn, args, n, false);
  }
  // res[0, n) as an array, or null.
  template <class Key>
  void ret(int64_t op, uint32_t actor, const Key* res, uint32_t n, bool is_null) {
    push(EventKind::Ret, op, actor, 0, 0, res, n, is_null ? kResultNull : kResultKeys);
  }
  // One integer (a map search's value), or true/false (a set's contains).
  template <class Key>
  void ret_value(int64_t op, uint32_t actor, Key value) {
    push(EventKind::Ret, op, actor, 0, 0, &value, 1, kResultValue);
  }
  void ret_bool(int64_t op, uint32_t actor, bool value) {
    const int64_t v = value;
    push(EventKind::Ret, op, actor, 0, 0, &v, 1, kResultBool);
  }
  void hold(EventKind kind, int64_t op, uint32_t actor, int64_t node) {
    push<int64_t>(kind, op, actor, node, 0, nullptr, 0, kResultNull);
  }
  // The op's linearization point (lp_rule explicit), between its inv and ret.
  void lp(int64_t op, uint32_t actor) { push<int64_t>(EventKind::Lp, op, actor, 0, 0, nullptr, 0, kResultNull); }

  void clear() {
    events_.clear();
    pool_.clear();
  }
  size_t size() const { return events_.size(); }

  // The history of everything recorded (ops still open become pending).
  History to_history(Header header, std::string source) const;
  KeyHistory to_key_history(Header header, std::string source) const;

 private:
  struct Raw {
    EventKind kind;
    uint32_t shape;  // ret: a DeviceResult
    uint32_t actor;
    uint32_t fn;
    int64_t op;
    int64_t node;
    uint32_t off, len;
  };

  template <class Key>
  void push(EventKind kind, int64_t op, uint32_t actor, int64_t node, uint32_t fn, const Key* xs,
            uint32_t n, uint32_t shape) {
    events_.push_back(Raw{kind, shape, actor, fn, op, node, static_cast<uint32_t>(pool_.size()), n});
    for (uint32_t i = 0; i < n; ++i) pool_.push_back(static_cast<int64_t>(xs[i]));
  }

  std::vector<std::string> fn_names_;
  std::vector<Raw> events_;  // index + 1 is the ticket
  std::vector<int64_t> pool_;
};

}  // namespace gpulin
