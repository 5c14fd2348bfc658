// Imports the key-value logs of ../shared/external/porcupine/kv (format in
// ../shared/external/README.md) as a `kv` history, header extra "source": the
// file's name. A line is an EDN map:
//   {:process 0, :type :invoke, :f :append, :key "4", :value "x 0 1 y"}
// Operations: get [key] -> res the string read (a missing or nil :value means "");
// put [key, value] -> null; append [key, value] -> null.
// Answers: :ok gives the ret; :info leaves the op pending; :fail (it did not take
// effect) leaves it out. An invocation with no answer by the end is pending.
// t is the line number, op ids 0, 1, ... in invocation order, actors as in
// import_log.h. A line that does not parse is a FormatError naming file and line.
#pragma once

#include <string>

#include "histories/history.h"

namespace gpulin {

History import_porcupine_kv(const std::string& path);

}  // namespace gpulin
