#include "tools/explore/report_json.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <map>

#include "histories/value.h"

namespace gpulin::explore {

const std::vector<std::pair<Failure, std::string>>& failure_count_fields() {
  static const std::vector<std::pair<Failure, std::string>> fields = {
      {Failure::Violation, "violations"},   {Failure::Invariant, "invariant_failures"},
      {Failure::Deadlock, "deadlocks"},     {Failure::Livelock, "livelocks"},
      {Failure::Fault, "faults"},           {Failure::Race, "races"},
      {Failure::WitnessOnly, "proof_point_failures"},
      {Failure::Undecided, "undecided"}};
  return fields;
}

namespace {

std::string json_quoted(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

uint64_t count_of(const ExploreSummary& s, Failure f) {
  const auto it = s.counts.find(f);
  return it == s.counts.end() ? 0 : it->second;
}

// Reading: every field checked, every error naming the report and the field.
class Reader {
 public:
  explicit Reader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const std::string& what) const { throw ReportError(source_ + ": " + what); }

  simdjson::dom::element field(simdjson::dom::object obj, std::string_view name, const std::string& where) const {
    simdjson::dom::element e;
    if (obj[name].get(e)) fail(fmt::format("missing field '{}{}'", where, name));
    return e;
  }
  uint64_t number(simdjson::dom::object obj, std::string_view name, const std::string& where = "") const {
    uint64_t v = 0;
    if (field(obj, name, where).get_uint64().get(v))
      fail(fmt::format("field '{}{}' must be an unsigned integer", where, name));
    return v;
  }
  double real(simdjson::dom::object obj, std::string_view name) const {
    double v = 0;
    if (field(obj, name, "").get_double().get(v)) fail(fmt::format("field '{}' must be a number", name));
    return v;
  }
  bool boolean(simdjson::dom::object obj, std::string_view name) const {
    bool v = false;
    if (field(obj, name, "").get_bool().get(v)) fail(fmt::format("field '{}' must be true or false", name));
    return v;
  }
  std::string text(simdjson::dom::object obj, std::string_view name, const std::string& where = "") const {
    std::string_view v;
    if (field(obj, name, where).get_string().get(v)) fail(fmt::format("field '{}{}' must be a string", where, name));
    return std::string(v);
  }
  simdjson::dom::array array(simdjson::dom::object obj, std::string_view name) const {
    simdjson::dom::array a;
    if (field(obj, name, "").get_array().get(a)) fail(fmt::format("field '{}' must be an array", name));
    return a;
  }

 private:
  const std::string& source_;
};

Failure failure_named(const Reader& in, const std::string& name, const std::string& where) {
  for (Failure f : {Failure::Violation, Failure::WitnessOnly, Failure::Invariant, Failure::Deadlock, Failure::Livelock,
                    Failure::Fault, Failure::Race, Failure::Undecided})
    if (name == to_string(f)) return f;
  in.fail(fmt::format("field '{}kind': unknown failure kind '{}'", where, name));
}

// ["00000000000000ff",...]: fingerprints as 16 hexadecimal digits each.
std::string hex_list(const std::vector<uint64_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += fmt::format("{}\"{:016x}\"", i ? "," : "", v[i]);
  return out + "]";
}

std::vector<uint64_t> read_hex_list(const Reader& in, simdjson::dom::object obj, std::string_view name) {
  std::vector<uint64_t> out;
  size_t i = 0;
  for (simdjson::dom::element e : in.array(obj, name)) {
    std::string_view hex;
    uint64_t v = 0;
    const auto bad = [&] { in.fail(fmt::format("field '{}[{}]' must be 16 hexadecimal digits", name, i)); };
    if (e.get_string().get(hex) || hex.size() != 16) bad();
    for (char c : hex) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) bad();
      v = v << 4 | uint64_t(d);
    }
    out.push_back(v);
    ++i;
  }
  return out;
}

// Is a failure found at (unit, found_at) earlier in the run than one at the other?
bool earlier(const FailureReport& a, const FailureReport& b) {
  return std::tie(a.unit, a.found_at) < std::tie(b.unit, b.found_at);
}

}  // namespace

