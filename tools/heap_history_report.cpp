#include "tools/heap_history_report.h"

#include <fmt/core.h>

#include <filesystem>

#include "histories/jsonl_writer.h"
#include "tools/explore/judge_history.h"

namespace gpulin::cli {

bool report_heap_history(const History& history, const std::string& out_dir, const std::string& name) {
  const explore::Judgement j = explore::judge_history(history, explore::JudgeOptions{});
  const bool ok = j.failure == explore::Failure::None;
  fmt::print("  the heap's history: {} operations, {}\n", history.ops.size(),
             ok ? "linearizable (witness of its rule)" : j.message);
  if (!out_dir.empty()) {
    std::filesystem::create_directories(out_dir);
    const std::string path = out_dir + "/" + name + ".jsonl";
    write_history_file(path, history);
    fmt::print("  history: {}\n", path);
  }
  return ok;
}

}  // namespace gpulin::cli
