#include "tools/explore/op_program.h"

#include "tools/explore/replay_fields.h"

namespace gpulin::explore {

size_t OpProgram::op_count() const {
  size_t n = 0;
  for (const auto& a : actors) n += a.size();
  return n;
}

std::string encode_op_program(const OpProgram& p) {
  std::string s;
  for (size_t a = 0; a < p.actors.size(); ++a) {
    if (a) s += ";";
    for (size_t i = 0; i < p.actors[a].size(); ++i) {
      const OpCall& c = p.actors[a][i];
      if (i) s += ',';
      s += std::to_string(c.fn);
      for (uint32_t v : c.args) {
        s += '.';
        s += std::to_string(v);
      }
    }
  }
  return s;
}

OpProgram decode_op_program(const std::string& text, const char* kind) {
  OpProgram p;
  for (const std::string& actor : split_fields(text, ';')) {
    std::vector<OpCall> calls;
    if (!actor.empty())
      for (const std::string& call : split_fields(actor, ',')) {
        const auto words = split_fields(call, '.');
        OpCall c;
        c.fn = parse_u32_field(words[0], kind, "operation");
        for (size_t i = 1; i < words.size(); ++i) c.args.push_back(parse_u32_field(words[i], kind, "argument"));
        calls.push_back(std::move(c));
      }
    p.actors.push_back(std::move(calls));
  }
  return p;
}

}  // namespace gpulin::explore
