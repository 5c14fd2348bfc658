#include "histories/result_shapes.h"

#include <string>

namespace gpulin {

namespace {

// The shape f's results take: Keys when f is not listed.
ResultShape shape_of(const ResultShapes& shapes, const std::string& f) {
  for (const auto& [name, shape] : shapes)
    if (name == f && shape != ResultShape::Keys) return shape;
  return ResultShape::Keys;
}

[[noreturn]] void not_one_word(const std::string& source, uint32_t line, int64_t id, const std::string& f,
                               const std::string& recorded) {
  throw FormatError(source, line,
                    "op " + std::to_string(id) + " (" + f + "): a result of one word was recorded as " + recorded);
}

}  // namespace

void apply_result_shapes(History& h, const ResultShapes& shapes) {
  for (Operation& op : h.ops) {
    if (!op.res || op.res->is_null()) continue;
    const ResultShape shape = shape_of(shapes, op.f);
    if (shape == ResultShape::Keys) continue;
    if (!op.res->is_array() || op.res->as_array().size() != 1 || !op.res->as_array()[0].is_int())
      not_one_word(h.source, op.ret_line, op.id, op.f, op.res->to_json());
    const int64_t w = op.res->as_array()[0].as_int();
    op.res = shape == ResultShape::Scalar ? Value::integer(w) : Value::boolean(w != 0);
  }
}

void apply_result_shapes(KeyHistory& h, const ResultShapes& shapes) {
  std::vector<ResultShape> by_fn;
  for (const std::string& f : h.fn_names) by_fn.push_back(shape_of(shapes, f));
  for (KeyOp& op : h.ops) {
    const ResultShape shape = by_fn[op.fn];
    if (shape == ResultShape::Keys || op.res_kind != KeyOp::kKeysResult) continue;  // null, pending, or done
    if (op.res_len != 1) {
      Value::Array keys;
      for (uint32_t i = 0; i < op.res_len; ++i) keys.push_back(Value::integer(h.keys[op.res_off + i]));
      not_one_word(h.source, op.ret_line, op.id, h.fn_names[op.fn], Value::array(std::move(keys)).to_json());
    }
    if (shape == ResultShape::Scalar) {
      op.res_kind = KeyOp::kValueResult;
    } else {
      op.res_kind = KeyOp::kBoolResult;
      h.keys[op.res_off] = h.keys[op.res_off] != 0;
    }
  }
}

}  // namespace gpulin
