#include "verify/minimise.h"

#include <algorithm>
#include <stdexcept>

#include "verify/sub_history.h"

namespace gpulin {

namespace {

// ddmin over `free` ops; every candidate is the fixed ops plus a subset of them.
class Minimiser {
 public:
  Minimiser(const History& h, CheckMethod method, const SearchOptions& options, const Blame& blame,
            std::vector<size_t> fixed)
      : h_(h), method_(method), options_(options), blame_(blame), fixed_(std::move(fixed)) {}

  // Whether the fixed ops with `ops` fail as the whole history does.
  bool fails(const std::vector<size_t>& ops) {
    ++checks;
    std::vector<size_t> all = fixed_;
    all.insert(all.end(), ops.begin(), ops.end());
    const std::optional<Blame> b = blame(sub_history(h_, std::move(all)), method_, options_);
    return b && b->same_failure(blame_);
  }

  // ddmin: try each of n chunks alone, then each complement; on success shrink to
  // it, else split finer, until chunks are single ops.
  std::vector<size_t> ddmin(std::vector<size_t> c) {
    size_t n = 2;
    while (c.size() >= 2) {
      const auto chunks = split(c, n);
      bool reduced = false;
      for (const auto& chunk : chunks)
        if (fails(chunk)) {
          c = chunk;
          n = 2;
          reduced = true;
          break;
        }
      if (!reduced && n > 2)  // with n == 2 the complements are the chunks again
        for (size_t i = 0; i < chunks.size(); ++i) {
          std::vector<size_t> rest;
          for (size_t j = 0; j < chunks.size(); ++j)
            if (j != i) rest.insert(rest.end(), chunks[j].begin(), chunks[j].end());
          if (fails(rest)) {
            c = rest;
            n = std::max<size_t>(n - 1, 2);
            reduced = true;
            break;
          }
        }
      if (reduced) continue;
      if (n >= c.size()) break;
      n = std::min(2 * n, c.size());
    }
    return c;
  }

  // Removes single ops while one can go; ddmin's result is 1-minimal in theory,
  // this makes it so whatever the predicate's quirks (the fixed ops keep a
  // candidate non-empty, so the last free op may go too).
  std::vector<size_t> one_at_a_time(std::vector<size_t> c) {
    for (bool again = true; again;) {
      again = false;
      for (size_t i = 0; i < c.size(); ++i) {
        std::vector<size_t> rest = c;
        rest.erase(rest.begin() + static_cast<ptrdiff_t>(i));
        if (fails(rest)) {
          c = std::move(rest);
          again = true;
          --i;
        }
      }
    }
    return c;
  }

  size_t checks = 0;

 private:
  static std::vector<std::vector<size_t>> split(const std::vector<size_t>& c, size_t n) {
    std::vector<std::vector<size_t>> out;
    for (size_t i = 0, start = 0; i < n; ++i) {
      const size_t end = start + (c.size() - start) / (n - i);
      out.emplace_back(c.begin() + static_cast<ptrdiff_t>(start), c.begin() + static_cast<ptrdiff_t>(end));
      start = end;
    }
    return out;
  }

  const History& h_;
  const CheckMethod method_;
  const SearchOptions& options_;
  const Blame& blame_;
  const std::vector<size_t> fixed_;
};

}  // namespace

MinimalFailure minimise(const History& failing, CheckMethod method, const SearchOptions& options) {
  const std::optional<Blame> whole = blame(failing, method, options);
  if (!whole) throw std::invalid_argument("minimise: the history does not fail to begin with");
  MinimalFailure out;
  out.blame = *whole;
  const std::vector<size_t> fixed = failure_core(failing, *whole);
  std::vector<bool> is_fixed(failing.ops.size(), false);
  for (size_t i : fixed) {
    is_fixed[i] = true;
    out.fixed.push_back(failing.ops[i].id);
  }
  std::vector<size_t> free;
  for (size_t i = 0; i < failing.ops.size(); ++i)
    if (!is_fixed[i]) free.push_back(i);
  Minimiser m(failing, method, options, *whole, fixed);
  // The fixed ops alone often fail already (a read of a value nobody wrote).
  if (!free.empty() && !m.fails({})) free = m.one_at_a_time(m.ddmin(std::move(free)));
  else free.clear();
  std::vector<size_t> core = fixed;
  core.insert(core.end(), free.begin(), free.end());
  out.history = sub_history(failing, std::move(core));
  // Every candidate taken was checked, so this holds; it is checked again because
  // the minimised history is what a person will be shown.
  const std::optional<Blame> small = blame(out.history, method, options);
  if (!small || !small->same_failure(*whole)) throw std::logic_error("minimise: the minimised history fails otherwise");
  out.checks = m.checks + 2;
  return out;
}

}  // namespace gpulin
