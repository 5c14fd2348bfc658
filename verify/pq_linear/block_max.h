// The range maximum the host's per-key check asks of the positions' largest
// returned keys (key_rules.h, check_tuple), in about 1/6 of a sparse table's
// memory: the values themselves, and a sparse table over the maxima of blocks of
// kBlock positions. A query scans its two partial blocks and looks the blocks
// between them up in the table. A full sparse table over a million positions is
// 20 levels, 160 MB, and on a VM every fresh page is a fault: it cost more than
// the check's own work. The GPU check keeps the full table (gpu_check.cu), where
// memory is cheap and scans are not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "histories/huge_pages.h"
#include "verify/pq_linear/key_rules.h"

namespace gpulin::pq_linear {

class BlockMaxTable {
 public:
  static constexpr uint64_t kBlock = 32;

  // `values` must outlive the table (max_res of the check, by position).
  explicit BlockMaxTable(const std::vector<int64_t>& values) : v_(values.data()), m_(values.size()) {
    const uint64_t nb = (m_ + kBlock - 1) / kBlock;
    const uint32_t levels = sparse_levels(nb);
    resize_huge(table_, uint64_t(levels) * std::max<uint64_t>(nb, 1));
    for (uint64_t b = 0; b < nb; ++b)
      table_[b] = *std::max_element(v_ + b * kBlock, v_ + std::min(m_, (b + 1) * kBlock));
    for (uint32_t l = 1; l < levels; ++l)
      for (uint64_t i = 0; i < nb; ++i)
        table_[uint64_t(l) * nb + i] = sparse_entry(table_.data() + uint64_t(l - 1) * nb, i, uint64_t{1} << (l - 1), nb);
    blocks_ = SparseMaxView{table_.data(), nb, levels};
  }
  BlockMaxTable(const BlockMaxTable&) = delete;  // blocks_ points into table_
  BlockMaxTable& operator=(const BlockMaxTable&) = delete;

  // Maximum over [lo, hi], lo <= hi < m.
  int64_t max(uint64_t lo, uint64_t hi) const {
    const uint64_t bl = lo / kBlock, bh = hi / kBlock;
    if (bl == bh) return scan_max(lo, hi + 1);
    int64_t r = std::max(scan_max(lo, (bl + 1) * kBlock), scan_max(bh * kBlock, hi + 1));
    if (bh > bl + 1) r = std::max(r, blocks_.max(bl + 1, bh - 1));
    return r;
  }

  // The first position in [lo, hi] whose value exceeds v, or hi + 1.
  uint64_t first_above(uint64_t lo, uint64_t hi, int64_t v) const {
    const uint64_t bl = lo / kBlock, bh = hi / kBlock;
    if (bl == bh) return scan_above(lo, hi + 1, v);
    uint64_t at = scan_above(lo, (bl + 1) * kBlock, v);
    if (at < (bl + 1) * kBlock) return at;
    if (bh > bl + 1) {
      const uint64_t b = blocks_.first_above(bl + 1, bh - 1, v);  // the first block holding one
      if (b <= bh - 1) return scan_above(b * kBlock, (b + 1) * kBlock, v);
    }
    return scan_above(bh * kBlock, hi + 1, v);
  }

 private:
  int64_t scan_max(uint64_t a, uint64_t b) const {
    int64_t r = kNoMax;
    for (uint64_t i = a; i < b; ++i) r = std::max(r, v_[i]);
    return r;
  }
  uint64_t scan_above(uint64_t a, uint64_t b, int64_t v) const {
    while (a < b && v_[a] <= v) ++a;
    return a;
  }

  const int64_t* v_;
  uint64_t m_;
  std::vector<int64_t> table_;
  SparseMaxView blocks_;
};

}  // namespace gpulin::pq_linear
