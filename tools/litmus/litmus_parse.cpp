#include "tools/litmus/litmus_parse.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "histories/history.h"
#include "sim/strategy.h"

namespace gpulin::litmus {
namespace {

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool parse_integer(const std::string& text, int64_t& out) {
  const std::string s = trim(text);
  if (s.empty()) return false;
  size_t used = 0;
  try {
    out = std::stoll(s, &used, 0);
  } catch (const std::exception&) {
    return false;
  }
  return used == s.size();
}

// Thrown while reading one instruction or statement that the simulator does not
// model: becomes the test's `refused`.
struct Refusal {
  std::string why;
};

class Parser {
 public:
  Parser(const std::string& text, std::string file) : file_(std::move(file)) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
    strip_comments();
  }

  LitmusTest parse() {
    t_.file = file_;
    size_t i = next_nonempty(0);
    if (i == lines_.size()) fail(1, "empty file: a litmus test starts with `PTX NAME`");
    const std::string head = trim(lines_[i]);
    if (!starts_with(head, "PTX") || (head.size() > 3 && !std::isspace(static_cast<unsigned char>(head[3]))))
      fail(i, "not a PTX litmus test: the first line must be `PTX NAME`, not `" + head + "`");
    t_.name = trim(head.substr(3));
    if (t_.name.empty()) fail(i, "the test has no name after `PTX`");
    i = skip_quoted(i + 1);
    i = parse_init(i);
    i = parse_header(i);
    i = parse_rows(i);
    parse_condition(i);
    return std::move(t_);
  }

 private:
  [[noreturn]] void fail(size_t index, const std::string& msg) const {
    throw FormatError(file_, static_cast<uint32_t>(index + 1), msg);
  }
  void refuse(size_t index, const std::string& why) {
    if (t_.refused.empty()) t_.refused = file_ + ":" + std::to_string(index + 1) + ": " + why;
  }

  // herd's (* ... *) comments, which may span lines, become blanks.
  void strip_comments() {
    bool in = false;
    for (auto& l : lines_) {
      std::string out;
      for (size_t k = 0; k < l.size(); ++k) {
        if (!in && l.compare(k, 2, "(*") == 0) {
          in = true;
          ++k;
        } else if (in && l.compare(k, 2, "*)") == 0) {
          in = false;
          ++k;
        } else if (!in) {
          out += l[k];
        }
      }
      l = out;
    }
  }

  size_t next_nonempty(size_t i) const {
    while (i < lines_.size() && trim(lines_[i]).empty()) ++i;
    return i;
  }

  // Quoted descriptions after the name (any number, each possibly over several lines).
  size_t skip_quoted(size_t i) {
    for (;;) {
      i = next_nonempty(i);
      if (i == lines_.size() || trim(lines_[i])[0] != '"') return i;
      const std::string first = trim(lines_[i]);
      size_t end = i;
      if (first.size() < 2 || first.find('"', 1) == std::string::npos) {
        for (end = i + 1; end < lines_.size() && lines_[end].find('"') == std::string::npos; ++end) {
        }
        if (end == lines_.size()) fail(i, "a quoted description that never ends");
      }
      i = end + 1;
    }
  }

  size_t parse_init(size_t i) {
    i = next_nonempty(i);
    if (i == lines_.size() || trim(lines_[i])[0] != '{') fail(std::min(i, lines_.size() - 1), "expected the initial state `{ ... }`");
    std::string body;
    size_t j = i;
    for (; j < lines_.size(); ++j) {
      body += lines_[j] + "\n";
      if (lines_[j].find('}') != std::string::npos) break;
    }
    if (j == lines_.size()) fail(i, "the initial state `{` is never closed");
    body = body.substr(body.find('{') + 1);
    body = body.substr(0, body.find('}'));
    for (char& c : body)
      if (c == '\n' || c == '\r') c = ' ';  // a statement may span lines; its messages are one line
    for (std::string stmt : split(body, ';')) {
      stmt = trim(stmt);
      if (stmt.empty()) continue;
      const size_t eq = stmt.find('=');
      std::string lhs = trim(eq == std::string::npos ? stmt : stmt.substr(0, eq));
      // A C type before the name (`int x = 0`): the last word is the name.
      if (const size_t sp = lhs.find_last_of(" \t"); sp != std::string::npos) lhs = trim(lhs.substr(sp + 1));
      int64_t value = 0;
      if (eq != std::string::npos && !parse_integer(stmt.substr(eq + 1), value)) {
        refuse(i, "initial value `" + stmt + "`: a register or location holding an address is not modeled");
        continue;
      }
      if (const size_t colon = lhs.find(':'); colon != std::string::npos) {
        init_registers_[trim(lhs.substr(0, colon))][trim(lhs.substr(colon + 1))] = value;
      } else if (is_identifier(lhs)) {
        t_.locations[lhs] = value;
      } else {
        fail(i, "initial state: `" + stmt + "` is neither `x = n` nor `P0:r = n`");
      }
    }
    return j + 1;
  }

