#include "verify/minimise.h"

#include <stdexcept>

#include "verify/sub_history.h"
#include "verify/witness_checker.h"

namespace gpulin {

FailurePredicate still_fails(CheckMethod method, SearchOptions options) {
  if (method == CheckMethod::Witness)
    return [](const History& h) { return check_witness(h).verdict == Verdict::NotLinearizable; };
  return [options](const History& h) { return check_search(h, options).verdict == Verdict::NotLinearizable; };
}

namespace {

class Minimiser {
 public:
  Minimiser(const History& h, const FailurePredicate& p) : h_(h), p_(p) {}

  bool fails(const std::vector<size_t>& ops) {
    ++checks;
    return p_(sub_history(h_, ops));
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
  // this makes it so whatever the predicate's quirks.
  std::vector<size_t> one_at_a_time(std::vector<size_t> c) {
    for (bool again = true; again;) {
      again = false;
      for (size_t i = 0; i < c.size() && c.size() > 1; ++i) {
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
  const FailurePredicate& p_;
};

}  // namespace

History minimise(const History& failing, const FailurePredicate& still_failing, MinimiseStats* stats) {
  if (!still_failing(failing)) throw std::invalid_argument("minimise: the history does not fail to begin with");
  Minimiser m(failing, still_failing);
  std::vector<size_t> all(failing.ops.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<size_t> core = m.one_at_a_time(m.ddmin(all));
  History out = sub_history(failing, core);
  // Every candidate taken was checked, so this holds; it is checked again because
  // the minimised history is what a person will be shown.
  if (!still_failing(out)) throw std::logic_error("minimise: the minimised history no longer fails");
  if (stats) stats->checks = m.checks + 2;
  return out;
}

}  // namespace gpulin
