// The keyed models' operations (history-format.md, Models) as the per-key checks
// replay them: the host's (keyed_check.cpp) and the GPU's (gpu_published_check.cu)
// read one table, so that both name and fit an operation alike.
#pragma once

#include <cstdint>
#include <string>

#include "histories/history.h"

namespace gpulin::keyed_fns {

enum class Kind { Map, Set, Multimap };
enum Fn : uint8_t { kReplace, kInsert, kDelete, kDeleteAll, kSearch, kSearchAll, kContains, kUnknown };

// The model a keyed history's header names; FormatError (line 1) for any other.
inline Kind kind_of(const Header& header, const std::string& source) {
  const std::string& m = header.model;
  if (m == "map") return Kind::Map;
  if (m == "set") return Kind::Set;
  if (m == "multimap") return Kind::Multimap;
  throw FormatError(source, 1, "the keyed check is for map, set and multimap histories, not " + m);
}

// An operation of the model, by name; kUnknown for a name the model lacks.
inline Fn fn_of(Kind kind, const std::string& f) {
  switch (kind) {
    case Kind::Map:
      return f == "replace" ? kReplace : f == "delete" ? kDelete : f == "search" ? kSearch : kUnknown;
    case Kind::Set:
      return f == "insert" ? kInsert : f == "delete" ? kDelete : f == "contains" ? kContains : kUnknown;
    case Kind::Multimap:
      return f == "insert"      ? kInsert
             : f == "delete"    ? kDelete
             : f == "deleteall" ? kDeleteAll
             : f == "search"    ? kSearch
             : f == "searchall" ? kSearchAll
                                : kUnknown;
  }
  return kUnknown;
}

// How many arguments the model's operation takes: the key, and a map's replace
// and a multimap's insert also the value.
inline uint32_t arity_of(Kind kind, Fn fn) {
  return fn == kReplace || (fn == kInsert && kind == Kind::Multimap) ? 2 : 1;
}

}  // namespace gpulin::keyed_fns
