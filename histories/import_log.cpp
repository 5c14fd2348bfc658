#include "histories/import_log.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "histories/assemble.h"

namespace gpulin {

ImportLog::ImportLog(std::string path, int64_t min_process, int64_t max_process)
    : path_(std::move(path)),
      fresh_up_(max_process),
      fresh_down_(min_process),
      up_left_(max_process < std::numeric_limits<int64_t>::max()),
      down_left_(min_process > std::numeric_limits<int64_t>::min()) {}

int64_t ImportLog::fresh_actor(int64_t process, uint32_t line) {
  if (up_left_) {
    if (++fresh_up_ == std::numeric_limits<int64_t>::max()) up_left_ = false;
    return fresh_up_;
  }
  if (down_left_) {
    if (--fresh_down_ == std::numeric_limits<int64_t>::min()) down_left_ = false;
    return fresh_down_;
  }
  fail(line, fmt::format("process {} invokes again after an operation left pending, and no actor id is left for it "
                         "(the fresh ids above and below the log's process numbers are all taken)",
                         process));
}

void ImportLog::fail(uint32_t line, const std::string& msg) const { throw FormatError(path_, line, msg); }

void ImportLog::invoke(int64_t process, uint32_t line, std::string f, Value args) {
  auto [it, fresh] = processes_.try_emplace(process, Process{process});
  Process& p = it->second;
  if (p.outstanding >= 0)
    fail(line, fmt::format("process {} invokes :{} while its :{} (line {}) has no answer yet", process, f,
                           ops_[p.outstanding].f, ops_[p.outstanding].inv_line));
  if (p.left_pending) {
    p.actor = fresh_actor(process, line);
    p.left_pending = false;
  }
  p.outstanding = static_cast<int64_t>(ops_.size());
  ops_.push_back(Op{p.actor, std::move(f), std::move(args), line, std::nullopt});
}

ImportLog::Op& ImportLog::answer(int64_t process, uint32_t line, std::string_view f) {
  auto it = processes_.find(process);
  if (it == processes_.end() || it->second.outstanding < 0)
    fail(line, fmt::format("process {} answers :{} without an invocation awaiting an answer", process, f));
  Op& op = ops_[it->second.outstanding];
  if (op.f != f)
    fail(line, fmt::format("process {} answers :{}, but its invocation (line {}) was :{}", process, f, op.inv_line,
                           op.f));
  it->second.outstanding = -1;
  return op;
}

void ImportLog::complete(int64_t process, uint32_t line, std::string_view f, Value res) {
  Op& op = answer(process, line, f);
  op.res = std::move(res);
  op.ret_line = line;
}

void ImportLog::leave_pending(int64_t process, uint32_t line, std::string_view f) {
  answer(process, line, f);
  processes_[process].left_pending = true;
}

void ImportLog::drop(int64_t process, uint32_t line, std::string_view f) { answer(process, line, f).dropped = true; }

History ImportLog::finish(std::string model) && {
  // Invocations never answered stay pending and so block their process number too,
  // but nothing follows them in the log, so no fresh actor is needed.
  RawHistory raw;
  int64_t id = 0;
  for (Op& op : ops_) {
    if (op.dropped) continue;
    raw.add_inv(Event{op.inv_line, EventKind::Inv, id, op.actor, 0, op.inv_line}, std::move(op.f), std::move(op.args));
    if (op.res) raw.add_ret(Event{op.ret_line, EventKind::Ret, id, op.actor, 0, op.ret_line}, std::move(*op.res));
    ++id;
  }
  Header header;
  header.model = std::move(model);
  std::string source;
  append_json_string(source, std::filesystem::path(path_).filename().string());
  header.extra.emplace_back("source", std::move(source));
  return assemble_history(path_, std::move(header), 0, std::move(raw));
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(path, 0, "cannot read the file");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace gpulin
