#include "verify/model_registry.h"

#include <map>
#include <memory>
#include <mutex>

#include "verify/models/bucket_pq.h"
#include "verify/models/kv.h"
#include "verify/models/map.h"
#include "verify/models/multimap.h"
#include "verify/models/pq.h"
#include "verify/models/pq_batch.h"
#include "verify/models/psync_pq.h"
#include "verify/models/register.h"
#include "verify/models/counters.h"
#include "verify/models/set.h"

namespace gpulin {
namespace {

// A positive integer parameter, or a FormatError naming it.
int64_t positive_param(const Header& h, const char* key, const std::string& source, uint32_t line) {
  const Value* v = h.params.find(key);
  if (!v || !v->is_int() || v->as_int() < 1)
    throw FormatError(source, line, "model " + h.model + " needs params." + key + ", an integer >= 1");
  return v->as_int();
}

std::mutex& factories_mutex() {
  static std::mutex mu;
  return mu;
}

// The factory of each model in the catalog (histories/model_catalog.h), by name;
// ModelRegistry.EveryCatalogModelHasAFactory keeps the two in step.
std::map<std::string, ModelFactory>& factories() {
  static std::map<std::string, ModelFactory> f = {
      {"pq-batch", [](const Header& h) { return make_pq_batch_model("pq-batch", h.params.find("k")->as_int()); }},
      {"pq", [](const Header&) { return make_pq_model(); }},
      {"psync-pq", [](const Header& h) { return make_psync_pq_model(h.params.find("r")->as_int()); }},
      {"bucket-pq", [](const Header&) { return make_bucket_pq_model(); }},
      {"map", [](const Header&) { return make_map_model(); }},
      {"set", [](const Header&) { return make_set_model(); }},
      {"register",
       [](const Header& h) {
         const Value* init = h.params.find("init");
         return make_register_model(init ? *init : Value());
       }},
      {"kv", [](const Header&) { return make_kv_model(); }},
      {"multimap", [](const Header&) { return make_multimap_model(); }},
      {"counters", [](const Header&) { return make_counters_model(); }},
  };
  return f;
}

std::unique_ptr<Model> build(const Header& h, const std::string& source, uint32_t line) {
  const ModelInfo* info = find_model_info(h.model);
  ModelFactory factory;
  {
    std::lock_guard<std::mutex> lock(factories_mutex());
    const auto it = factories().find(h.model);
    if (it != factories().end()) factory = it->second;
  }
  if (!info || !factory) {
    std::string known;
    for (const ModelInfo& m : model_catalog()) known += (known.empty() ? "" : ", ") + m.name;
    throw FormatError(source, line, "unknown model '" + h.model + "' (" + known + ")");
  }
  for (const std::string& p : info->positive_params) positive_param(h, p.c_str(), source, line);
  return factory(h);
}

}  // namespace

void register_model(ModelInfo info, ModelFactory factory) {
  const std::string name = info.name;
  add_model_info(std::move(info));
  std::lock_guard<std::mutex> lock(factories_mutex());
  factories()[name] = std::move(factory);
}

bool has_model_factory(const std::string& name) {
  std::lock_guard<std::mutex> lock(factories_mutex());
  return factories().count(name) != 0;
}

const Model& model_for(const Header& header, const std::string& source, uint32_t line) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Model>> models;  // by model name and params
  const std::string key = header.model + " " + header.params.to_json();
  std::lock_guard<std::mutex> lock(mu);
  auto it = models.find(key);
  if (it == models.end()) it = models.emplace(key, build(header, source, line)).first;
  return *it->second;
}

const Model& model_for(const History& h) { return model_for(h.header, h.source); }

}  // namespace gpulin
