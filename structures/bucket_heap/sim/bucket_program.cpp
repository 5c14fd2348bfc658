#include "structures/bucket_heap/sim/bucket_program.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "histories/jsonl_writer.h"
#include "sim/schedule_string.h"
#include "structures/bucket_heap/operations.h"
#include "tools/explore/replay_fields.h"

namespace gpulin::explore {

uint64_t BucketProgram::elements() const {
  uint64_t n = 0;
  for (const BucketOp& op : ops) n += op.fn == bucket_heap::kFnUpdate ? op.updates.size() : 1;
  return n;
}

Header bucket_header(const std::string& source) {
  Header header;
  header.model = "bucket-pq";
  header.lp_rule = "explicit";
  std::string quoted;
  append_json_string(quoted, source);
  header.extra.emplace_back("source", quoted);
  return header;
}

std::vector<std::string> bucket_fn_names() { return {"update", "extractmin", "delete"}; }

void pair_update_args(History& h) {
  for (Operation& op : h.ops) {
    if (op.f != "update") continue;
    const Value::Array flat = op.args.as_array();
    Value::Array pairs;
    for (size_t i = 0; i + 1 < flat.size(); i += 2) pairs.push_back(Value::array({flat[i], flat[i + 1]}));
    op.args = Value::array(std::move(pairs));
  }
}

std::string bucket_variant_name(const BucketConfig& c) {
  if (c.variant == bucket_heap::Variant::Paper) return "paper";
  if (c.refill == bucket_heap::Refill::Full) return "fixed";
  return c.buffers == bucket_heap::SignalBuffers::Two ? "pipelined" : "lazy";
}

bool set_bucket_variant(BucketConfig& c, const std::string& name) {
  if (name != "paper" && name != "fixed" && name != "lazy" && name != "pipelined") return false;
  c.variant = name == "paper" ? bucket_heap::Variant::Paper : bucket_heap::Variant::Fixed;
  c.refill = name == "lazy" || name == "pipelined" ? bucket_heap::Refill::Lazy : bucket_heap::Refill::Full;
  c.buffers = name == "pipelined" ? bucket_heap::SignalBuffers::Two : bucket_heap::SignalBuffers::One;
  return true;
}

std::string bucket_mutant_name(bucket_heap::Mutant m) {
  switch (m) {
    case bucket_heap::Mutant::None: return "none";
    case bucket_heap::Mutant::EveryThird: return "bucket-every-third";
    case bucket_heap::Mutant::AdjacentOverlap: return "bucket-adjacent-overlap";
    case bucket_heap::Mutant::KeepDuplicates: return "bucket-keep-duplicates";
    case bucket_heap::Mutant::ShiftInPlace: return "bucket-shift-in-place";
  }
  return "none";
}

const std::vector<std::string>& bucket_mutant_names() {
  static const std::vector<std::string> names = {"bucket-every-third", "bucket-adjacent-overlap",
                                                 "bucket-keep-duplicates", "bucket-shift-in-place"};
  return names;
}

std::optional<bucket_heap::Mutant> parse_bucket_mutant(const std::string& s) {
  using bucket_heap::Mutant;
  for (Mutant m : {Mutant::None, Mutant::EveryThird, Mutant::AdjacentOverlap, Mutant::KeepDuplicates,
                   Mutant::ShiftInPlace})
    if (bucket_mutant_name(m) == s) return m;
  return std::nullopt;
}

// The generator plays the sequential priority queue as it goes, so that it knows
// which value each EXTRACTMIN takes (priorities are unique) and never updates a
// value after it left.
BucketProgram generate_bucket_program(const BucketConfig& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&rng](uint64_t n) { return static_cast<uint32_t>(rng() % n); };
  std::map<uint32_t, uint32_t> prio_of;        // values in the queue
  std::set<std::pair<uint32_t, uint32_t>> by_prio;
  std::set<uint32_t> used_prios;
  uint32_t next_value = 0;
  // A priority not used before, below `below`, or none after a few tries.
  auto fresh_prio = [&](uint32_t below) -> std::optional<uint32_t> {
    for (int tries = 0; tries < 16 && below > 0; ++tries) {
      const uint32_t p = pick(below);
      if (used_prios.insert(p).second) return p;
    }
    return std::nullopt;
  };
  BucketProgram p;
  for (uint32_t i = 0; i < c.ops; ++i) {
    BucketOp op;
    const uint32_t roll = pick(100);
    if (roll < 55 || by_prio.empty()) {
      op.fn = bucket_heap::kFnUpdate;
      std::map<uint32_t, uint32_t> batch;
      for (uint32_t n = 1 + pick(c.d); batch.size() < n;) {
        // A value in the queue gets a smaller priority, or a new value comes in.
        std::optional<uint32_t> pr;
        if (!prio_of.empty() && pick(3) == 0) {
          auto it = std::next(prio_of.begin(), pick(prio_of.size()));
          if (!batch.count(it->first) && (pr = fresh_prio(it->second))) batch[it->first] = *pr;
          else if (!batch.empty()) break;
        } else if ((pr = fresh_prio(1000000))) {
          batch[next_value++] = *pr;
        }
      }
      for (const auto& [v, pr] : batch) {
        if (auto it = prio_of.find(v); it != prio_of.end()) by_prio.erase({it->second, v});
        prio_of[v] = pr;
        by_prio.emplace(pr, v);
        op.updates.emplace_back(v, pr);
      }
    } else if (roll < 90) {
      op.fn = bucket_heap::kFnExtractMin;
      const auto [pr, v] = *by_prio.begin();
      by_prio.erase(by_prio.begin());
      prio_of.erase(v);
    } else {
      op.fn = bucket_heap::kFnDelete;
      auto it = std::next(prio_of.begin(), pick(prio_of.size()));
      op.value = it->first;
      by_prio.erase({it->second, it->first});
      prio_of.erase(it);
    }
    p.ops.push_back(std::move(op));
  }
  return p;
}