  size_t parse_header(size_t i) {
    i = next_nonempty(i);
    if (i == lines_.size()) fail(lines_.size() - 1, "expected the threads' row `P0@cta 0,gpu 0 | ... ;`");
    std::string row = trim(lines_[i]);
    if (!row.empty() && row.back() == ';') row.pop_back();
    for (const std::string& cell_text : split(row, '|')) {
      const std::string cell = trim(cell_text);
      Thread th;
      const size_t at = cell.find('@');
      th.name = trim(cell.substr(0, at));
      if (!is_identifier(th.name)) fail(i, "threads' row: `" + cell + "` does not name a thread (P0, P1, ...)");
      th.place = {static_cast<uint32_t>(t_.threads.size()), 0};  // no @: a CTA of its own
      if (at != std::string::npos) {
        for (const std::string& part : split(cell.substr(at + 1), ',')) {
          std::istringstream words(trim(part));
          std::string what;
          int64_t n = -1;
          words >> what >> n;
          if (n < 0) fail(i, "threads' row: `" + trim(part) + "` is not `cta N` or `gpu N`");
          if (what == "cta") th.place.cta = static_cast<uint32_t>(n);
          else if (what == "gpu") th.place.gpu = static_cast<uint32_t>(n);
          else refuse(i, "thread " + th.name + ": `" + what + "` (only cta and gpu places are modeled)");
        }
      }
      if (auto it = init_registers_.find(th.name); it != init_registers_.end()) th.registers = it->second;
      t_.threads.push_back(std::move(th));
    }
    if (t_.threads.size() > sim::kMaxActors)
      refuse(i, std::to_string(t_.threads.size()) + " threads: the simulator runs at most " +
                    std::to_string(sim::kMaxActors) + " actors");
    for (const auto& [name, regs] : init_registers_) {
      bool known = false;
      for (const Thread& th : t_.threads) known |= th.name == name;
      if (!known) fail(i, "the initial state names thread " + name + ", which the threads' row does not have");
    }
    return i + 1;
  }

  static bool ends_program(const std::string& l) {
    return starts_with(l, "exists") || starts_with(l, "~exists") || starts_with(l, "~ exists") ||
           starts_with(l, "forall") || starts_with(l, "locations") || starts_with(l, "filter");
  }

  size_t parse_rows(size_t i) {
    for (; i < lines_.size(); ++i) {
      std::string row = trim(lines_[i]);
      if (row.empty()) continue;
      if (ends_program(row)) return i;
      if (!row.empty() && row.back() == ';') row.pop_back();
      const std::vector<std::string> cells = split(row, '|');
      if (cells.size() > t_.threads.size())
        fail(i, "a row of " + std::to_string(cells.size()) + " columns for " + std::to_string(t_.threads.size()) +
                    " threads");
      for (size_t c = 0; c < cells.size(); ++c) {
        const std::string text = trim(cells[c]);
        if (text.empty()) continue;
        try {
          t_.threads[c].code.push_back(instruction(text, i));
        } catch (const Refusal& r) {
          refuse(i, t_.threads[c].name + ": `" + text + "`: " + r.why);
        }
      }
    }
    fail(lines_.size() - 1, "no final condition (exists, ~exists or forall)");
  }

