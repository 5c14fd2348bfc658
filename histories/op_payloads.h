// The payloads of an operation (an inv's f and args, a ret's res) in either
// in-memory form, History (Values) or KeyHistory (spans of integer keys), for the
// code written once over both: the JSONL writer and the binary writer. Each form
// is read through the same few functions, so a KeyHistory of millions of
// operations is written without expanding it into Values, and writes exactly the
// bytes its expand() would.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "histories/history.h"
#include "histories/id_index.h"
#include "histories/key_history.h"

namespace gpulin::op_payloads {

inline bool has_res(const Operation& op) { return op.res.has_value(); }
inline bool has_res(const KeyOp& op) { return op.res_kind != KeyOp::kPendingResult; }

// The op an inv or ret event carries the payload of: its index in h.ops. Throws
// FormatError (naming the event's line) when there is none, or a ret's res is unset.
template <class H>
uint32_t payload_op(const H& h, const IdIndex& index, const Event& e) {
  const uint32_t i = index.find(e.op);
  if (i == IdIndex::kAbsent)
    throw FormatError(h.source, e.line,
                      fmt::format("cannot write: {} event of op {} has no entry in ops", to_string(e.kind), e.op));
  if (e.kind == EventKind::Ret && !has_res(h.ops[i]))
    throw FormatError(h.source, e.line, fmt::format("cannot write: ret event of op {}, whose res is unset", e.op));
  return i;
}

template <class H>
IdIndex index_ops(const H& h) {
  return index_ids(h.ops, [](const auto& op) { return op.id; });
}

inline const std::string& fn(const History& h, uint32_t i) { return h.ops[i].f; }
inline const std::string& fn(const KeyHistory& h, uint32_t i) { return h.fn_names[h.ops[i].fn]; }

// An inv's args / a ret's res handed to `write`: a Value (History), or for a
// KeyHistory what that Value would be: a KeyList (an array of integers), an
// int64_t, a bool, or nullptr (null).
struct KeyList {
  const int64_t* p;
  uint32_t n;
};

template <class W>
void visit_args(const History& h, uint32_t i, W&& write) {
  write(h.ops[i].args);
}
template <class W>
void visit_args(const KeyHistory& h, uint32_t i, W&& write) {
  const KeyOp& o = h.ops[i];
  write(KeyList{h.keys.data() + o.args_off, o.args_len});
}
template <class W>
void visit_res(const History& h, uint32_t i, W&& write) {
  write(*h.ops[i].res);
}
template <class W>
void visit_res(const KeyHistory& h, uint32_t i, W&& write) {
  const KeyOp& o = h.ops[i];
  switch (o.res_kind) {
    case KeyOp::kKeysResult: write(KeyList{h.keys.data() + o.res_off, o.res_len}); break;
    case KeyOp::kValueResult: write(h.keys[o.res_off]); break;
    case KeyOp::kBoolResult: write(h.keys[o.res_off] != 0); break;
    default: write(nullptr); break;
  }
}

}  // namespace gpulin::op_payloads
