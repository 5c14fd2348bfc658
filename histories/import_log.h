// What the Jepsen-style importers share: logs where numbered processes invoke
// operations and answers arrive later (:ok, :fail, :info), one event a line.
// ImportLog pairs answers with invocations and turns the log into a History whose
// t is the line number (real-time order = line order) and whose op ids are
// 0, 1, 2, ... in invocation order.
//
// Actors. A process runs one operation at a time, but an operation left pending
// (an :info answer, a timed-out read, or no answer at all) never ends: by the
// history rules it overlaps everything after its inv. Jepsen itself retires a
// process after :info; these logs may still reuse the number (after a timed-out
// read, for one). So when a process invokes again after one of its operations was
// left pending, the new operation gets a fresh actor id, above every process number
// in the log (below every one where the largest is 2^63 - 1); otherwise the actor is
// the process number.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "histories/history.h"

namespace gpulin {

class ImportLog {
 public:
  // The smallest and largest process numbers in the whole log (fresh actors go above
  // the largest, or below the smallest when nothing is left above).
  ImportLog(std::string path, int64_t min_process, int64_t max_process);

  void invoke(int64_t process, uint32_t line, std::string f, Value args);
  // The answers. Each names the function, which must match the invocation's.
  void complete(int64_t process, uint32_t line, std::string_view f, Value res);  // took effect, result res
  void leave_pending(int64_t process, uint32_t line, std::string_view f);       // outcome unknown
  void drop(int64_t process, uint32_t line, std::string_view f);                // did not take effect: omitted

  // The history, model `model`, with header extra "source": the file's name.
  History finish(std::string model) &&;

  [[noreturn]] void fail(uint32_t line, const std::string& msg) const;

 private:
  struct Op {
    int64_t actor;
    std::string f;
    Value args;
    uint32_t inv_line;
    std::optional<Value> res;
    uint32_t ret_line = 0;
    bool dropped = false;
  };
  struct Process {
    int64_t actor;
    int64_t outstanding = -1;  // index in ops_ of the invocation awaiting an answer
    bool left_pending = false; // an earlier op stays pending: the next invoke needs a fresh actor
  };
  // The awaited op of `process`; fails when there is none or the function differs.
  Op& answer(int64_t process, uint32_t line, std::string_view f);

  int64_t fresh_actor(int64_t process, uint32_t line);

  std::string path_;
  // Fresh actor ids still free: (max_process, fresh_up_] used so far going up, then
  // [fresh_down_, min_process) going down; each side as long as it has room.
  int64_t fresh_up_, fresh_down_;
  bool up_left_, down_left_;
  std::unordered_map<int64_t, Process> processes_;
  std::vector<Op> ops_;
};

// Reads a file into lines (without line ends); an unreadable file is FormatError(path, 0).
std::vector<std::string> read_lines(const std::string& path);

// The driver both importers share: parse every non-blank line of `path` (with an
// ImportLog that only reports errors), size the real log by the largest process id
// (fresh actor ids go above it), then feed the lines to it in order.
// parse(probe, text, line) -> Line (with a `process` field); apply(log, Line).
template <class Parse, class Apply>
History import_lines(const std::string& path, const std::string& model, Parse parse, Apply apply) {
  const std::vector<std::string> text = read_lines(path);
  ImportLog probe(path, 0, 0);
  std::vector<decltype(parse(probe, text[0], 1u))> lines;
  int64_t min_process = 0, max_process = -1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i].find_first_not_of(" \t") == std::string::npos) continue;
    lines.push_back(parse(probe, text[i], static_cast<uint32_t>(i + 1)));
    min_process = lines.size() == 1 ? lines.back().process : std::min<int64_t>(min_process, lines.back().process);
    max_process = lines.size() == 1 ? lines.back().process : std::max<int64_t>(max_process, lines.back().process);
  }
  ImportLog log(path, min_process, max_process);
  for (const auto& l : lines) apply(log, l);
  return std::move(log).finish(model);
}

}  // namespace gpulin
