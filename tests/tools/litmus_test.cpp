// gpulin litmus: the ptx memory model (sim/memory/ptx_memory.h) on litmus tests
// written here (tests/litmus/ptx/, each test's verdict under the PTX model in
// expected.csv), the herd format's parser on malformed and unmodeled input, and
// the command's output, JSON and exit codes.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "histories/history.h"
#include "sim/schedule_string.h"
#include "tests/tools/run_gpulin.h"
#include "tools/litmus/litmus_parse.h"
#include "tools/litmus/litmus_run.h"

namespace gpulin::litmus {
namespace {

namespace fs = std::filesystem;
using cli_test::gpulin;
using cli_test::kSource;

const fs::path kSuite = kSource / "tests/litmus/ptx";

std::map<std::string, bool> expected_verdicts() {
  std::map<std::string, bool> out;
  std::ifstream in(kSuite / "expected.csv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t comma = line.find(',');
    out[line.substr(0, comma)] = line.substr(comma + 1) == "true";
  }
  return out;
}

TEST(LitmusSuite, EveryTestGetsThePtxModelsVerdict) {
  const auto expected = expected_verdicts();
  ASSERT_GE(expected.size(), 22u);
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(kSuite))
    if (e.path().extension() == ".litmus") {
      ++files;
      EXPECT_TRUE(expected.count(e.path().filename().string())) << e.path() << " has no line in expected.csv";
    }
  EXPECT_EQ(files, expected.size());
  for (const auto& [file, holds] : expected) {
    const LitmusTest t = read_litmus_file((kSuite / file).string());
    ASSERT_TRUE(t.refused.empty()) << t.refused;
    const LitmusResult r = run_litmus(t, 1'000'000);
    EXPECT_TRUE(r.complete) << file;
    EXPECT_EQ(r.holds, holds) << file << ": " << r.executions << " executions";
    EXPECT_EQ(r.hung, 0u) << file;
    // The deciding execution replays to the state that decided.
    if (r.has_witness) {
      const std::string told = describe_execution(t, r.witness);
      const bool reaches = t.condition.quantifier != Condition::Quantifier::Forall;
      EXPECT_NE(told.find(reaches ? "proposition holds" : "proposition does not hold"), std::string::npos)
          << file << "\n" << told;
    }
  }
}

// Weak behaviour needs stale reads: with every load reading the newest store (the
// sequentially consistent choice, the strategies' default), message passing works.
TEST(LitmusSuite, TheStaleReadIsWhatTheWitnessChooses) {
  const LitmusTest t = read_litmus_file((kSuite / "MP-weak-relaxed.litmus").string());
  const LitmusResult r = run_litmus(t, 1'000'000);
  ASSERT_TRUE(r.has_witness);
  const std::string told = describe_execution(t, r.witness);
  EXPECT_NE(told.find("ld.weak r1, x   -> 0 (the initial value of x)"), std::string::npos) << told;
  EXPECT_NE(told.find("ld.relaxed.gpu r0, y   -> 1 (P0's store"), std::string::npos) << told;
}

LitmusTest parse(const std::string& text) { return parse_litmus(text, "t.litmus"); }

TEST(LitmusParse, PlacesScopesAndDefaults) {
  const LitmusTest t = parse(
      "PTX T\n{ x=3; P1:r0=7; }\n P0@cta 2,gpu 1 | P1@cta 0,gpu 1 ;\n st.release.cta x, 1 | ld r0, x ;\n"
      " fence.sc.sys | atom.add r1, x, 2 ;\nexists (P1:r0 = 1 \\/ ~(x = 3))\n");
  ASSERT_TRUE(t.refused.empty()) << t.refused;
  ASSERT_EQ(t.threads.size(), 2u);
  EXPECT_EQ(t.threads[0].place.cta, 2u);
  EXPECT_EQ(t.threads[0].place.gpu, 1u);
  EXPECT_EQ(t.threads[1].registers.at("r0"), 7);
  EXPECT_EQ(t.locations.at("x"), 3);
  const Instruction& st = t.threads[0].code[0];
  EXPECT_EQ(st.order, Order::Release);
  EXPECT_EQ(st.scope, Scope::Cta);
  EXPECT_EQ(t.threads[1].code[0].order, Order::Weak);        // ld without .sem
  EXPECT_EQ(t.threads[1].code[1].order, Order::Relaxed);     // atom without .sem
  EXPECT_EQ(t.threads[1].code[1].scope, Scope::Gpu);         // atom without a scope
  EXPECT_EQ(t.threads[0].code[1].order, Order::Sc);
  EXPECT_EQ(t.condition.expr->kind, Expr::Kind::Or);
}

TEST(LitmusParse, MalformedInputNamesFileAndLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"X86 T\n{}\nP0;\nexists (x=1)\n", "t.litmus:1: not a PTX litmus test"},
      {"PTX T\n{ x=0;\n", "t.litmus:2: the initial state `{` is never closed"},
      {"PTX T\n{ x=0; }\n P0 ;\n st.weak x, 1 ;\n", "t.litmus:4: no final condition"},
      {"PTX T\n{ x=0; }\n P0 ;\n st.weak x ;\nexists (x=1)\n", "t.litmus:4: `st.weak x`: st takes 2 operands"},
      {"PTX T\n{ x=0; }\n P0 ;\n st.weak x, 1 | ld r0, x ;\nexists (x=1)\n", "t.litmus:4: a row of 2 columns"},
      {"PTX T\n{ x=0; }\n P0 ;\n ld.release r0, x ;\nexists (x=1)\n", "a load cannot be .release"},
      {"PTX T\n{ x=0; }\n P0 ;\n st.weak x, 1 ;\nexists (P3:r0=1)\n", "t.litmus:5: condition: no thread P3"},
      {"PTX T\n{ x=0; }\n P0 ;\n st.weak x, 1 ;\nexists (y=1)\n", "condition: no location y"},
      {"PTX T\n{ x=0; }\n P0 ;\n st.weak x, 1 ;\nexists (x=1\n", "a `(` is never closed"},
      {"PTX T\n{ x=0; }\n P0 ;\n fence.sc ;\nexists (x=1)\n", "a fence needs a scope"},
  };
  for (const auto& [text, want] : bad) {
    try {
      parse(text);
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what() << "\nwanted: " << want;
    }
  }
}

