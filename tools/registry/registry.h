// The one table of structures. Every subcommand that takes --structure (explore,
// replay, stress, survey, list) reads it; no other file lists structure names.
// The built-in structures' rows are added on first use: each structure's folder
// has its row (structures/NAME/row.cpp) and registers its function with CMake
// (gpulin_register_rows), which writes the call of each into the build's
// built_in_rows.cpp. A program of its own adds its rows before it runs the command
// line (tools/cli_main.h, docs/own-structure.md).
#pragma once

#include <map>
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

// The process's registry, the built-in rows added on first use (defined in the
// build's built_in_rows.cpp, in gpulin_cli).
Registry& structures();

// Adds every built-in structure's rows (the build's built_in_rows.cpp calls each
// structure's registered function, in the order structures/CMakeLists.txt adds them).
void add_built_in_rows(Registry& r);

// A selection of `row` with every explore parameter at its default, the first variant.
Selection default_selection(const StructureRow& row);
// The same with the row's stress parameters.
Selection default_stress_selection(const StructureRow& row);
// Sets explore parameter `name` to `value`, checked against the row's declaration;
// throws std::invalid_argument naming the structure, the option and what it takes.
void set_param(const StructureRow& row, Selection& s, const std::string& name, const std::string& value);
// The same for a stress parameter.
void set_stress_param(const StructureRow& row, Selection& s, const std::string& name, const std::string& value);
// Checks the selection's variant and mutant against the row (throws as set_param).
void check_choice(const StructureRow& row, const Selection& s);
// What a command line chose: the default selection with `variant` (empty: the
// first), `mutant` and the explore parameters `given`, checked (throws as set_param).
Selection chosen_selection(const StructureRow& row, const std::string& variant, const std::string& mutant,
                           const std::map<std::string, std::string>& given);

// "a, b, c"
std::string joined(const std::vector<std::string>& names);

}  // namespace gpulin::registry