std::string report_json(const ExploreReport& r) {
  const ExploreSummary& s = r.summary;
  std::string out = "{\"report\":\"gpulin explore\",\"run\":{";
  for (size_t i = 0; i < r.run.size(); ++i)
    out += fmt::format("{}{}:{}", i ? "," : "", json_quoted(r.run[i].first), r.run[i].second);
  out += fmt::format("}},\"split\":{},\"units\":{},\"outputs_are_histories\":{},\"schedules\":{},\"histories\":{},"
                     "\"searched\":{},\"points\":{},\"stale_reads\":{},\"outside_writes\":{},\"sim_seconds\":{:.6f},"
                     "\"total_seconds\":{:.6f},\"exhaustive\":{},\"timed_out\":{}",
                     json_quoted(r.split), s.units, r.histories, s.schedules, s.distinct_histories, s.searched, s.points,
                     s.stale_reads, s.outside_writes, s.sim_seconds, s.total_seconds, s.exhaustive, s.timed_out);
  for (const auto& [kind, name] : failure_count_fields()) out += fmt::format(",\"{}\":{}", name, count_of(s, kind));
  out += ",\"first_failures\":[";
  bool first = true;
  for (const auto& [kind, f] : s.first) {
    out += fmt::format("{}{{\"kind\":{},\"unit\":{},\"schedule\":{},\"ops\":{},\"message\":{},\"replay\":{},"
                       "\"history\":{}}}",
                       first ? "" : ",", json_quoted(to_string(kind)), f.unit, f.found_at, f.ops, json_quoted(f.message),
                       json_quoted(f.schedule), json_quoted(f.history_path));
    first = false;
  }
  out += "],\"fingerprints\":" + hex_list(s.fingerprints);
  const TraceCoverage& c = s.coverage;
  out += fmt::format(",\"traces\":{},\"traces_once\":{},\"recent_schedules\":{},\"recent_new_traces\":{},"
                     "\"trace_fingerprints\":{}",
                     c.traces.size(), c.seen_once, c.recent, c.recent_new, hex_list(c.traces));
  if (!s.dpor) return out + ",\"dpor\":null}";
  const DporSummary& d = *s.dpor;
  const sim::DporStrategy::Stats& n = d.counts;
  return out + fmt::format(",\"dpor\":{{\"complete\":{},\"redundant\":{},\"races\":{},\"reversals\":{},"
                           "\"pruned\":{},\"symmetric\":{},\"value_choices\":{},\"orbits\":{},\"actors\":{}}}}}",
                           d.complete, n.redundant, n.races, n.reversals, n.pruned, n.symmetric, n.value_choices,
                           d.orbits, d.actors);
}

ExploreReport parse_report_json(const std::string& text, const std::string& source) {
  const Reader in(source);
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(text).get(root)) in.fail(fmt::format("not valid JSON: {}", simdjson::error_message(err)));
  simdjson::dom::object obj;
  if (root.get_object().get(obj)) in.fail("not a JSON object (want the report of gpulin explore --json)");
  if (in.text(obj, "report") != "gpulin explore") in.fail("field 'report' is not \"gpulin explore\"");
  ExploreReport r;
  simdjson::dom::object run;
  if (in.field(obj, "run", "").get_object().get(run)) in.fail("field 'run' must be an object");
  for (auto [key, value] : run) r.run.emplace_back(std::string(key), simdjson::minify(value));
  r.split = in.text(obj, "split");
  r.histories = in.boolean(obj, "outputs_are_histories");
  ExploreSummary& s = r.summary;
  s.units = in.number(obj, "units");
  s.schedules = in.number(obj, "schedules");
  s.distinct_histories = in.number(obj, "histories");
  s.searched = in.number(obj, "searched");
  s.points = in.number(obj, "points");
  s.stale_reads = in.number(obj, "stale_reads");
  s.outside_writes = in.number(obj, "outside_writes");
  s.sim_seconds = in.real(obj, "sim_seconds");
  s.total_seconds = in.real(obj, "total_seconds");
  s.exhaustive = in.boolean(obj, "exhaustive");
  s.timed_out = in.boolean(obj, "timed_out");
  for (const auto& [kind, name] : failure_count_fields())
    if (const uint64_t n = in.number(obj, name)) s.counts[kind] = n;
  size_t i = 0;
  for (simdjson::dom::element e : in.array(obj, "first_failures")) {
    const std::string where = fmt::format("first_failures[{}].", i++);
    simdjson::dom::object f;
    if (e.get_object().get(f)) in.fail(fmt::format("field '{}' must be an object", where));
    FailureReport fr;
    fr.kind = failure_named(in, in.text(f, "kind", where), where);
    fr.unit = in.number(f, "unit", where);
    fr.found_at = in.number(f, "schedule", where);
    fr.ops = in.number(f, "ops", where);
    fr.message = in.text(f, "message", where);
    fr.schedule = in.text(f, "replay", where);
    fr.history_path = in.text(f, "history", where);
    if (s.first.count(fr.kind)) in.fail(fmt::format("field '{}kind': a second first {}", where, to_string(fr.kind)));
    if (!s.counts.count(fr.kind)) in.fail(fmt::format("field '{}kind': a first {} but none counted", where, to_string(fr.kind)));
    s.first[fr.kind] = std::move(fr);
  }
  s.fingerprints = read_hex_list(in, obj, "fingerprints");
  if (s.fingerprints.size() != s.distinct_histories)
    in.fail(fmt::format("field 'fingerprints' holds {} but 'histories' says {}", s.fingerprints.size(),
                        s.distinct_histories));
  TraceCoverage& c = s.coverage;
  c.traces = read_hex_list(in, obj, "trace_fingerprints");
  if (c.traces.size() != in.number(obj, "traces"))
    in.fail(fmt::format("field 'trace_fingerprints' holds {} but 'traces' says {}", c.traces.size(),
                        in.number(obj, "traces")));
  c.seen_once = in.number(obj, "traces_once");
  c.recent = in.number(obj, "recent_schedules");
  c.recent_new = in.number(obj, "recent_new_traces");
  simdjson::dom::element dpor = in.field(obj, "dpor", "");
  if (!dpor.is_null()) {
    simdjson::dom::object d;
    if (dpor.get_object().get(d)) in.fail("field 'dpor' must be an object or null");
    DporSummary& ds = s.dpor.emplace();
    ds.complete = in.boolean(d, "complete");
    ds.counts.redundant = in.number(d, "redundant", "dpor.");
    ds.counts.races = in.number(d, "races", "dpor.");
    ds.counts.reversals = in.number(d, "reversals", "dpor.");
    ds.counts.pruned = in.number(d, "pruned", "dpor.");
    ds.counts.symmetric = in.number(d, "symmetric", "dpor.");
    ds.counts.value_choices = in.number(d, "value_choices", "dpor.");
    ds.orbits = static_cast<uint32_t>(in.number(d, "orbits", "dpor."));
    ds.actors = static_cast<uint32_t>(in.number(d, "actors", "dpor."));
  }
  return r;
}