TEST(LitmusParse, WhatIsNotModeledIsRefusedWithItsLine) {
  const std::pair<const char*, const char*> refused[] = {
      {"PTX T\n{ x=0; }\n P0 ;\n fence.proxy.alias ;\nexists (x=1)\n", "t.litmus:4: P0: `fence.proxy.alias`: .proxy"},
      {"PTX T\n{ x=0; }\n P0 ;\n LC00: ;\nexists (x=1)\n", "labels and branches"},
      {"PTX T\n{ x=0; }\n P0 ;\n bar.sync 0, r1 ;\nexists (x=1)\n", "thread count held in a register"},
      {"PTX T\n{ x=0; P0:r1=x; }\n P0 ;\n ld r0, x ;\nexists (x=1)\n", "holding an address"},
      {"PTX T\n{ x=0; }\n P0 ;\n suld.b.1d r0, x ;\nexists (x=1)\n", "`suld` is not modeled"},
  };
  for (const auto& [text, want] : refused) {
    const LitmusTest t = parse(text);
    EXPECT_NE(t.refused.find(want), std::string::npos) << t.refused << "\nwanted: " << want;
  }
}

// A barrier some thread of the CTA never reaches hangs: such executions are counted
// and not judged.
TEST(LitmusRun, ABarrierMissingAThreadHangs) {
  const LitmusTest t = parse("PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.sync 0 | st.weak x, 1 ;\n"
                             "exists (x=1)\n");
  const LitmusResult r = run_litmus(t, 1000);
  EXPECT_TRUE(r.complete);
  EXPECT_GT(r.hung, 0u);
  EXPECT_EQ(r.hung, r.executions);
  EXPECT_FALSE(r.holds);
}