  Operand value_operand(const std::string& text, size_t line) {
    Operand o;
    const std::string s = trim(text);
    if (parse_integer(s, o.value)) return o;
    if (!is_identifier(s)) fail(line, "`" + s + "` is neither a number nor a register");
    if (t_.locations.count(s)) throw Refusal{"a location's address as a value is not modeled"};
    o.is_register = true;
    o.reg = s;
    return o;
  }
  std::string location_operand(const std::string& text, size_t line) {
    std::string s = trim(text);
    if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = trim(s.substr(1, s.size() - 2));
    if (!is_identifier(s)) fail(line, "`" + s + "` is not a location");
    t_.locations.emplace(s, 0);
    return s;
  }
  std::string register_operand(const std::string& text, size_t line) {
    const std::string s = trim(text);
    if (!is_identifier(s)) fail(line, "`" + s + "` is not a register");
    return s;
  }

  Instruction instruction(const std::string& text, size_t line) {
    Instruction in;
    in.line = static_cast<int>(line + 1);
    in.text = text;
    const size_t sp = text.find_first_of(" \t");
    const std::string mnemonic = text.substr(0, sp);
    static const char* const kBranches[] = {"bra", "beq", "bne", "goto"};
    if (mnemonic.back() == ':' || std::find(std::begin(kBranches), std::end(kBranches), mnemonic) != std::end(kBranches))
      throw Refusal{"labels and branches are not modeled"};
    std::vector<std::string> ops;
    if (sp != std::string::npos)
      for (const std::string& o : split(text.substr(sp + 1), ',')) ops.push_back(trim(o));
    const std::vector<std::string> parts = split(mnemonic, '.');
    const std::string& base = parts[0];
    static const char* const kModeled[] = {"ld", "st", "atom", "red", "fence", "membar", "bar", "barrier", "mov", "add"};
    if (std::find(std::begin(kModeled), std::end(kModeled), base) == std::end(kModeled))
      throw Refusal{"the instruction `" + base + "` is not modeled"};
    bool has_order = false, has_scope = false, has_rmw = false, sync = false;
    for (size_t k = 1; k < parts.size(); ++k) {
      const std::string& q = parts[k];
      if (q == "weak") in.order = Order::Weak, has_order = true;
      else if (q == "relaxed") in.order = Order::Relaxed, has_order = true;
      else if (q == "acquire") in.order = Order::Acquire, has_order = true;
      else if (q == "release") in.order = Order::Release, has_order = true;
      else if (q == "acq_rel") in.order = Order::AcqRel, has_order = true;
      else if (q == "sc") in.order = Order::Sc, has_order = true;
      else if (q == "volatile") in.order = Order::Relaxed, in.scope = Scope::Sys, has_order = has_scope = true;
      else if (q == "cta") in.scope = Scope::Cta, has_scope = true;
      else if (q == "gpu" || q == "gl") in.scope = Scope::Gpu, has_scope = true;
      else if (q == "sys") in.scope = Scope::Sys, has_scope = true;
      else if (q == "add") in.rmw = RmwOp::Add, has_rmw = true;
      else if (q == "sub") in.rmw = RmwOp::Sub, has_rmw = true;
      else if (q == "exch") in.rmw = RmwOp::Exchange, has_rmw = true;
      else if (q == "cas") in.rmw = RmwOp::Cas, has_rmw = true;
      else if (q == "and") in.rmw = RmwOp::And, has_rmw = true;
      else if (q == "or") in.rmw = RmwOp::Or, has_rmw = true;
      else if (q == "xor") in.rmw = RmwOp::Xor, has_rmw = true;
      else if (q == "min") in.rmw = RmwOp::Min, has_rmw = true;
      else if (q == "max") in.rmw = RmwOp::Max, has_rmw = true;
      else if (q == "sync") sync = true;
      else if (q == "aligned" || q == "global" || q == "shared" || q == "generic") continue;
      else if (q.size() >= 2 && (q[0] == 's' || q[0] == 'u' || q[0] == 'b' || q[0] == 'f') &&
               std::isdigit(static_cast<unsigned char>(q[1])))
        continue;  // a type (.s32, .u64, ...): every value is a 64-bit integer here
      else throw Refusal{"." + q + " is not modeled (proxies, textures, surfaces, barrier arrivals and the like)"};
    }
    auto need = [&](size_t n) {
      if (ops.size() != n)
        fail(line, "`" + text + "`: " + base + " takes " + std::to_string(n) + " operands, not " +
                       std::to_string(ops.size()));
    };
    if (base == "ld") {
      need(2);
      in.op = Op::Load;
      if (!has_order) in.order = Order::Weak;
      if (in.order == Order::Release || in.order == Order::AcqRel || in.order == Order::Sc)
        fail(line, "`" + text + "`: a load cannot be ." + std::string(to_string(in.order)));
      in.dest = register_operand(ops[0], line);
      int64_t constant = 0;
      if (parse_integer(ops[1], constant)) {  // `ld r, 1`: a constant into a register (herd's tests write it so)
        in.op = Op::Move;
        in.a.value = constant;
      } else {
        in.location = location_operand(ops[1], line);
      }
    } else if (base == "st") {
      need(2);
      in.op = Op::Store;
      if (!has_order) in.order = Order::Weak;
      if (in.order == Order::Acquire || in.order == Order::AcqRel || in.order == Order::Sc)
        fail(line, "`" + text + "`: a store cannot be ." + std::string(to_string(in.order)));
      in.location = location_operand(ops[0], line);
      in.a = value_operand(ops[1], line);
    } else if (base == "atom" || base == "red") {
      if (!has_rmw) fail(line, "`" + text + "`: " + base + " needs an operation (.add, .exch, .cas, ...)");
      if (!has_order) in.order = Order::Relaxed;
      if (in.order == Order::Weak) fail(line, "`" + text + "`: " + base + " cannot be .weak");
      if (base == "atom") {
        need(in.rmw == RmwOp::Cas ? 4 : 3);
        in.op = Op::Rmw;
        in.dest = register_operand(ops[0], line);
        in.location = location_operand(ops[1], line);
        in.a = value_operand(ops[2], line);
        if (in.rmw == RmwOp::Cas) in.b = value_operand(ops[3], line);
      } else {
        if (in.rmw == RmwOp::Cas || in.rmw == RmwOp::Exchange) fail(line, "`" + text + "`: red has no .cas or .exch");
        need(2);
        in.op = Op::Reduce;
        in.location = location_operand(ops[0], line);
        in.a = value_operand(ops[1], line);
      }
    } else if (base == "fence" || base == "membar") {
      need(0);
      in.op = Op::Fence;
      if (base == "membar") in.order = Order::Sc;
      else if (!has_order) in.order = Order::AcqRel;
      if (in.order == Order::Weak || in.order == Order::Relaxed)
        fail(line, "`" + text + "`: a fence is .sc, .acq_rel, .acquire or .release");
      if (!has_scope) fail(line, "`" + text + "`: a fence needs a scope (.cta, .gpu, .sys)");
    } else if (base == "bar" || base == "barrier") {
      if (!sync) throw Refusal{"only bar.sync / barrier.sync is modeled"};
      if (ops.size() > 2) throw Refusal{"a barrier of more than an id and a thread count is not modeled"};
      need(ops.empty() ? 1 : ops.size());
      in.op = Op::Barrier;
      int64_t id = 0, count = 0;
      if (!parse_integer(ops[0], id)) throw Refusal{"a barrier id held in a register is not modeled"};
      if (ops.size() == 2 && !parse_integer(ops[1], count)) throw Refusal{"a thread count held in a register is not modeled"};
      if (id < 0 || count < 0 || count > 64) fail(line, "`" + text + "`: a barrier id or thread count out of range");
      in.barrier = static_cast<uint32_t>(id);
      in.barrier_count = static_cast<uint32_t>(count);
    } else if (base == "mov") {
      need(2);
      in.op = Op::Move;
      in.dest = register_operand(ops[0], line);
      in.a = value_operand(ops[1], line);
    } else if (base == "add") {
      need(3);
      in.op = Op::Add;
      in.dest = register_operand(ops[0], line);
      in.a = value_operand(ops[1], line);
      in.b = value_operand(ops[2], line);
    } else {
      throw Refusal{"the instruction `" + base + "` is not modeled"};
    }
    return in;
  }

