#include "structures/gheap/sim/heap_config.h"

#include <stdexcept>
#include <vector>

namespace gpulin::explore {

namespace {
struct MutantInfo {
  gheap::Mutant m;
  const char* name;
  const char* description;
};
constexpr MutantInfo kMutants[] = {
    {gheap::Mutant::None, "none", "no bug injected"},
    {gheap::Mutant::EarlyRootRelease, "early-root-release", "TD delete releases the root before refilling it"},
    {gheap::Mutant::StartAtParent, "start-at-parent",
     "fixed BU insert starts at its target's parent without comparing keys"},
    {gheap::Mutant::SkipPartialMerge, "skip-partial-merge",
     "delete skips the merge of the refilled root with the partial buffer"},
    {gheap::Mutant::UnlockBeforeLock, "unlock-before-lock", "TD insert releases the parent before locking the child"},
    {gheap::Mutant::BitReversalOffByOne, "bitrev-off-by-one", "target selection reverses one bit too few"},
    {gheap::Mutant::FixedBigChild, "fixed-big-child", "delete always sends the larger half to the right child"},
    {gheap::Mutant::LostRootRelease, "lost-root-release",
     "the root's release is lost: the first operation keeps it, every later one waits (a deadlock; also on the GPU)"},
    {gheap::Mutant::RelaxedLocks, "relaxed-locks",
     "the heap authors' ordering: locks by relaxed CASes with no fence, batches by weak loads and stores (caught "
     "under --memory ptx only)"},
    {gheap::Mutant::RelaxedLocksFenced, "relaxed-locks-fenced",
     "relaxed-locks with a fence.sc.gpu on either side of every atomic (a control: passes under --memory ptx too)"},
    {gheap::Mutant::MaximaInMerged, "maxima-in-merged",
     "fixed BU insert gathers its ancestors' maxima where its next merge writes (a race between the block's threads, "
     "found by compute-sanitizer's racecheck on the GPU)"},
};
}  // namespace

std::string structure_name(gheap::Flavor f) { return f == gheap::Flavor::TopDown ? "gheap-td" : "gheap-bu"; }
std::optional<gheap::Flavor> parse_structure(const std::string& s) {
  if (s == "gheap-td") return gheap::Flavor::TopDown;
  if (s == "gheap-bu") return gheap::Flavor::BottomUp;
  return std::nullopt;
}
std::string variant_name(gheap::Variant v) { return v == gheap::Variant::Paper ? "paper" : "fixed"; }
std::optional<gheap::Variant> parse_variant(const std::string& s) {
  if (s == "paper") return gheap::Variant::Paper;
  if (s == "fixed") return gheap::Variant::Fixed;
  return std::nullopt;
}
std::string mutant_name(gheap::Mutant m) {
  for (const auto& i : kMutants)
    if (i.m == m) return i.name;
  return "?";
}
std::optional<gheap::Mutant> parse_mutant(const std::string& s) {
  for (const auto& i : kMutants)
    if (s == i.name) return i.m;
  return std::nullopt;
}
const char* mutant_description(gheap::Mutant m) {
  for (const auto& i : kMutants)
    if (i.m == m) return i.description;
  return "?";
}
const char* lp_rule_for(gheap::Flavor f, gheap::Variant v) {
  return f == gheap::Flavor::BottomUp && v == gheap::Variant::Paper ? "last-lock" : "root-release";
}
bool mutant_applies(gheap::Mutant m, gheap::Flavor f) {
  switch (m) {
    case gheap::Mutant::StartAtParent:
    case gheap::Mutant::MaximaInMerged: return f == gheap::Flavor::BottomUp;
    default: return true;  // the fixed BU heap shares the TD heap's delete and descent
  }
}

bool mutant_is_ordering(gheap::Mutant m) {
  return m == gheap::Mutant::RelaxedLocks || m == gheap::Mutant::RelaxedLocksFenced;
}

std::string encode_config(const HeapConfig& c) {
  std::string s = structure_name(c.flavor) + ":" + variant_name(c.variant) + ":k=" + std::to_string(c.k) +
                  ":t=" + std::to_string(c.threads);
  if (c.mutant != gheap::Mutant::None) s += ":mutant=" + mutant_name(c.mutant);
  return s + sim::memory::memory_config_field(c.memory);
}

HeapConfig decode_config(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ':') {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  if (parts.size() < 2) throw std::invalid_argument("config: want STRUCTURE:VARIANT[:k=K][:t=T][:mutant=M]");
  HeapConfig c;
  auto f = parse_structure(parts[0]);
  if (!f) throw std::invalid_argument("config: unknown structure '" + parts[0] + "'");
  auto v = parse_variant(parts[1]);
  if (!v) throw std::invalid_argument("config: unknown variant '" + parts[1] + "'");
  c.flavor = *f;
  c.variant = *v;
  for (size_t i = 2; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    auto eq = p.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("config: bad field '" + p + "'");
    std::string key = p.substr(0, eq), val = p.substr(eq + 1);
    if (key == "k" || key == "t") {
      unsigned long n = 0;
      try {
        n = std::stoul(val);
      } catch (...) {
        throw std::invalid_argument("config: bad number in '" + p + "'");
      }
      if (n < 1 || n > 1024) throw std::invalid_argument("config: " + key + " out of range in '" + p + "'");
      (key == "k" ? c.k : c.threads) = static_cast<uint32_t>(n);
    } else if (key == "memory") {
      c.memory = sim::memory::parse_memory_config_value(val, "config");
    } else if (key == "mutant") {
      auto m = parse_mutant(val);
      if (!m) throw std::invalid_argument("config: unknown mutant '" + val + "'");
      c.mutant = *m;
    } else {
      throw std::invalid_argument("config: unknown field '" + key + "'");
    }
  }
  return c;
}

}  // namespace gpulin::explore