// `bar.sync ID, COUNT` releases once COUNT threads arrived: with a count of one, a
// thread passes alone (no hang), and orders nothing for the other.
TEST(LitmusRun, ABarrierCountAndHerdsSpellings) {
  const LitmusTest t = parse(
      "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld r9, 3 | bar.sync 0, 1 ;\n"
      " atom.sub r1, x, 1 | ld.weak r0, x ;\n bar.sync 0, 1 | ;\nexists (1:r0 = 0 /\\ P0:r9 = 3 /\\ x = -1 /\\ P0:r1 = P1:r0)\n");
  ASSERT_TRUE(t.refused.empty()) << t.refused;
  EXPECT_EQ(t.threads[0].code[0].op, Op::Move);
  const LitmusResult r = run_litmus(t, 10'000);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.hung, 0u);
  EXPECT_TRUE(r.holds);
}

// Under sc every load reads the newest store: the weak outcomes of the suite are
// gone, and what ptx forbids stays forbidden.
TEST(LitmusRun, UnderScOnlyInterleavingsAreReached) {
  for (const char* file : {"MP-weak-relaxed.litmus", "SB-relaxed.litmus", "IRIW-acquire.litmus", "CoRR-weak.litmus",
                           "MP-rel-acq-cta-two-ctas.litmus"}) {
    const LitmusTest t = read_litmus_file((kSuite / file).string());
    EXPECT_TRUE(run_litmus(t, 1'000'000, MemoryMode::Ptx).holds) << file;
    const LitmusResult sc = run_litmus(t, 1'000'000, MemoryMode::Sc);
    EXPECT_TRUE(sc.complete) << file;
    EXPECT_FALSE(sc.holds) << file << ": reached under sc";
  }
  for (const auto& [file, holds] : expected_verdicts()) {
    if (!holds) {
      EXPECT_FALSE(run_litmus(read_litmus_file((kSuite / file).string()), 1'000'000, MemoryMode::Sc).holds) << file;
    }
  }
}

TEST(LitmusRun, ABudgetTooSmallSaysSo) {
  const LitmusTest t = read_litmus_file((kSuite / "IRIW-acquire.litmus").string());
  const LitmusResult r = run_litmus(t, 5);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.executions, 5u);
}

TEST(LitmusCli, ALinePerTestJsonAndExitCodes) {
  const std::string mp = (kSuite / "MP-weak-relaxed.litmus").string(), gpu = (kSuite / "MP-rel-acq-gpu.litmus").string();
  const auto r = gpulin("litmus " + cli_test::quote(mp) + " " + cli_test::quote(gpu));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("MP-weak-relaxed: holds"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MP-rel-acq-gpu: does not hold"), std::string::npos) << r.out;
  const size_t at = r.out.find("--schedule '");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string picks = r.out.substr(at + 12, r.out.find('\'', at + 12) - at - 12);
  const auto again = gpulin("litmus " + cli_test::quote(mp) + " --schedule '" + picks + "'");
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("proposition holds"), std::string::npos) << again.out;

  const auto json = gpulin("litmus --json " + cli_test::quote(mp) + " " + cli_test::quote(gpu));
  EXPECT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("{\"name\":\"MP-weak-relaxed\",\"file\":"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"holds\":true"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"holds\":false"), std::string::npos) << json.out;

  const fs::path dir = cli_test::scratch_dir("litmus");
  std::ofstream(dir / "proxy.litmus") << "PTX P\n{ x=0; }\n P0 ;\n fence.proxy.alias ;\nexists (x=1)\n";
  std::ofstream(dir / "bad.litmus") << "PTX B\n{ x=0; }\n P0 ;\n st.weak x ;\nexists (x=1)\n";
  const auto refused = gpulin("litmus --json " + cli_test::quote((dir / "proxy.litmus").string()));
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.out.find("\"refused\":"), std::string::npos) << refused.out;
  const auto refused_text = gpulin("litmus " + cli_test::quote((dir / "proxy.litmus").string()));
  EXPECT_EQ(refused_text.code, 2);
  EXPECT_NE(refused_text.err.find("proxy.litmus:4: P0: `fence.proxy.alias`"), std::string::npos) << refused_text.err;
  const auto bad = gpulin("litmus " + cli_test::quote((dir / "bad.litmus").string()));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("bad.litmus:4:"), std::string::npos) << bad.err;
  const auto sc = gpulin("litmus --memory sc --json " + cli_test::quote(mp));
  EXPECT_EQ(sc.code, 0) << sc.err;
  EXPECT_NE(sc.out.find("\"memory\":\"sc\",\"holds\":false"), std::string::npos) << sc.out;
  EXPECT_EQ(gpulin("litmus --memory tso " + cli_test::quote(mp)).code, 2);
  const auto budget = gpulin("litmus --max-executions 3 " + cli_test::quote(mp));
  EXPECT_EQ(budget.code, 3) << budget.out;
  EXPECT_NE(budget.out.find("NOT all: budget spent"), std::string::npos) << budget.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpulin::litmus
