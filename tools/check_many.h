// `gpulin check` over folders and lists of files: every history checked, in
// parallel (--jobs, all cores by default), one summary line per file and the totals
// of every verdict, or one JSON object. Each file is checked by its own
// `gpulin check --json FILE` process, so that a file that exhausts memory or crashes
// the checker costs that file alone, and each check prints as it would alone.
#pragma once

#include <string>
#include <vector>

namespace gpulin::cli {

struct ManyCheckArgs {
  std::vector<std::string> paths;      // files and folders (a folder: its *.jsonl and *.bin)
  std::vector<std::string> check_args;  // passed to every single-file check
  unsigned jobs = 0;                   // 0: one per core
  bool json = false;
};

// Exit: 1 if any history is not linearizable, else 2 if any file is malformed or
// could not be checked, else 3 if any is undecided, else 0.
int check_many(const ManyCheckArgs& a);

// The history files a folder holds (*.jsonl, *.bin), sorted; a file stays itself.
std::vector<std::string> history_files(const std::vector<std::string>& paths);

}  // namespace gpulin::cli
