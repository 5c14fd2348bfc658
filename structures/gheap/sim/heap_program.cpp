#include "structures/gheap/sim/heap_program.h"

#include <charconv>
#include <stdexcept>

namespace gpulin::explore {

Program generate_program(const WorkloadShape& shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto roll = [&rng](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  Program p;
  p.actors.resize(shape.actors);
  for (auto& ops : p.actors) {
    for (uint32_t i = 0; i < shape.ops; ++i) {
      HeapOp op;
      op.insert = roll(100) < shape.insert_percent;
      if (op.insert) {
        uint32_t n = shape.k;
        if (shape.k > 1 && roll(100) < shape.partial_percent) n = 1 + roll(shape.k - 1);
        for (uint32_t j = 0; j < n; ++j) op.keys.push_back(roll(shape.key_range));
      }
      ops.push_back(std::move(op));
    }
  }
  return p;
}

std::string encode_program(const Program& p) {
  std::string out;
  for (size_t a = 0; a < p.actors.size(); ++a) {
    if (a) out += ';';
    for (size_t i = 0; i < p.actors[a].size(); ++i) {
      if (i) out += ',';
      const HeapOp& op = p.actors[a][i];
      if (!op.insert) {
        out += 'd';
        continue;
      }
      out += 'i';
      for (size_t j = 0; j < op.keys.size(); ++j) {
        if (j) out += '-';
        out += std::to_string(op.keys[j]);
      }
    }
  }
  return out;
}

static std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

Program decode_program(const std::string& text) {
  Program p;
  for (const std::string& actor : split(text, ';')) {
    std::vector<HeapOp> ops;
    if (!actor.empty()) {
      for (const std::string& op_text : split(actor, ',')) {
        HeapOp op;
        if (op_text == "d") {
          op.insert = false;
        } else if (op_text.size() > 1 && op_text[0] == 'i') {
          for (const std::string& key : split(op_text.substr(1), '-')) {
            uint32_t v = 0;
            auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), v);
            if (ec != std::errc() || end != key.data() + key.size() || v == 0xffffffffu)
              throw std::invalid_argument("program: bad key '" + key + "' in '" + op_text + "'");
            op.keys.push_back(v);
          }
        } else {
          throw std::invalid_argument("program: bad operation '" + op_text + "' (want d or i<key>-<key>...)");
        }
        ops.push_back(std::move(op));
      }
    }
    p.actors.push_back(std::move(ops));
  }
  return p;
}

}  // namespace gpulin::explore
