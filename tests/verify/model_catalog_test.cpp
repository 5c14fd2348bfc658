// The models a history may name are one list (histories/model_catalog.h): the
// reader accepts exactly those, the checkers build each of them, and a model a
// program registers (verify/model_registry.h) reads and checks like a built-in one.
#include <gtest/gtest.h>

#include "histories/history.h"
#include "histories/jsonl_reader.h"
#include "histories/model_catalog.h"
#include "histories/rules.h"
#include "verify/model_registry.h"
#include "verify/models/counters.h"
#include "verify/search_checker.h"

namespace gpulin {
namespace {

// A header for `info` with every required parameter set to 2.
Header header_for(const ModelInfo& info) {
  Header h;
  h.model = info.name;
  std::string params = "{";
  for (const std::string& p : info.positive_params) params += (params.size() > 1 ? ", \"" : "\"") + p + "\": 2";
  h.params = read_history_text("{\"history\": 1, \"model\": \"" + info.name + "\", \"params\": " + params + "}}\n",
                               "<params>")
                 .header.params;
  return h;
}

TEST(ModelCatalog, EveryCatalogModelHasAFactoryAndBuilds) {
  for (const ModelInfo& m : model_catalog()) {
    EXPECT_TRUE(has_model_factory(m.name)) << m.name;
    EXPECT_NO_THROW(model_for(header_for(m))) << m.name;
  }
}

TEST(ModelCatalog, TheReaderKnowsTheTemplatesModel) {
  // The template structure's histories (model counters) read and check: the
  // reader's list and the checkers' factories are one list.
  const History h = read_history_text(
      "{\"history\": 1, \"model\": \"counters\"}\n"
      "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"add\", \"args\": [0, 2]}\n"
      "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": null}\n"
      "{\"t\": 3, \"e\": \"inv\", \"op\": 1, \"actor\": 1, \"f\": \"get\", \"args\": [0]}\n"
      "{\"t\": 4, \"e\": \"ret\", \"op\": 1, \"actor\": 1, \"res\": [2]}\n",
      "<counters>");
  EXPECT_EQ(check_search(h).verdict, Verdict::Linearizable);
}

TEST(ModelCatalog, ARegisteredModelReadsAndChecks) {
  const std::string text =
      "{\"history\": 1, \"model\": \"tallies\", \"params\": {\"width\": 3}}\n"
      "{\"t\": 1, \"e\": \"inv\", \"op\": 0, \"actor\": 0, \"f\": \"add\", \"args\": [1, 4]}\n"
      "{\"t\": 2, \"e\": \"ret\", \"op\": 0, \"actor\": 0, \"res\": null}\n"
      "{\"t\": 3, \"e\": \"inv\", \"op\": 1, \"actor\": 1, \"f\": \"get\", \"args\": [1]}\n"
      "{\"t\": 4, \"e\": \"ret\", \"op\": 1, \"actor\": 1, \"res\": [5]}\n";
  EXPECT_THROW(read_history_text(text, "<before>"), FormatError);  // not a model yet
  register_model({"tallies", {"width"}, "counters under another name"},
                 [](const Header&) { return make_counters_model(); });
  const History h = read_history_text(text, "<tallies>");
  EXPECT_EQ(check_search(h).verdict, Verdict::NotLinearizable);  // 4 added, 5 read
  // Its required parameter is enforced like a built-in model's.
  EXPECT_THROW(read_history_text("{\"history\": 1, \"model\": \"tallies\"}\n", "<no width>"), FormatError);
  EXPECT_THROW(register_model({"tallies", {}, ""}, [](const Header&) { return make_counters_model(); }),
               std::invalid_argument);
}

}  // namespace
}  // namespace gpulin
