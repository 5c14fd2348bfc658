#include "histories/model_catalog.h"

#include <mutex>
#include <stdexcept>

namespace gpulin {

namespace {

std::mutex& catalog_mutex() {
  static std::mutex mu;
  return mu;
}

std::deque<ModelInfo>& catalog() {
  static std::deque<ModelInfo> models = {
      {"pq-batch", {"k"}, "priority queue of batches: insert up to k keys, delete-min k at once (the generalized heap)"},
      {"pq", {}, "priority queue: insert a key, delete-min one"},
      {"psync-pq", {"r"}, "P-Sync's cycles: delete the r smallest, insert up to 2r, in one step"},
      {"bucket-pq", {}, "bucket heap: bulk updates of (value, priority), extract-min, delete"},
      {"map", {}, "key-value map: insert, delete, search (one key an operation)"},
      {"multimap", {}, "multimap: insert, delete one, delete all, search one, search all"},
      {"set", {}, "set of keys: insert, delete, search"},
      {"register", {}, "one register: read, write, compare-and-swap"},
      {"kv", {}, "registers by key (Porcupine's and Jepsen's key-value histories)"},
      {"counters", {}, "array of counters: add to one, get one (the template structure)"},
  };
  return models;
}

}  // namespace

const std::deque<ModelInfo>& model_catalog() { return catalog(); }

const ModelInfo* find_model_info(const std::string& name) {
  std::lock_guard<std::mutex> lock(catalog_mutex());
  for (const ModelInfo& m : catalog())
    if (m.name == name) return &m;
  return nullptr;
}

void add_model_info(ModelInfo info) {
  if (find_model_info(info.name)) throw std::invalid_argument("model '" + info.name + "' is already in the catalog");
  std::lock_guard<std::mutex> lock(catalog_mutex());
  catalog().push_back(std::move(info));
}

}  // namespace gpulin