ExploreReport merge_reports(const std::vector<ExploreReport>& reports, const std::vector<std::string>& sources) {
  if (reports.empty()) throw ReportError("no reports to merge");
  ExploreReport m;
  m.run = reports[0].run;
  m.histories = reports[0].histories;
  ExploreSummary& s = m.summary;
  s.exhaustive = true;
  s.units = 0;
  std::map<std::string, std::string> shard_source;  // a shard's split -> the report that holds it
  std::vector<uint64_t> fingerprints, traces;
  for (size_t i = 0; i < reports.size(); ++i) {
    const ExploreReport& r = reports[i];
    if (r.run != m.run) {
      for (size_t f = 0; f < std::max(r.run.size(), m.run.size()); ++f)
        if (f >= r.run.size() || f >= m.run.size() || r.run[f] != m.run[f])
          throw ReportError(fmt::format("{}: field 'run.{}' differs from {}: the reports are of different runs",
                                        sources[i], f < r.run.size() ? r.run[f].first : m.run[f].first, sources[0]));
    }
    if (r.split.rfind("shard ", 0) == 0) {
      const auto [at, fresh] = shard_source.emplace(r.split, sources[i]);
      if (!fresh) throw ReportError(fmt::format("{}: {} is also in {}", sources[i], r.split, at->second));
    }
    const ExploreSummary& p = r.summary;
    s.units = std::max(s.units, p.units);
    s.schedules += p.schedules;
    s.searched += p.searched;
    s.points += p.points;
    s.stale_reads += p.stale_reads;
    s.outside_writes += p.outside_writes;
    s.sim_seconds += p.sim_seconds;
    s.total_seconds = std::max(s.total_seconds, p.total_seconds);
    s.exhaustive = s.exhaustive && p.exhaustive;
    s.timed_out = s.timed_out || p.timed_out;
    for (const auto& [kind, n] : p.counts) s.counts[kind] += n;
    for (const auto& [kind, f] : p.first)
      if (!s.first.count(kind) || earlier(f, s.first[kind])) s.first[kind] = f;
    fingerprints.insert(fingerprints.end(), p.fingerprints.begin(), p.fingerprints.end());
    traces.insert(traces.end(), p.coverage.traces.begin(), p.coverage.traces.end());
    // Coverage's rates are each part's: summed, they bound the union's (a trace met
    // once in each of two parts was met twice).
    s.coverage.seen_once += p.coverage.seen_once;
    s.coverage.recent += p.coverage.recent;
    s.coverage.recent_new += p.coverage.recent_new;
    if (p.dpor && !s.dpor) {
      s.dpor = p.dpor;
    } else if (p.dpor) {
      s.dpor->complete = s.dpor->complete && p.dpor->complete;
      s.dpor->counts += p.dpor->counts;
    }
  }
  std::sort(fingerprints.begin(), fingerprints.end());
  fingerprints.erase(std::unique(fingerprints.begin(), fingerprints.end()), fingerprints.end());
  s.fingerprints = std::move(fingerprints);
  s.distinct_histories = s.fingerprints.size();
  std::sort(traces.begin(), traces.end());
  traces.erase(std::unique(traces.begin(), traces.end()), traces.end());
  s.coverage.traces = std::move(traces);
  std::string shards;
  for (const auto& [split, source] : shard_source) {
    if (!shards.empty()) shards += ',';
    shards.append(split, 6);
  }
  m.split = shards.empty() ? fmt::format("merged {} reports", reports.size()) : "shards " + shards;
  return m;
}

}  // namespace gpulin::explore
