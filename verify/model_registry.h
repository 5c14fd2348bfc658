// The model a history names in its header, with the header's params: the
// checkers' sequential models, by the names of histories/model_catalog.h.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "histories/history.h"
#include "histories/model_catalog.h"
#include "verify/model.h"

namespace gpulin {

// The model for header.model with header.params. Instances are built once per
// (model, params) and live for the program. Throws FormatError(source, line, ...)
// for an unknown model or missing or bad params: the header is the file's first
// non-comment line, which `line` should name when known.
const Model& model_for(const Header& header, const std::string& source = "<header>", uint32_t line = 1);
// The same, naming h.source in errors.
const Model& model_for(const History& h);

// Builds a model from a header whose params the catalog's rules have checked.
using ModelFactory = std::function<std::unique_ptr<Model>(const Header& header)>;
// A model of a program's own structure (docs/own-structure.md): `info` joins the
// catalog, so its histories read and check like the built-in ones. Throws
// std::invalid_argument when the name is taken.
void register_model(ModelInfo info, ModelFactory factory);
// Whether a checker model exists for `name` (every catalog model has one).
bool has_model_factory(const std::string& name);

}  // namespace gpulin