std::vector<bucket_heap::Element> bucket_pq_answers(const BucketProgram& p) {
  using namespace bucket_heap;
  std::map<uint32_t, uint32_t> prio;
  std::set<std::pair<uint32_t, uint32_t>> by;
  std::vector<Element> out(p.ops.size(), kNoElement);
  for (size_t k = 0; k < p.ops.size(); ++k) {
    const BucketOp& op = p.ops[k];
    if (op.fn == kFnUpdate) {
      for (const auto& [v, pr] : op.updates) {
        if (auto it = prio.find(v); it != prio.end()) by.erase({it->second, v});
        prio[v] = pr;
        by.emplace(pr, v);
      }
    } else if (op.fn == kFnDelete) {
      if (auto it = prio.find(op.value); it != prio.end()) by.erase({it->second, op.value}), prio.erase(it);
    } else if (!by.empty()) {
      const auto [pr, v] = *by.begin();
      out[k] = make_element(v, pr);
      by.erase(by.begin());
      prio.erase(v);
    }
  }
  return out;
}

bool is_bucket_replay(const std::string& replay) { return replay.rfind("bucket-heap:", 0) == 0; }

std::string bucket_replay_string(const BucketConfig& c, const BucketProgram& p, const std::vector<uint32_t>& picks) {
  std::string s = "bucket-heap:d=" + std::to_string(c.d) + ":variant=" + bucket_variant_name(c);
  if (c.mutant != bucket_heap::Mutant::None) s += ":mutant=" + bucket_mutant_name(c.mutant);
  if (c.threads != 2) s += ":threads=" + std::to_string(c.threads);
  s += sim::memory::memory_config_field(c.memory) + "|";
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const BucketOp& op = p.ops[i];
    if (i) s += ",";
    if (op.fn == bucket_heap::kFnExtractMin) {
      s += "x";
    } else if (op.fn == bucket_heap::kFnDelete) {
      s += 'd';  // piece by piece, as below (GCC 12's -Wrestrict false positive)
      s += std::to_string(op.value);
    } else {
      s += "u";
      for (size_t j = 0; j < op.updates.size(); ++j) {  // piece by piece: verify/keys_text.h says why
        if (j) s += '/';
        s += std::to_string(op.updates[j].first);
        s += '=';
        s += std::to_string(op.updates[j].second);
      }
    }
  }
  return s + "|" + sim::encode_picks(picks);
}

