#include "sim/memory/ordering_sites.h"

#include <stdexcept>

namespace gpulin::sim::memory {

const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return "load";
    case AccessKind::Store: return "store";
    case AccessKind::Rmw: return "rmw";
    case AccessKind::Fence: return "fence";
    case AccessKind::BatchLoad: return "batch load";
    case AccessKind::BatchStore: return "batch store";
  }
  return "?";
}

namespace {
constexpr Weaken kWeakenings[] = {Weaken::NoAcquire, Weaken::NoRelease, Weaken::NoFence, Weaken::CtaScope, Weaken::Weak};
}  // namespace

const char* to_string(Weaken w) {
  switch (w) {
    case Weaken::NoAcquire: return "no-acquire";
    case Weaken::NoRelease: return "no-release";
    case Weaken::NoFence: return "no-fence";
    case Weaken::CtaScope: return "cta-scope";
    case Weaken::Weak: return "weak";
  }
  return "?";
}

std::optional<Weaken> parse_weaken(std::string_view s) {
  for (Weaken w : kWeakenings)
    if (s == to_string(w)) return w;
  return std::nullopt;
}

std::vector<Weaken> weakenings_of(const OrderingSite& s) {
  std::vector<Weaken> out;
  if (s.order == Order::Weak) return out;
  if (s.kind == AccessKind::Fence) {
    out.push_back(Weaken::NoFence);
  } else {
    if (acquires(s.order)) out.push_back(Weaken::NoAcquire);
    if (releases(s.order)) out.push_back(Weaken::NoRelease);
    if (s.order == Order::Relaxed && s.kind != AccessKind::Rmw) out.push_back(Weaken::Weak);
  }
  if (s.scope != Scope::Cta) out.push_back(Weaken::CtaScope);
  return out;
}

bool Weakening::at(const SourceSite& site) const {
  if (site.line != line) return false;
  const std::string_view f = site.file;
  return f == file || (f.size() > file.size() && f.ends_with(file) && f[f.size() - file.size() - 1] == '/');
}

std::optional<std::pair<Order, Scope>> Weakening::apply(AccessKind k, Order o, Scope s) const {
  switch (what) {
    case Weaken::NoAcquire:
      if (o == Order::Acquire) o = Order::Relaxed;
      if (o == Order::AcqRel || o == Order::Sc) o = Order::Release;
      break;
    case Weaken::NoRelease:
      if (o == Order::Release) o = Order::Relaxed;
      if (o == Order::AcqRel || o == Order::Sc) o = Order::Acquire;
      break;
    case Weaken::NoFence:
      if (k == AccessKind::Fence) return std::nullopt;
      break;
    case Weaken::CtaScope:
      s = Scope::Cta;
      break;
    case Weaken::Weak:
      if (o == Order::Relaxed && k != AccessKind::Rmw && k != AccessKind::Fence) o = Order::Weak;
      break;
  }
  return std::pair{o, s};
}

std::string weakening_text(const Weakening& w) {
  return w.file + "@" + std::to_string(w.line) + "@" + to_string(w.what);
}

Weakening parse_weakening(std::string_view text, std::string_view what) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(std::string(what) + ": weakening '" + std::string(text) + "': " + why +
                                 " (want FILE@LINE@no-acquire|no-release|no-fence|cta-scope|weak)");
  };
  const size_t a = text.find('@'), b = a == std::string_view::npos ? a : text.find('@', a + 1);
  if (b == std::string_view::npos || a == 0) throw bad("not FILE@LINE@WEAKENING");
  Weakening w;
  w.file = std::string(text.substr(0, a));
  const std::string_view line = text.substr(a + 1, b - a - 1);
  if (line.empty() || line.size() > 9 || line.find_first_not_of("0123456789") != std::string_view::npos)
    throw bad("the line is not a number");
  w.line = static_cast<uint32_t>(std::stoul(std::string(line)));
  const std::optional<Weaken> how = parse_weaken(text.substr(b + 1));
  if (!how) throw bad("unknown weakening '" + std::string(text.substr(b + 1)) + "'");
  w.what = *how;
  return w;
}

void SiteInventory::add(const SourceSite& at, AccessKind k, Order o, Scope s) {
  std::lock_guard<std::mutex> hold(lock_);
  met_.emplace(at.file, at.line, k, o, s);
}

std::vector<OrderingSite> SiteInventory::sites() const {
  std::lock_guard<std::mutex> hold(lock_);
  std::set<OrderingSite> sites;
  for (const auto& [file, line, kind, order, scope] : met_) {
    const std::string text = site_text({file, line});
    sites.insert(OrderingSite{text.substr(0, text.rfind(':')), line, kind, order, scope});
  }
  return {sites.begin(), sites.end()};
}

}  // namespace gpulin::sim::memory
