// The model a history names in its header, with the header's params.
#pragma once

#include <string>

#include "histories/history.h"
#include "verify/model.h"

namespace gpulin {

// The model for header.model with header.params. Instances are built once per
// (model, params) and live for the program. Throws FormatError(source, line, ...)
// for an unknown model or missing or bad params: the header is the file's first
// non-comment line, which `line` should name when known.
const Model& model_for(const Header& header, const std::string& source = "<header>", uint32_t line = 1);
// The same, naming h.source in errors.
const Model& model_for(const History& h);

}  // namespace gpulin