  // ---- the condition ----
  void parse_condition(size_t i) {
    std::string text;
    const size_t first = i;
    for (; i < lines_.size(); ++i) {
      const std::string l = trim(lines_[i]);
      if (starts_with(l, "locations")) continue;  // what herd prints: nothing to decide
      if (starts_with(l, "filter")) refuse(i, "a `filter` is not modeled");
      text += l + " ";
    }
    cond_line_ = first;
    src_ = text;
    pos_ = 0;
    Condition c;
    if (eat("~exists") || (eat("~") && eat("exists"))) c.quantifier = Condition::Quantifier::NotExists;
    else if (eat("exists")) c.quantifier = Condition::Quantifier::Exists;
    else if (eat("forall")) c.quantifier = Condition::Quantifier::Forall;
    else fail(first, "expected exists, ~exists or forall");
    c.expr = disjunction();
    skip_space();
    if (pos_ != src_.size()) fail(first, "condition: unexpected `" + src_.substr(pos_) + "`");
    t_.condition = std::move(c);
  }
  void skip_space() {
    while (pos_ < src_.size() && std::isspace(static_cast<unsigned char>(src_[pos_]))) ++pos_;
  }
  bool eat(const std::string& token) {
    skip_space();
    if (src_.compare(pos_, token.size(), token) != 0) return false;
    pos_ += token.size();
    return true;
  }
  std::unique_ptr<Expr> combine(Expr::Kind k, std::unique_ptr<Expr> a, std::unique_ptr<Expr> b) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }
  std::unique_ptr<Expr> disjunction() {
    auto e = conjunction();
    while (eat("\\/")) e = combine(Expr::Kind::Or, std::move(e), conjunction());
    return e;
  }
  std::unique_ptr<Expr> conjunction() {
    auto e = unary();
    while (eat("/\\")) e = combine(Expr::Kind::And, std::move(e), unary());
    return e;
  }
  std::unique_ptr<Expr> unary() {
    if (eat("~")) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::Not;
      e->operands.push_back(unary());
      return e;
    }
    if (eat("(")) {
      auto e = disjunction();
      if (!eat(")")) fail(cond_line_, "condition: a `(` is never closed");
      return e;
    }
    if (eat("true")) return std::make_unique<Expr>();
    return comparison();
  }
  std::string word() {
    skip_space();
    const size_t a = pos_;
    while (pos_ < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_' ||
                                  src_[pos_] == ':' || src_[pos_] == '-'))
      ++pos_;
    return src_.substr(a, pos_ - a);
  }
  // `P0:r` (or herd's `0:r`, by thread index) or a location: its thread (-1 for a
  // location) and name.
  std::pair<int, std::string> named(const std::string& w) {
    const size_t colon = w.find(':');
    if (colon == std::string::npos) {
      if (!t_.locations.count(w)) fail(cond_line_, "condition: no location " + w);
      return {-1, w};
    }
    const std::string thread = w.substr(0, colon);
    int64_t index = -1;
    for (size_t k = 0; k < t_.threads.size(); ++k)
      if (t_.threads[k].name == thread) index = static_cast<int64_t>(k);
    if (index < 0 && parse_integer(thread, index) && (index < 0 || index >= static_cast<int64_t>(t_.threads.size())))
      index = -1;
    if (index < 0) fail(cond_line_, "condition: no thread " + thread);
    return {static_cast<int>(index), w.substr(colon + 1)};
  }
  std::unique_ptr<Expr> comparison() {
    auto e = std::make_unique<Expr>();
    std::string lhs = word();
    if (lhs.empty()) fail(cond_line_, "condition: expected `P:reg = n` or `x = n` at `" + src_.substr(pos_) + "`");
    if (lhs.back() == ':') lhs += word();  // `P3: r0`
    if (eat("!=")) e->kind = Expr::Kind::NotEqual;
    else if (eat("==") || eat("=")) e->kind = Expr::Kind::Equal;
    else fail(cond_line_, "condition: `" + lhs + "` is not followed by = or !=");
    const std::string rhs = word();
    if (rhs.empty()) fail(cond_line_, "condition: `" + lhs + "` is compared with nothing");
    std::tie(e->thread, e->name) = named(lhs);
    if (!parse_integer(rhs, e->value)) {
      e->rhs_named = true;
      std::tie(e->rhs_thread, e->rhs_name) = named(rhs);
    }
    return e;
  }

  std::string file_;
  std::vector<std::string> lines_;
  LitmusTest t_;
  std::map<std::string, std::map<std::string, int64_t>> init_registers_;
  std::string src_;
  size_t pos_ = 0;
  size_t cond_line_ = 0;
};

}  // namespace

LitmusTest parse_litmus(const std::string& text, const std::string& file) { return Parser(text, file).parse(); }

LitmusTest read_litmus_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(path, 0, "cannot open the file");
  std::ostringstream s;
  s << in.rdbuf();
  return parse_litmus(s.str(), path);
}

}  // namespace gpulin::litmus
