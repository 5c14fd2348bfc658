// Imports the Jepsen etcd register logs of ../shared/external/porcupine/jepsen
// (format in ../shared/external/README.md) as a `register` history (params {},
// initial value null), header extra "source": the file's name.
//
// A line: `INFO  jepsen.util - <process> <type> <f> <value>`, fields separated by
// tabs (or by runs of spaces in some files). Meaning of the answers:
//   :ok    read -> res the value (nil -> null); write -> res null; cas -> res true
//   :fail  cas -> res false (the value was not the expected one)
//          read -> pending (a timed-out read; it constrains nothing)
//          write -> the operation is left out (a :fail did not take effect)
//   :info  any -> pending (the outcome is unknown)
// An invocation with no answer by the end of the log is pending. t is the line
// number; op ids are 0, 1, ... in invocation order; actors as in import_log.h
// (a process reusing its number after a pending op gets a fresh actor id).
// An empty file gives a history with no operations. A line that does not parse is
// a FormatError naming the file and line.
#pragma once

#include <string>

#include "histories/history.h"

namespace gpulin {

History import_jepsen_etcd(const std::string& path);

}  // namespace gpulin
