// The host recorder: events appended in ticket order by whoever executes operations
// on the CPU (the fiber simulator). It knows nothing of any structure: an event is
// a kind, an operation, an actor, a node, and for inv/ret a list of integers whose
// JSON shape (array or null) the caller states (result_shapes.h gives a model's
// single values their shape afterwards). Turned into a History at the end, by the
// same conversion as the device recorder's buffers (assemble_events.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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
    invs_.lo = invs_.count == 0 ? op : std::min(invs_.lo, op);
    invs_.hi = invs_.count == 0 ? op : std::max(invs_.hi, op);
    ++invs_.count;
  }
  template <class Key>
  void ret(int64_t op, uint32_t actor, const Key* res, uint32_t n, bool is_null) {
    push(EventKind::Ret, op, actor, 0, 0, res, n, is_null);
  }
  void hold(EventKind kind, int64_t op, uint32_t actor, int64_t node) {
    push<int64_t>(kind, op, actor, node, 0, nullptr, 0, true);
  }
  // The op's linearization point (lp_rule explicit), strictly between its inv and ret.
  void lp(int64_t op, uint32_t actor) { hold(EventKind::Lp, op, actor, 0); }

  void clear() {
    events_.clear();
    pool_.clear();
    invs_ = {};
  }
  size_t size() const { return events_.size(); }

  // The history of everything recorded (ops still open become pending).
  History to_history(Header header, std::string source) const;
  // The same, made in the storage of `reuse`, a history no longer needed (a runner's
  // previous schedule's): an explorer's runs then allocate next to nothing for it.
  // Its header is kept where it equals `header` (a runner's runs share one), else
  // made a copy of it.
  History to_history(const Header& header, std::string source, History&& reuse) const;
  KeyHistory to_key_history(Header header, std::string source) const;

 private:
  struct Raw {
    EventKind kind;
    bool is_null;
    uint32_t actor;
    uint32_t fn;
    int64_t op;
    int64_t node;
    uint32_t off, len;
  };

  // The events' operations into h, whose source and header are set (to_history).
  void convert(History& h) const;

  // An event appended with no growth or error path inline: those go out of line
  // (room_for, refuse), and the appends themselves are told the room is there.
  // Inlined, the vectors' growth made GCC save and restore registers at every event
  // the simulator records, though it grows at a run's first events only.
  template <class Key>
  void push(EventKind kind, int64_t op, uint32_t actor, int64_t node, uint32_t fn, const Key* xs,
            uint32_t n, bool is_null) {
    if (events_.size() == events_.capacity()) [[unlikely]]
      room_for(events_, 1);
    if (pool_.capacity() - pool_.size() < n) [[unlikely]]
      room_for(pool_, n);
    if (events_.size() == events_.capacity() || pool_.capacity() - pool_.size() < n) __builtin_unreachable();
    events_.push_back(Raw{kind, is_null, actor, fn, op, node, static_cast<uint32_t>(pool_.size()), n});
    for (uint32_t i = 0; i < n; ++i) {
      if (!fits_history_integer(xs[i])) [[unlikely]]
        refuse(xs[i]);
      if (pool_.size() == pool_.capacity()) __builtin_unreachable();
      pool_.push_back(static_cast<int64_t>(xs[i]));
    }
  }
  template <class V>
  [[gnu::noinline]] static void room_for(V& v, size_t more) {
    v.reserve(std::max(v.size() + more, 2 * v.capacity() + 16));
  }
  template <class Key>
  [[gnu::noinline, noreturn]] static void refuse(Key k) {
    throw std::range_error("host recorder: " + key_out_of_history_range(k));
  }

  std::vector<std::string> fn_names_;
  std::vector<Raw> events_;  // index + 1 is the ticket
  std::vector<int64_t> pool_;
  // The invs' number and the bounds of their op ids, counted as they come: the
  // conversion sizes its operations and its id index with them.
  struct Invs {
    size_t count = 0;
    int64_t lo = 0, hi = -1;
  } invs_;
};

}  // namespace gpulin
