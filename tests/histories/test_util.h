// Shared by the histories tests: paths, FormatError expectations, and a
// comparison of histories that ignores where they were read from.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "histories/history.h"

namespace gpulin::test {

inline std::string examples_dir() { return std::string(GPULIN_SOURCE_DIR) + "/histories/examples"; }
inline std::string malformed_dir() { return examples_dir() + "/malformed"; }
inline std::string porcupine_dir() { return std::string(GPULIN_SHARED_DIR) + "/external/porcupine"; }

// The header of a map history whose points follow the explicit rule.
inline Header map_header() {
  Header h;
  h.model = "map";
  h.lp_rule = "explicit";
  return h;
}

// A scratch file path unique to the running test.
inline std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::temp_directory_path() / "gpulin-hist-tests";
  std::filesystem::create_directories(dir);
  return (dir / (std::string(info->test_suite_name()) + "." + info->name() + "." + name)).string();
}

// Runs f, which must throw FormatError on `line` with `fragment` in its message.
template <class F>
::testing::AssertionResult throws_format_error(F&& f, uint32_t line, const std::string& fragment) {
  try {
    f();
  } catch (const FormatError& e) {
    const std::string what = e.what();
    if (e.line() != line)
      return ::testing::AssertionFailure() << "line " << e.line() << ", expected " << line << ": " << what;
    if (what.find(fragment) == std::string::npos)
      return ::testing::AssertionFailure() << "message lacks \"" << fragment << "\": " << what;
    return ::testing::AssertionSuccess() << what;
  }
  return ::testing::AssertionFailure() << "no FormatError thrown";
}

// Equal content: header, events (t, kind, op, actor, node) and operations,
// ignoring source names and line numbers.
inline ::testing::AssertionResult same_history(const History& a, const History& b) {
  const Header &ha = a.header, &hb = b.header;
  if (ha.version != hb.version || ha.model != hb.model || ha.params != hb.params || ha.lp_rule != hb.lp_rule ||
      ha.extra != hb.extra)
    return ::testing::AssertionFailure() << "headers differ (model " << ha.model << " vs " << hb.model
                                         << ", params " << ha.params.to_json() << " vs " << hb.params.to_json() << ")";
  if (a.events.size() != b.events.size())
    return ::testing::AssertionFailure() << a.events.size() << " vs " << b.events.size() << " events";
  for (size_t i = 0; i < a.events.size(); ++i) {
    const Event &x = a.events[i], &y = b.events[i];
    if (x.t != y.t || x.kind != y.kind || x.op != y.op || x.actor != y.actor || x.node != y.node)
      return ::testing::AssertionFailure() << "event " << i << " differs (t " << x.t << " vs " << y.t << ")";
  }
  if (a.ops.size() != b.ops.size())
    return ::testing::AssertionFailure() << a.ops.size() << " vs " << b.ops.size() << " ops";
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const Operation &x = a.ops[i], &y = b.ops[i];
    if (x.id != y.id || x.actor != y.actor || x.f != y.f || x.args != y.args || x.res != y.res ||
        x.inv_t != y.inv_t || x.ret_t != y.ret_t)
      return ::testing::AssertionFailure() << "op " << i << " differs (id " << x.id << ", f " << x.f << " vs "
                                           << y.f << ", args " << x.args.to_json() << " vs " << y.args.to_json()
                                           << ")";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpulin::test
