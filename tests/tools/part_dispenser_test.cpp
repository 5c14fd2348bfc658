// The guided chunks explore --mpi hands out (tools/explore/part_dispenser.h): every
// part exactly once, in increasing order, large chunks first and single parts at
// the end, also when several threads take at once.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "tools/explore/part_dispenser.h"

namespace {

using gpulin::explore::PartDispenser;
using gpulin::explore::PartRange;

std::vector<PartRange> drain(PartDispenser& d, uint64_t parts) {
  std::vector<PartRange> chunks;
  for (PartRange c = d.take(parts); !c.empty(); c = d.take(parts)) chunks.push_back(c);
  return chunks;
}

TEST(PartDispenser, ChunksCoverEveryPartOnceAndShrinkToSingleParts) {
  for (uint64_t takers : {1u, 2u, 4u, 16u}) {
    for (uint64_t parts : {0u, 1u, 7u, 512u, 1000u}) {
      PartDispenser d(takers);
      const std::vector<PartRange> chunks = drain(d, parts);
      uint64_t next = 0;
      for (size_t i = 0; i < chunks.size(); ++i) {
        EXPECT_EQ(chunks[i].first, next) << takers << " takers, " << parts << " parts";
        if (i > 0) {
          EXPECT_LE(chunks[i].last - chunks[i].first, chunks[i - 1].last - chunks[i - 1].first);
        }
        // No chunk holds more than a quarter of the remaining parts' fair share.
        EXPECT_LE(chunks[i].last - chunks[i].first, std::max<uint64_t>(1, (parts - next) / (4 * takers)));
        next = chunks[i].last;
      }
      EXPECT_EQ(next, parts);
      if (!chunks.empty()) {
        EXPECT_EQ(chunks.back().last - chunks.back().first, 1u);
      }
      EXPECT_TRUE(d.take(parts).empty());
    }
  }
}

TEST(PartDispenser, FewAsksForAFrontier) {
  PartDispenser d(4);
  const size_t asks = drain(d, 512).size();
  // One ask a part would be 512; the first chunk alone holds 32.
  EXPECT_LT(asks, 512u / 3);
  PartDispenser first(4);
  EXPECT_EQ(first.take(512).last, 32u);
}

TEST(PartDispenser, ThreadsTakingTogetherGetDisjointChunks) {
  PartDispenser d(8);
  const uint64_t parts = 100000;
  std::vector<std::vector<PartRange>> got(8);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] {
      for (PartRange c = d.take(parts); !c.empty(); c = d.take(parts)) got[t].push_back(c);
    });
  for (std::thread& t : threads) t.join();
  std::vector<int> seen(parts, 0);
  for (const auto& chunks : got)
    for (const PartRange& c : chunks)
      for (uint64_t p = c.first; p < c.last; ++p) ++seen[p];
  for (uint64_t p = 0; p < parts; ++p) ASSERT_EQ(seen[p], 1) << "part " << p;
}

}  // namespace
