// The one table of structures. Every subcommand that takes --structure (explore,
// replay, stress, survey, list) reads it; no other file lists structure names.
// The built-in structures' rows are added on first use (builtin_rows.cpp); a
// program of its own adds its rows before it runs the command line
// (tools/registry/main.h, docs/own-structure.md).
#pragma once

#include <string>
#include <vector>

#include "tools/registry/structure_row.h"

namespace gpulin::registry {

class Registry {
 public:
  // Adds a row; throws std::invalid_argument on a repeated name or a row without
  // its explore, title, owns_replay or replay function.
  void add(StructureRow row);
  const std::vector<StructureRow>& rows() const { return rows_; }
  const StructureRow* find(const std::string& name) const;
  // The row whose replay strings `schedule` is one of; null if none.
  const StructureRow* owner_of_replay(const std::string& schedule) const;
  std::vector<std::string> names() const;
  std::vector<std::string> stress_names() const;  // the rows with a GPU driver

 private:
  std::vector<StructureRow> rows_;
};

// The process's registry, the built-in rows added on first use.
Registry& structures();

// Each built-in structure's rows (one file each, tools/registry/*_rows.cpp).
void add_gheap_rows(Registry& r);
void add_merge_rows(Registry& r);
void add_slab_rows(Registry& r);
void add_psync_rows(Registry& r);
void add_bucket_rows(Registry& r);
void add_counter_array_rows(Registry& r);

// A selection of `row` with every parameter at its default, the first variant.
Selection default_selection(const StructureRow& row);
// Sets parameter `name` to `value`, checked against the row's declaration; throws
// std::invalid_argument naming the structure, the option and what it takes.
void set_param(const StructureRow& row, Selection& s, const std::string& name, const std::string& value);
// Checks the selection's variant and mutant against the row (throws as set_param).
void check_choice(const StructureRow& row, const Selection& s);

// "a, b, c"
std::string joined(const std::vector<std::string>& names);

}  // namespace gpulin::registry
