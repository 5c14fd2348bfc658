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

std::unique_ptr<Model> build(const Header& h, const std::string& source, uint32_t line) {
  const std::string& m = h.model;
  if (m == "pq-batch") return make_pq_batch_model("pq-batch", positive_param(h, "k", source, line));
  if (m == "pq") return make_pq_model();
  if (m == "psync-pq") return make_psync_pq_model(positive_param(h, "r", source, line));
  if (m == "bucket-pq") return make_bucket_pq_model();
  if (m == "map") return make_map_model();
  if (m == "set") return make_set_model();
  if (m == "register") {
    const Value* init = h.params.find("init");
    return make_register_model(init ? *init : Value());
  }
  if (m == "kv") return make_kv_model();
  if (m == "multimap") return make_multimap_model();
  if (m == "counters") return make_counters_model();
  throw FormatError(source, line,
                    "unknown model '" + m + "' (pq-batch, pq, psync-pq, bucket-pq, map, multimap, set, register, kv, counters)");
}

}  // namespace

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
