// Reads the JSONL history format (history-format.md) and checks every structural
// rule of it; a broken rule is a FormatError naming the file and the line where
// the problem shows. Whether f/args/res fit the model is checked in verify/.
//
// Beyond the written rules, an event line may hold only the fields its kind
// defines (t, e, op, actor; f and args on inv; res on ret; node on acq/rel), each
// once: a misspelt or misplaced field would otherwise vanish silently on reading.
#pragma once

#include <string>
#include <string_view>

#include "histories/history.h"
#include "histories/rules.h"  // validate_history, for histories built in code

namespace gpulin {

// Reads a file. An unreadable file is a FormatError with line 0.
History read_history_file(const std::string& path);

// Reads text already in memory; `source_name` is what messages call the file.
History read_history_text(std::string_view text, const std::string& source_name);

}  // namespace gpulin
