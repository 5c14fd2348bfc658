// Every replay string in docs/findings.md, pinned: each replays through `gpulin
// replay` to the verdict its finding states (the category, and the operation or
// node where the finding names one). A string found on an earlier `fixed` heap
// (findings.md names the commit it replays at) does not fit today's: its schedule
// meets a different run, and replay says so (exit 2) rather than judging another
// execution; the repairs those findings led to are tested by their programs in
// the structure tests. A replay string added to findings.md without a row here
// fails FindingsDoc.EveryReplayStringIsPinned.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/tools/run_gpulin.h"

namespace {

using cli_test::gpulin;
using cli_test::quote;

struct Pinned {
  const char* finding;
  const char* schedule;
  int exit_code;      // gpulin replay's: 0 pass, 1 a bug, 2 the string does not fit
  const char* said;   // what the verdict line says (its category and what it names)
  bool historical;    // found on an earlier variant: its picks no longer fit
};

const std::vector<Pinned>& pinned() {
  static const std::vector<Pinned> rows = {
      {"F1", "gheap-td:paper:k=4:t=2|i25-41-42-48;i46-63-36-27,d|1*8.0*11.1*9", 1, "verdict: deadlock", false},
      {"F2", "gheap-td:paper:k=4:t=2|i33-57-1-55,d;i44-4-0-20,i29-16-14-0|1*19.0*32", 1,
       "verdict: invariant: property 1", false},
      {"F2", "gheap-td:paper:k=4:t=2|i33-39-51-49,d,d;i13-13-44-38,i8-11-41-26|1*23.0*29.1*3", 1,
       "verdict: violation", false},
      {"F4", "gheap-bu:paper:k=4:t=2|i6-40-33-3;i31-46-33-34,d|1*8.0*11.1*10", 1, "verdict: deadlock", false},
      {"F4",
       "gheap-bu:paper:k=4:t=2|i50-55-5-55,d;i24-6-51-31,i13-63-31-36|1.0.1.0.1*2.0*2.1.0.1.0*3.1.0*4.1*3.0*2.1.0.1*"
       "2.0.1.0",
       1, "verdict: invariant: at rest the heap keeps node 2 in state 5", false},
      {"F5",
       "gheap-bu:paper:k=4:t=2|i59-31-6-5,i26-10-60-49,i10-24-32-36,d;i15-46-44-1,i59-35-32-23|1.0*2.1.0.1.0"
       "*4.1.0*4.1*2.0*4.1*5.0.1.0*2.1*4.0.1.0*4.1*3.0.1*3.0.1*8.0.1*4.0.1.0.1*2.0*3.1*2.0.1*5.0.1.0.1.0*9.1"
       "*2.0.1.0*3.1*3.0*3.1*2.0*2.1",
       1, "verdict: invariant: at rest the heap keeps node 3 in state 5", false},
      {"F5",
       "gheap-bu:paper:k=4:t=2|i55-27-48-16,d;i43-39-45-48;d,d,i57-26,i46-60-59-53;i18-21-13-6|2*27.3*6.0*2.1*2.0*35.1*"
       "2.3*3.1*18.3*7",
       1, "rel of node 2 by op 1 without a preceding acq", false},
      {"F7", "gheap-bu:fixed:k=4:t=2|i6-40-33-3;i31-46-33-34,d,d|1*8.0*11.1*34", 0, "verdict: pass", false},
      {"F8", "gheap-bu:fixed:k=2:t=2|i55-59;i21-5,i41-34,i38-42,i33;i5-54,d,d|1*58.0*12.2*119", 2,
       "schedule does not fit this program", true},
      {"F9",
       "gheap-bu:fixed:k=4:t=2|d;d,i47-47-63,i61-4-18-63,i41-47-43-57,d,i50-51-61-25,i20-6-54-27;i47-8-9-53,d,"
       "i24-39-2-28,i62-21-62-17,i33-50-43-26,d,i22-11-46-7;i33-63-32-24,d,d|1*65.2*2.0*2.3*2.2*6.0*2.3*2.2*188.0*20.3*"
       "2.1.3*11.1*44.3*4.1*2.3*23.0*10.3*106.0",
       2, "schedule does not fit this program", true},
      {"F10",
       "gheap-bu:fixed:k=1:t=2|d,d,d,i51,i50,i3,i43,i3,i21,i9;i57,i46,i58,i53,i56,i57,i53;i3;i31,i27,i3,i1|3*62.0*"
       "174.2*2.1*2.2*26.1*119.0*3",
       2, "schedule does not fit this program", true},
      {"F10",
       "gheap-bu:fixed:k=1:t=2|i36,i48,i47,i6,d,i60;d,d,d,i39,i41;i42,i63,i45,i3,i9,i17,d,i11;i27,i19;i42,d,i53,i60,"
       "i39,i59;i61,i39,d,i23,i13,d;d|3*26.2*176.5*158.0*117.1*20.4*35.6*2.1*23.4*8.1*12.4*8.1*10.4.6*12.4*8.1*9.4*"
       "7.1*9.4.1*10.4.6*8.1*12.4*2.6*7.1*71.0*12.4*2.0*4.4*72.6.0*9",
       2, "schedule does not fit this program", true},
      {"S1", "slab-multimap:buckets=1|i0=1,i0=2,d0,i0=3,s0|", 1, "verdict: violation", false},
      {"S1", "slab-multimap:buckets=1|d0;i0=1,i0=2,i0=3,s0|1.0.1*3.0*2.1.0", 1, "verdict: violation", false},
      {"S2", "slab-map:buckets=1|d0,i0=1;i0=2,d0,s0|1*5.0*6", 0, "verdict: proof-points: op 1048578 (search [0])",
       false},
      {"S2", "slab-set:buckets=1|d0,i0;i0,d0,s0|1*5.0*6", 0, "verdict: proof-points: op 1048578 (contains [0])", false},
      {"S3", "slab-multimap:buckets=1|i0=1,i0=2,s0;x0|0*6.1*5.0", 1, "verdict: violation", false},
      {"S3", "slab-multimap:buckets=1|i0=1,s0;x0|0*4.1*4.0", 0, "verdict: proof-points: op 1 (search [0])", false},
      {"S3", "slab-multimap:buckets=1:variant=fixed|i0=1,i0=2,s0;x0|0*13.1*7.0*3", 0, "verdict: pass", false},
      {"B1", "bucket-heap:d=1:variant=paper|u1=463345,u2=540690,u3=355497,u2=441934,x,x,x,x|2.0*152", 1,
       "verdict: violation", false},
      {"B2",
       "bucket-heap:d=1:variant=fixed|u0=892657,u1=31521,u2=325056,u3=342781,u4=195753,x,u5=900817,u6=162702,"
       "u7=468126,u8=73736,u9=423639,u6=6268,u2=61771,x,u10=222920,u11=696280,x,x,x,u12=118206|0*41.1*2.2*2.1*19.2*2.1*"
       "33.2*2.1*24.2*2.1*24.2*12.1*6",
       1, "verdict: invariant: before RESOLVE(0): |B_i+1| = 4 < d 2^(2(i+1)) + d", false},
      {"M1", "gheap-td:fixed:k=4:t=2:mutant=relaxed-locks:memory=ptx|d;i31-28-19-33|1*8.0*2.r1*2", 1,
       "read weak at structures/gheap/td_delete.h:", false},
      {"M1", "gheap-td:fixed:k=4:t=2:mutant=relaxed-locks:memory=ptx-racy|d;i51-6-43-15|1*8.0*2.r1*2.r0*2.r1", 1,
       "verdict: violation", false},
      {"M5",
       "gheap-bu:fixed:k=4:t=2:mutant=relaxed-locks-fenced:memory=ptx|i45-30-52-59,i22-41-38-58;i58-54-47-8,i28-39-40-"
       "40;i60-17-22-50,i25-28-35-25|1*20.0*25.2*25.r1",
       1, "read weak at structures/gheap/bu_insert.h:", false},
      {"M3",
       "gheap-bu:fixed:k=4:t=2:mutant=maxima-in-merged|i19-55-15-25,i49-26-41-45;i46-57-12-29,i31-28-19-33|0*20", 1,
       "every thread read it in actor-uniform code after the barrier at structures/gheap/bu_insert.h:", false},
      {"M6", "bucket-heap:d=2:variant=fixed:mutant=bucket-shift-in-place|u9=611158/10=816987,u12=639010,x|0*36", 1,
       "in the parallel_for at structures/bucket_heap/operations.h:", false},
      {"M2", "slab-map:buckets=1:memory=ptx|i0=1,i0=2,i1=3;i0=4,s1|0*4.1.0*2.1*2.0.1.0.r1.r0", 0, "verdict: pass",
       false},
      {"M4", "slab-set:buckets=1:memory=ptx|s0;i0|1.0*2.1*3.r0", 0, "verdict: proof-points", false},
      {"M8", "merge:blocks=1:mutant=merge-no-warp-sync|a=0:;b=0:13,15,15,15;c=0|0*6.1.2*2.1*2.0*2.1*2.0*3", 1,
       "lane 1 of warp 0 wrote it in the for_each_lane at structures/merge_path/global_merge.h:", false},
      {"merge flags",
       "merge:blocks=1:memory=ptx@structures/merge_path/global_merge.h@356@no-release|a=0:;b=0:10;c=0|0*6.1*2.0*2.1*5."
       "r1*2.r0",
       1, "a window from stale corners", false},
  };
  return rows;
}

TEST(Findings, EveryPinnedStringReplaysToItsVerdict) {
  for (const Pinned& p : pinned()) {
    const std::string schedule = p.schedule;
    const auto r = gpulin("replay --schedule " + quote(schedule));
    const std::string said = r.out + r.err;
    EXPECT_EQ(r.code, p.exit_code) << p.finding << ": " << schedule << "\n" << r.err;
    EXPECT_NE(said.find(p.said), std::string::npos) << p.finding << ": " << schedule << " should say '" << p.said
                                                      << "'\n" << r.err;
  }
}

// Every replay string the findings quote has a row above.
TEST(FindingsDoc, EveryReplayStringIsPinned) {
  const std::string doc = cli_test::slurp(cli_test::kSource / "docs" / "findings.md");
  ASSERT_FALSE(doc.empty());
  std::set<std::string> rows;
  for (const Pinned& p : pinned()) rows.insert(p.schedule);
  // NAME:CONFIG|PROGRAM|PICKS, as docs/findings.md quotes them (a CONFIG has a ':').
  const std::regex replay(R"re((?:gheap-td|gheap-bu|slab-map|slab-set|slab-multimap|bucket-heap|psync|merge))re"
                          R"re(:[^\s|`']*\|[^\s|`']*\|[0-9.*r]*)re");
  size_t quoted = 0;
  for (std::sregex_iterator it(doc.begin(), doc.end(), replay), end; it != end; ++it) {
    ++quoted;
    EXPECT_TRUE(rows.count(it->str())) << "docs/findings.md quotes a replay string no test pins: " << it->str();
  }
  EXPECT_GE(quoted, pinned().size());
}

}  // namespace
