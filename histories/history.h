// The in-memory form of a history (../docs/history-format.md): a header and the
// events, with each operation's invocation and response gathered in one record.
// Everything that records builds one; everything that checks reads one.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "histories/value.h"

namespace gpulin {

enum class EventKind : uint8_t { Inv, Ret, Acq, Rel, Lp };

const char* to_string(EventKind k);

// 40 bytes: a GPU history holds tens of millions of these. The constructor keeps
// the order events are written in (t, kind, op, actor, node, line); the fields are
// laid out so that no padding sits between them.
struct Event {
  uint64_t t = 0;
  int64_t op = 0;
  int64_t actor = 0;
  int64_t node = 0;   // acq, rel only
  uint32_t line = 0;  // 1-based line in the source file, 0 when not read from a file
  EventKind kind = EventKind::Inv;

  Event() = default;
  Event(uint64_t t_, EventKind kind_, int64_t op_, int64_t actor_, int64_t node_, uint32_t line_)
      : t(t_), op(op_), actor(actor_), node(node_), line(line_), kind(kind_) {}
};
static_assert(sizeof(Event) == 40);

constexpr uint64_t kPending = std::numeric_limits<uint64_t>::max();

struct Operation {
  int64_t id = 0;
  int64_t actor = 0;
  std::string f;
  Value args;                // always an array
  std::optional<Value> res;  // nullopt: pending (no ret)
  uint64_t inv_t = 0;
  uint64_t ret_t = kPending;
  uint32_t inv_line = 0;
  uint32_t ret_line = 0;

  bool pending() const { return ret_t == kPending; }
};

// The header field "order" (history-format.md, "Order by key"), as Header::extra
// keeps it (compact JSON text): absent or "real-time", t orders every event;
// "per-key", only the events of one key's operations (the single-key models).
inline constexpr const char* kOrderField = "order";
inline constexpr const char* kOrderRealTime = "\"real-time\"";
inline constexpr const char* kOrderPerKey = "\"per-key\"";

struct Header {
  int version = 1;
  std::string model;
  Value params = Value::object();  // an object; empty when the model has none
  std::string lp_rule;             // "" when absent
  // Every other header field, kept verbatim (key, compact JSON text) and never
  // interpreted: source, structure, seed, GPU, ...
  std::vector<std::pair<std::string, std::string>> extra;

  // Integer parameter, or `dflt` when absent.
  int64_t param_int(std::string_view key, int64_t dflt) const {
    const Value* v = params.find(key);
    return v && v->is_int() ? v->as_int() : dflt;
  }
  bool operator==(const Header&) const = default;
};

struct History {
  std::string source;  // file name for messages ("<memory>" when built in code)
  Header header;
  // Every event, sorted by t. inv and ret events are here too, so that a timeline
  // and the witness checker see one real-time order.
  std::vector<Event> events;
  // Operations sorted by inv_t. ops[i].id is the id in the file.
  std::vector<Operation> ops;

  // Index into ops of the operation with this id, or -1.
  int64_t index_of(int64_t op_id) const;
  // Sorts events and ops, rebuilds derived order. Call after building by hand.
  void normalize();
};

// A malformed history: names the file and line, as history-format.md asks.
class FormatError : public std::runtime_error {
 public:
  FormatError(std::string file, uint32_t line, const std::string& msg)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + msg),
        file_(std::move(file)),
        line_(line) {}
  const std::string& file() const { return file_; }
  uint32_t line() const { return line_; }

 private:
  std::string file_;
  uint32_t line_;
};

}  // namespace gpulin
