#include <fmt/format.h>

#include "render/page.h"

namespace gpulin::render {

namespace {

// [x,x,...]
template <class Range>
void append_list(std::string& j, const Range& xs) {
  j += '[';
  bool first = true;
  for (const auto& v : xs) {
    if (!first) j += ',';
    j += fmt::format("{}", v);
    first = false;
  }
  j += ']';
}

// A keyframe's words, runs of three or more equal words as -n, v (a word is never
// negative): most of a table's words are EMPTY.
void append_keyframe(std::string& j, const std::vector<uint32_t>& w) {
  j += '[';
  for (size_t i = 0; i < w.size();) {
    size_t n = 1;
    while (i + n < w.size() && w[i + n] == w[i]) ++n;
    if (i) j += ',';
    if (n >= 3) {
      j += fmt::format("-{},{}", n, w[i]);
      i += n;
    } else {
      j += fmt::format("{}", w[i]);
      ++i;
    }
  }
  j += ']';
}

template <class Range>
void numbers(std::string& j, const char* name, const Range& xs) {
  j += fmt::format(",\"{}\":", name);
  append_list(j, xs);
}

}  // namespace

std::string stepper_json(const Stepper& s) {
  const PointStates& st = s.states;
  std::string j;
  j.reserve(64 + st.size() * 16 + st.changes.size() * 6 + st.keyframes.size() * st.region_words.size() * 8);
  j += "{\"draw\":";
  append_json_string(j, s.draw_js);
  j += ",\"layout\":";
  j += s.layout_json.empty() ? "{}" : s.layout_json;
  j += ",\"outcome\":";
  append_json_string(j, st.outcome);
  j += fmt::format(",\"every\":{}", st.keyframe_every);
  numbers(j, "regions", st.region_words);
  j += ",\"keys\":[";
  for (size_t k = 0; k < st.keyframes.size(); ++k) {
    if (k) j += ',';
    append_keyframe(j, st.keyframes[k]);
  }
  j += ']';
  std::vector<uint32_t> counts;
  counts.reserve(st.size());
  for (size_t p = 1; p < st.change_end.size(); ++p) counts.push_back(st.change_end[p] - st.change_end[p - 1]);
  numbers(j, "nchg", counts);
  numbers(j, "chg", st.changes);
  numbers(j, "actor", st.actor);
  std::vector<uint64_t> ev_steps;
  ev_steps.reserve(st.size());
  for (size_t p = 0; p < st.events.size(); ++p) ev_steps.push_back(st.events[p] - (p ? st.events[p - 1] : 0));
  numbers(j, "ev", ev_steps);
  j += '}';
  return j;
}

}  // namespace gpulin::render