BucketReplayInput parse_bucket_replay_string(const std::string& s) {
  const auto parts = split_fields(s, '|');
  if (!is_bucket_replay(s) || parts.size() != 3)
    throw std::invalid_argument("bucket-heap schedule: want bucket-heap:CONFIG|PROGRAM|PICKS");
  BucketReplayInput in;
  const auto config = split_fields(parts[0], ':');
  for (size_t i = 1; i < config.size(); ++i) {
    const std::string& kv = config[i];
    if (kv.rfind("d=", 0) == 0) {
      in.config.d = parse_u32_field(kv.substr(2), "bucket-heap", "d");
      if (in.config.d == 0 || in.config.d > 64) throw std::invalid_argument("bucket-heap schedule: d must be 1..64");
    } else if (kv.rfind("variant=", 0) == 0 && set_bucket_variant(in.config, kv.substr(8))) {
    } else if (kv.rfind("threads=", 0) == 0) {
      in.config.threads = parse_u32_field(kv.substr(8), "bucket-heap", "threads");
      if (in.config.threads == 0 || in.config.threads > 1024)
        throw std::invalid_argument("bucket-heap schedule: threads must be 1..1024");
    } else if (kv.rfind("memory=", 0) == 0) {
      in.config.memory = sim::memory::parse_memory_config_value(kv.substr(7), "bucket-heap schedule");
    } else if (kv.rfind("mutant=", 0) == 0) {
      const auto m = parse_bucket_mutant(kv.substr(7));
      if (!m) throw std::invalid_argument("bucket-heap schedule: unknown mutant '" + kv.substr(7) + "'");
      in.config.mutant = *m;
    } else {
      throw std::invalid_argument("bucket-heap schedule: unknown config field '" + kv + "'");
    }
  }
  for (const std::string& text : split_fields(parts[1], ',')) {
    if (text.empty()) continue;
    BucketOp op;
    if (text == "x") {
      op.fn = bucket_heap::kFnExtractMin;
    } else if (text[0] == 'd') {
      op.fn = bucket_heap::kFnDelete;
      op.value = parse_u32_field(text.substr(1), "bucket-heap", "value");
    } else if (text[0] == 'u') {
      op.fn = bucket_heap::kFnUpdate;
      for (const std::string& pair : split_fields(text.substr(1), '/')) {
        const size_t eq = pair.find('=');
        if (eq == std::string::npos) throw std::invalid_argument("bucket-heap schedule: update '" + pair + "' wants V=P");
        const uint32_t v = parse_u32_field(pair.substr(0, eq), "bucket-heap", "value");
        const uint32_t pr = parse_u32_field(pair.substr(eq + 1), "bucket-heap", "priority");
        if (pr == bucket_heap::kDel) throw std::invalid_argument("bucket-heap schedule: priority " + pair + " is reserved");
        op.updates.emplace_back(v, pr);
      }
      std::sort(op.updates.begin(), op.updates.end());
      for (size_t j = 1; j < op.updates.size(); ++j)
        if (op.updates[j].first == op.updates[j - 1].first)
          throw std::invalid_argument("bucket-heap schedule: '" + text + "' updates a value twice");
      if (op.updates.empty() || op.updates.size() > in.config.d)
        throw std::invalid_argument("bucket-heap schedule: '" + text + "' needs 1 to d updates");
    } else {
      throw std::invalid_argument("bucket-heap schedule: unknown operation '" + text + "'");
    }
    in.program.ops.push_back(std::move(op));
  }
  if (in.program.ops.size() > 4096) throw std::invalid_argument("bucket-heap schedule: at most 4096 operations");
  in.picks = sim::decode_picks(parts[2]);
  return in;
}

}  // namespace gpulin::explore
