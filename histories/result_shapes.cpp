#include "histories/result_shapes.h"

#include <string>

namespace gpulin {

void apply_result_shapes(History& h, const std::vector<std::pair<std::string, ResultShape>>& shapes) {
  for (Operation& op : h.ops) {
    if (!op.res || op.res->is_null()) continue;
    for (const auto& [f, shape] : shapes) {
      if (op.f != f || shape == ResultShape::Keys) continue;
      if (!op.res->is_array() || op.res->as_array().size() != 1 || !op.res->as_array()[0].is_int())
        throw FormatError(h.source, op.ret_line,
                          "op " + std::to_string(op.id) + " (" + op.f + "): a result of one word was recorded as " +
                              op.res->to_json());
      const int64_t w = op.res->as_array()[0].as_int();
      op.res = shape == ResultShape::Scalar ? Value::integer(w) : Value::boolean(w != 0);
    }
  }
}

}  // namespace gpulin
