// A PTX litmus test as herd7 and Dartagnan read it (litmus_parse.h): threads with
// their CTA and GPU, each a column of instructions; initial values; a final
// condition over registers and locations.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/memory/ptx_memory.h"

namespace gpulin::litmus {

using sim::memory::Order;
using sim::memory::Scope;

// A register or a constant.
struct Operand {
  bool is_register = false;
  std::string reg;
  int64_t value = 0;
};

enum class Op { Load, Store, Rmw, Reduce, Fence, Barrier, Move, Add };
enum class RmwOp { Add, Sub, Exchange, Cas, And, Or, Xor, Min, Max };

struct Instruction {
  Op op = Op::Fence;
  Order order = Order::Weak;
  Scope scope = Scope::Gpu;
  RmwOp rmw = RmwOp::Add;
  std::string dest;      // the register a load, an atom, a mov or an add writes
  std::string location;  // the location a memory access touches
  Operand a, b;          // stored value; atom's operand(s) (cas: compare, new); add's
  uint32_t barrier = 0;        // bar.sync's barrier id
  uint32_t barrier_count = 0;  // the threads it waits for; 0: all of the CTA's
  int line = 0;          // in the test's file
  std::string text;      // as written
};

struct Thread {
  std::string name;  // P0, P1, ...
  sim::memory::Place place;
  std::vector<Instruction> code;
  std::map<std::string, int64_t> registers;  // initial values (0 unless given)
};

// The final condition: a proposition over `P:reg` and location values.
struct Expr {
  enum class Kind { True, And, Or, Not, Equal, NotEqual } kind = Kind::True;
  std::vector<std::unique_ptr<Expr>> operands;  // And, Or, Not
  int thread = -1;                              // a register's thread; -1: a location
  std::string name;                             // the register or location
  int64_t value = 0;                            // compared with, unless the right side names one too:
  bool rhs_named = false;
  int rhs_thread = -1;
  std::string rhs_name;
};

struct Condition {
  enum class Quantifier { Exists, NotExists, Forall } quantifier = Quantifier::Exists;
  std::unique_ptr<Expr> expr;
};

struct LitmusTest {
  std::string file;
  std::string name;
  std::map<std::string, int64_t> locations;  // every location the test touches, with its initial value
  std::vector<Thread> threads;
  Condition condition;
  // Set when the test uses what the simulator does not model: why, at file:line.
  std::string refused;
};

}  // namespace gpulin::litmus
