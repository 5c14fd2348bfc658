// `gpulin check` on pq-batch histories with an lp_rule, as a user runs it: the
// lean path (tools/check_keyed.cpp: the keys-only reader and the per-key check)
// decides a pass alone; every other answer is the generic path's, in the words
// read_history_file, Model::validate_ops and check_witness give.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "histories/jsonl_reader.h"
#include "histories/jsonl_writer.h"
#include "tests/tools/run_gpulin.h"
#include "verify/model_registry.h"
#include "verify/testing/generate_pq_history.h"
#include "verify/witness_checker.h"

namespace gpulin {
namespace check_pq_cli_test {

namespace fs = std::filesystem;
using cli_test::quote;
using cli_test::run_gpulin;
using cli_test::scratch_dir;
using Result = cli_test::CliResult;

// A pq-batch root-release history, as the GPU stress records them: the lean path
// (key reader, per-key check) passes it; a failure, an op the model does not take
// and a malformed line are the generic path's (DOM reader, check_witness) to
// report, in the very words it gives for any file.
TEST(CliCheck, PqBatchRootReleasePassesLeanAndFailsInTheWitnessWords) {
  const fs::path d = scratch_dir("pq_lean");
  const History good = generate_pq_batch_history(3000, 4, 5, 8);
  auto write = [&](const std::string& name, const std::string& text) {
    const fs::path p = d / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  };
  const fs::path ok = write("ok.jsonl", history_to_jsonl(good));
  const Result pass = run_gpulin("check " + quote(ok.string()));
  EXPECT_EQ(pass.code, 0) << pass.out << pass.err;
  EXPECT_NE(pass.out.find("linearizable (witness root-release (per key), 3000 operations"), std::string::npos)
      << pass.out;

  // A delete's largest key one higher: a key nobody inserted.
  History wrong = good;
  for (Operation& op : wrong.ops)
    if (op.f == "del" && !op.res->as_array().empty()) {
      Value& last = op.res->as_array().back();
      last = Value::integer(last.as_int() + 1);
      break;
    }
  const fs::path bad = write("wrong.jsonl", history_to_jsonl(wrong));
  WitnessOptions wo;
  wo.explain = true;
  const WitnessResult w = check_witness(read_history_file(bad.string()), wo);
  ASSERT_TRUE(w.violation && w.explanation);
  const Result fail = run_gpulin("check --method witness " + quote(bad.string()));
  EXPECT_EQ(fail.code, 1) << fail.out << fail.err;
  EXPECT_NE(fail.out.find("not linearizable (witness root-release, 3000 operations"), std::string::npos) << fail.out;
  EXPECT_NE(fail.out.find("  " + w.violation->message + "\n  window search: " + w.explanation->message),
            std::string::npos)
      << fail.out;

  // A delete with an argument, which the per-key rules never read: bad input,
  // as validate_ops words it.
  History with_arg = good;
  for (Operation& op : with_arg.ops)
    if (op.f == "del") {
      op.args = Value::int_array({1});
      break;
    }
  const fs::path misfit = write("del_arg.jsonl", history_to_jsonl(with_arg));
  std::string want;
  try {
    const History h = read_history_file(misfit.string());
    model_for(h).validate_ops(h);
  } catch (const FormatError& e) {
    want = e.what();
  }
  ASSERT_NE(want, "");
  const Result m = run_gpulin("check " + quote(misfit.string()));
  EXPECT_EQ(m.code, 2) << m.out << m.err;
  EXPECT_EQ(m.err, want + "\n");

  // Line 5 cut short: the DOM reader's error, file and line.
  std::string text = history_to_jsonl(good);
  size_t at = 0;
  for (int line = 1; line < 5; ++line) at = text.find('\n', at) + 1;
  text.erase(text.find('}', at), 1);
  const fs::path cut = write("cut.jsonl", text);
  want.clear();
  try {
    read_history_file(cut.string());
  } catch (const FormatError& e) {
    want = e.what();
  }
  ASSERT_NE(want.find("cut.jsonl:5: "), std::string::npos) << want;
  const Result c = run_gpulin("check " + quote(cut.string()));
  EXPECT_EQ(c.code, 2) << c.out << c.err;
  EXPECT_EQ(c.err, want + "\n");
  fs::remove_all(d);
}

}  // namespace check_pq_cli_test
}  // namespace gpulin
