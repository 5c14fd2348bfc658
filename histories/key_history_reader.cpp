#include "histories/key_history_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "histories/assemble.h"
#include "histories/binary_format.h"
#include "histories/binary_layout.h"
#include "histories/compact_event_line.h"
#include "histories/event_fields.h"
#include "histories/huge_pages.h"
#include "histories/on_threads.h"
#include "histories/json_dom.h"
#include "histories/jsonl_reader.h"
#include "histories/rules.h"

namespace gpulin {

namespace {

namespace od = simdjson::ondemand;

// ---- memory and threads -------------------------------------------------------------

unsigned default_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// ---- what parsing produces, before the structural rules ---------------------------

// An inv's f and args, or a ret's res: a span of its part's key pool. `part`
// is filled in when the parts are joined.
struct Payload {
  uint64_t off = 0;
  uint32_t len = 0;
  uint16_t fn = 0;  // inv: index into Part::fns
  uint8_t kind = KeyOp::kNullResult;  // ret: a KeyOp::Result (the last three have a pool payload)
  uint8_t part = 0;
};

// One block of lines (or a run of the binary form's records), parsed. Part 0's
// vectors become the history's, the other parts' appended to them (join,
// build_ops); JSON Lines are parsed block by block into one part (parse_blocks).
struct Part {
  std::vector<Event> events;   // Event::line: line_base + the line's number in the part (1-based)
  std::vector<uint32_t> slot;  // per event: inv -> index into calls, ret -> into results
  std::vector<Payload> calls;
  std::vector<Payload> results;
  std::vector<int64_t> keys;
  std::vector<std::string> fns;
  uint64_t lines = 0;
  uint64_t line_base = 0;  // lines before the part that its events' lines already count

  // A guess from the input size that saves regrowing, not a limit. Reserved but
  // untouched memory is not resident, so erring high costs little.
  // `keep_bytes`: the input whose events and keys this part's vectors may end up
  // holding (part 0's: the whole input's; the others': their own).
  void reserve_for(size_t keep_bytes) {
    reserve_huge(events, keep_bytes / 48 + 16);
    reserve_huge(slot, keep_bytes / 48 + 16);
    reserve_huge(calls, keep_bytes / 192 + 16);
    reserve_huge(results, keep_bytes / 192 + 16);
    reserve_huge(keys, keep_bytes / 6 + 16);
  }
  // Room for the keys of the next line, grown by hand (not by push_back) so that
  // the new buffer gets huge pages too. Lines of more keys than the slack still
  // work, through push_back.
  void make_room() {
    constexpr size_t kSlack = size_t{1} << 16;
    if (keys.capacity() - keys.size() >= kSlack) return;
    std::vector<int64_t> grown;
    reserve_huge(grown, std::max(2 * keys.capacity(), keys.size() + kSlack));
    grown.insert(grown.end(), keys.begin(), keys.end());
    keys = std::move(grown);
  }
  uint16_t fn_of(std::string_view f) {
    // Histories use two or three names; a scan beats hashing.
    for (size_t i = 0; i < fns.size(); ++i)
      if (fns[i] == f) return static_cast<uint16_t>(i);
    if (fns.size() >= UINT16_MAX) return UINT16_MAX;  // too many names: the caller gives up
    fns.emplace_back(f);
    return static_cast<uint16_t>(fns.size() - 1);
  }
  void add(const Event& e, uint32_t s) {
    events.push_back(e);
    slot.push_back(s);
  }
  // Empty, keeping the memory for the next block.
  void clear() {
    events.clear(), slot.clear(), calls.clear(), results.clear(), keys.clear(), fns.clear();
    lines = 0;
  }
};

template <class T>
void release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// ---- one JSONL event line, on-demand ------------------------------------------------

using namespace event_fields;

// The field a key names, or -1. Compares the raw key first (no copy); a key
// written with escapes ("\u0074") is unescaped and compared again, since the DOM
// reader accepts it.
int field_of(od::field& fld) {
  const od::raw_json_string raw = fld.key();
  for (int i = 0; i < kFieldCount; ++i)
    if (raw.unsafe_is_equal(kFieldName[i])) return i;
  if (!std::memchr(raw.raw(), '\\', std::strcspn(raw.raw(), "\""))) return -1;
  std::string_view key;
  if (fld.unescaped_key().get(key)) return -1;
  for (int i = 0; i < kFieldCount; ++i)
    if (key == kFieldName[i]) return i;
  return -1;
}

// Parses event lines into a Part: the compact form by hand (compact_event_line.h),
// any other line by simdjson on-demand. Every check answers only "fine" or "not
// taken": a line not taken goes to the DOM reader, which names the problem.
class LineParser {
 public:
  // `scalars`: a ret's res may also be one integer or true/false (keyed models).
  LineParser(Part& part, bool scalars) : part_(part), scalars_(scalars) {}

  // The compact form at p (`end`: the input's end, padding after it): the
  // line's end ('\n' or `end`) when taken, else nullptr (then event() decides).
  const char* compact(const char* p, const char* end, uint32_t line) {
    Scanned s;
    const char* le = compact_event_line::scan(p, end, scalars_, part_.keys, s);
    if (!le) return nullptr;
    s.ev.line = line;
    return file(s) ? le : nullptr;
  }

  // Any line, by simdjson. `cap`: bytes readable from p on (the rest of the padded buffer).
  bool event(const char* p, size_t len, size_t cap, uint32_t line) {
    od::document doc;
    if (parser_.iterate(p, len, cap).get(doc)) return false;
    od::object obj;
    if (doc.get_object().get(obj)) return false;
    Scanned s;
    Event& ev = s.ev;
    ev.line = line;
    std::string_view e;
    unsigned seen = 0;
    for (auto field_result : obj) {
      if (field_result.error()) return false;
      od::field& fld = field_result.value_unsafe();
      const int k = field_of(fld);
      if (k < 0 || (seen & (1u << k))) return false;
      seen |= 1u << k;
      od::value v = fld.value();
      bool ok = true;
      switch (k) {
        case kT: ok = !v.get_uint64().get(ev.t); break;
        case kE: ok = !v.get_string().get(e); break;
        case kOp: ok = !v.get_int64().get(ev.op); break;
        case kActor: ok = !v.get_int64().get(ev.actor); break;
        case kNode: ok = !v.get_int64().get(ev.node); break;
        case kF: ok = !v.get_string().get(s.f); break;
        case kArgs: ok = key_array(v, s.args_off, s.args_len); break;
        case kRes: ok = result(v, s); break;
      }
      if (!ok) return false;
    }
    // Anything after the object (a second value, a stray bracket) makes the line
    // invalid JSON for the DOM reader.
    if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS) return false;
    if (!kind_of(e, ev.kind) || seen != fields_of(ev.kind)) return false;
    return file(s);
  }

 private:
  using Scanned = compact_event_line::Scanned;

  // Adds a parsed line's event (and its call or result) to the part.
  bool file(const Scanned& s) {
    if (s.ev.kind == EventKind::Inv) {
      Payload args;
      args.off = s.args_off;
      args.len = s.args_len;
      args.fn = part_.fn_of(s.f);
      if (args.fn == UINT16_MAX) return false;
      part_.add(s.ev, static_cast<uint32_t>(part_.calls.size()));
      part_.calls.push_back(args);
    } else if (s.ev.kind == EventKind::Ret) {
      Payload res;
      res.off = s.res_off;
      res.len = s.res_len;
      res.kind = s.res_kind;
      part_.add(s.ev, static_cast<uint32_t>(part_.results.size()));
      part_.results.push_back(res);
    } else {
      part_.add(s.ev, 0);
    }
    return true;
  }
  // An array of signed 64-bit integers, appended to the part's pool.
  bool key_array(od::value v, uint64_t& off, uint32_t& len) {
    od::array arr;
    if (v.get_array().get(arr)) return false;
    off = part_.keys.size();
    for (auto x : arr) {
      int64_t key;
      if (x.get_int64().get(key)) return false;
      part_.keys.push_back(key);
    }
    if (part_.keys.size() - off > UINT32_MAX) return false;
    len = static_cast<uint32_t>(part_.keys.size() - off);
    return true;
  }
  // null or an array of keys; with scalars_, also one integer or true/false.
  bool result(od::value v, Scanned& out) {
    od::json_type type;
    if (v.type().get(type)) return false;
    if (type == od::json_type::array) {
      out.res_kind = KeyOp::kKeysResult;
      return key_array(v, out.res_off, out.res_len);
    }
    if (type == od::json_type::null) {
      bool null = false;
      if (v.is_null().get(null) || !null) return false;
      out.res_kind = KeyOp::kNullResult;
      return true;
    }
    int64_t x = 0;
    if (!scalars_) return false;
    if (type == od::json_type::number) {
      if (v.get_int64().get(x)) return false;
      out.res_kind = KeyOp::kValueResult;
    } else if (type == od::json_type::boolean) {
      bool b = false;
      if (v.get_bool().get(b)) return false;
      x = b;
      out.res_kind = KeyOp::kBoolResult;
    } else {
      return false;
    }
    out.res_off = part_.keys.size();
    out.res_len = 1;
    part_.keys.push_back(x);
    return true;
  }

  Part& part_;
  bool scalars_;
  od::parser parser_;
};

bool comment_or_blank(const char* p, const char* le) {
  while (p < le && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
  return p == le || *p == '#';
}

// Parses the lines of [begin, end) (whole lines) into `part`, numbering them
// from part.line_base + 1. Lines are split and counted exactly as the DOM reader
// does. Stops early once any part failed.
void parse_chunk(const char* begin, const char* end, const char* padded_end, size_t keep_bytes, bool scalars,
                 Part& part, std::atomic<bool>& stop) {
  part.reserve_for(keep_bytes);
  LineParser parser(part, scalars);
  uint64_t line = 0;
  for (const char* p = begin; p < end;) {
    ++line;
    part.make_room();
    // The bytes a few lines on, asked for early: about a tenth fewer cycles
    // parsing on the 2-core VM, where the input's loads were the stalls.
    __builtin_prefetch(p + 2048);
    const uint32_t number = static_cast<uint32_t>(part.line_base + line);
    const char* le = parser.compact(p, end, number);
    if (!le) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
      le = nl ? nl : end;
      if (!comment_or_blank(p, le) && !parser.event(p, le - p, padded_end - p, number)) {
        stop = true;  // a line the fast path does not take: the DOM reader will decide
        return;
      }
    }
    if ((line & 255) == 0 && stop.load(std::memory_order_relaxed)) return;
    p = le + 1;
  }
  part.lines = line;
}

// Appends a block's part (lines numbered from 1) to `whole`, the blocks before
// it already in: its lines, slots, key offsets and names made the whole's. False
// when the names are too many (the DOM reader decides).
bool append_block(Part& whole, const Part& b) {
  std::vector<uint16_t> fn(b.fns.size());
  for (size_t i = 0; i < fn.size(); ++i)
    if ((fn[i] = whole.fn_of(b.fns[i])) == UINT16_MAX) return false;
  const uint32_t line0 = static_cast<uint32_t>(whole.line_base + whole.lines);
  const uint32_t call0 = static_cast<uint32_t>(whole.calls.size()), result0 = static_cast<uint32_t>(whole.results.size());
  const uint64_t key0 = whole.keys.size();
  for (size_t e = 0; e < b.events.size(); ++e) {
    Event ev = b.events[e];
    ev.line += line0;
    const bool inv = ev.kind == EventKind::Inv, ret = ev.kind == EventKind::Ret;
    whole.add(ev, inv ? call0 + b.slot[e] : ret ? result0 + b.slot[e] : 0);
  }
  for (Payload c : b.calls) c.off += key0, c.fn = fn[c.fn], whole.calls.push_back(c);
  for (Payload r : b.results) r.off += key0, whole.results.push_back(r);
  whole.keys.insert(whole.keys.end(), b.keys.begin(), b.keys.end());
  whole.lines += b.lines;
  return true;
}

// Parses the blocks [cuts[i], cuts[i + 1]) on `threads` threads into `whole`
// (reserved, its line_base set), in file order: each thread takes the next
// block, parses it into a part of its own and hands it in; whoever hands in the
// block next in line appends it, and the ready blocks after it. So the
// history's arrays fill as the parsing goes, on both threads, and no array of
// events is copied or faulted in after it (on a VM each fresh page costs); the
// block parts are reused. False when a line was not taken (the DOM reader
// decides).
bool parse_blocks(const std::vector<const char*>& cuts, const char* padded_end, bool scalars, unsigned threads,
                  Part& whole) {
  const size_t n = cuts.size() - 1;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::vector<std::unique_ptr<Part>> ready(n), spare;  // parsed, not yet appended; appended, to reuse
  size_t appended = 0;
  bool appending = false;
  on_threads(threads, [&](unsigned) {
    for (size_t b; !stop && (b = next++) < n;) {
      std::unique_ptr<Part> part;
      {
        std::lock_guard lock(mutex);
        if (!spare.empty()) part = std::move(spare.back()), spare.pop_back();
      }
      if (!part) part = std::make_unique<Part>();
      part->clear();
      parse_chunk(cuts[b], cuts[b + 1], padded_end, cuts[b + 1] - cuts[b], scalars, *part, stop);
      if (stop) return;
      std::unique_lock lock(mutex);
      ready[b] = std::move(part);
      if (appending) continue;  // the thread appending takes it in its turn
      appending = true;
      while (!stop && appended < n && ready[appended]) {
        std::unique_ptr<Part> p = std::move(ready[appended]);
        lock.unlock();
        if (!append_block(whole, *p)) stop = true;
        lock.lock();
        spare.push_back(std::move(p));
        ++appended;
      }
      appending = false;
    }
  });
  return !stop;
}

// Cuts [begin, end) into `n` runs of whole lines of about equal size.
std::vector<const char*> cut_at_lines(const char* begin, const char* end, size_t n) {
  std::vector<const char*> cuts{begin};
  for (size_t i = 1; i < n; ++i) {
    const char* at = std::max(cuts.back(), begin + (end - begin) * i / n);
    const char* nl = static_cast<const char*>(std::memchr(at, '\n', end - at));
    cuts.push_back(nl ? nl + 1 : end);
  }
  cuts.push_back(end);
  return cuts;
}

// ---- from parts to a KeyHistory -----------------------------------------------------

// The parts' events as one array, lines made absolute.
struct Joined {
  std::vector<Event> events;
  std::vector<uint32_t> slot;
  std::vector<Payload> calls;
  std::vector<Payload> results;
};

// Part 0's vectors taken over (reserved for the whole input: no copy of its
// events, which on a VM would mean faulting in a second array of them), the
// others appended.
Joined join(std::vector<Part>& parts, const std::vector<uint64_t>& first_line) {
  size_t events = 0, calls = 0, results = 0;
  for (const Part& p : parts) events += p.events.size(), calls += p.calls.size(), results += p.results.size();
  Part& p0 = parts[0];
  Joined j{std::move(p0.events), std::move(p0.slot), std::move(p0.calls), std::move(p0.results)};
  if (const uint64_t shift = first_line[0] - 1 - p0.line_base)
    for (Event& ev : j.events) ev.line += static_cast<uint32_t>(shift);
  reserve_huge(j.events, events);  // becomes KeyHistory::events
  reserve_huge(j.slot, events);
  j.calls.reserve(calls);
  j.results.reserve(results);
  for (size_t i = 1; i < parts.size(); ++i) {
    Part& p = parts[i];
    const uint32_t line0 = static_cast<uint32_t>(first_line[i] - 1 - p.line_base);
    const uint32_t call0 = static_cast<uint32_t>(j.calls.size()), result0 = static_cast<uint32_t>(j.results.size());
    for (size_t e = 0; e < p.events.size(); ++e) {
      Event ev = p.events[e];
      ev.line += line0;
      j.events.push_back(ev);
      const bool inv = ev.kind == EventKind::Inv, ret = ev.kind == EventKind::Ret;
      j.slot.push_back(inv ? call0 + p.slot[e] : ret ? result0 + p.slot[e] : 0);
    }
    for (Payload c : p.calls) c.part = static_cast<uint8_t>(i), j.calls.push_back(c);
    for (Payload r : p.results) r.part = static_cast<uint8_t>(i), j.results.push_back(r);
    // Freed part by part, so the copies never double the memory.
    release(p.events), release(p.slot), release(p.calls), release(p.results);
  }
  return j;
}

// Builds the ops in inv order (fn_names in order of first use) over the parts'
// key pools joined in file order, on `threads` threads.
void build_ops(KeyHistory& k, const std::vector<OpSpan>& spans, const Joined& j, std::vector<Part>& parts,
               unsigned threads) {
  // The pool is the parts' pools back to back, in file order: part 0's buffer
  // (reserved for the whole input) is kept and the others appended. Every page
  // of a fresh buffer costs a fault, and on a VM faults are most of a copy's
  // time: copying the keys into op order touched the whole pool a second time.
  std::vector<uint64_t> base(parts.size(), 0);
  for (size_t i = 1; i < parts.size(); ++i) base[i] = base[i - 1] + parts[i - 1].keys.size();
  k.keys = std::move(parts[0].keys);
  for (size_t i = 1; i < parts.size(); ++i) {
    k.keys.insert(k.keys.end(), parts[i].keys.begin(), parts[i].keys.end());
    release(parts[i].keys);
  }

  // The names in order of first use: ops until every name was met (a few, as a
  // rule), then each op on its own.
  std::vector<std::vector<int32_t>> fn_map(parts.size());
  size_t unmet = 0;
  for (size_t i = 0; i < parts.size(); ++i) fn_map[i].assign(parts[i].fns.size(), -1), unmet += parts[i].fns.size();
  for (size_t i = 0; i < spans.size() && unmet > 0; ++i) {
    const Payload& call = j.calls[j.slot[spans[i].inv_event]];
    int32_t& fn = fn_map[call.part][call.fn];
    if (fn < 0) fn = k.fn_index(parts[call.part].fns[call.fn]), --unmet;
  }
  const size_t n = spans.size();
  reserve_huge(k.ops, n);
  populate(k.ops.data(), n * sizeof(KeyOp), threads);
  k.ops.resize(n);
  on_threads(threads, [&](unsigned t) {
    for (size_t i = n * t / threads; i < n * (t + 1) / threads; ++i) {
      const OpSpan& s = spans[i];
      const Event& inv = j.events[s.inv_event];
      const Payload& call = j.calls[j.slot[s.inv_event]];
      KeyOp& op = k.ops[i];
      op.id = s.id;
      op.actor = s.actor;
      op.inv_t = inv.t;
      op.inv_line = inv.line;
      op.fn = static_cast<uint16_t>(fn_map[call.part][call.fn]);
      op.args_off = base[call.part] + call.off;
      op.args_len = call.len;
      if (s.ret_event != OpSpan::kNone) {
        const Event& ret = j.events[s.ret_event];
        const Payload& res = j.results[j.slot[s.ret_event]];
        op.ret_t = ret.t;
        op.ret_line = ret.line;
        op.res_kind = static_cast<KeyOp::Result>(res.kind);
        if (res.kind >= KeyOp::kKeysResult) {  // keys, or the one key of a scalar
          op.res_off = base[res.part] + res.off;
          op.res_len = res.len;
        }
      }
    }
  });
}

// The same steps and errors, in the same order, as assemble_history.
KeyHistory assemble_keys(std::string source, Header header, uint32_t header_line, std::vector<Part> parts,
                         const std::vector<uint64_t>& first_line, unsigned threads) {
  check_header(header, source, header_line);
  size_t events = 0;
  for (const Part& p : parts) events += p.events.size();
  if (events >= OpSpan::kNone) throw FormatError(source, 0, "too many events (more than 2^32 - 2)");
  Joined j = join(parts, first_line);
  sort_events_by_t(j.events, j.slot);
  const std::vector<OpSpan> spans = check_events(j.events, source);
  KeyHistory k;
  k.source = std::move(source);
  k.header = std::move(header);
  build_ops(k, spans, j, parts, threads);
  k.events = std::move(j.events);
  return k;
}

// ---- the DOM reader's verdict --------------------------------------------------------

bool is_key_array(const Value& v) {
  if (!v.is_array()) return false;
  for (const Value& x : v.as_array())
    if (!x.is_int()) return false;
  return true;
}

// A history the DOM reader accepted after the fast path turned a line down:
// either a payload is not keys (an error here, on its first line) or the fast
// path was stricter than it needs to be, and the history is converted.
KeyHistory keys_of_dom(const History& h) {
  const bool scalars = keyed_model(h.header.model);
  uint32_t bad = UINT32_MAX;
  bool any = false;
  for (const Operation& op : h.ops) {
    if (!is_key_array(op.args)) any = true, bad = std::min(bad, op.inv_line);
    if (op.res && !op.res->is_null() && !is_key_array(*op.res) && !(scalars && (op.res->is_int() || op.res->is_bool())))
      any = true, bad = std::min(bad, op.ret_line);
  }
  if (any)
    throw FormatError(h.source, bad,
                      scalars ? fmt::format("args must be arrays of integers, res null, an integer, true/false or an "
                                            "array of integers for model {}",
                                            h.header.model)
                              : fmt::format("args/res must be arrays of integer keys for model {}", h.header.model));
  return to_key_history(h);
}

// Known models whose payloads are not key lists are turned away at the header;
// unknown models go on, so that check_header names them as the DOM reader does.
void require_keys_model(const Header& h, const std::string& source, uint32_t line) {
  if (key_payload_model(h.model)) return;
  const auto& known = known_models();
  if (std::find(known.begin(), known.end(), h.model) != known.end())
    throw FormatError(source, line, fmt::format("model {} has non-key payloads; use read_history_file", h.model));
}

// ---- the input -----------------------------------------------------------------------

// The bytes to read, followed by at least SIMDJSON_PADDING readable bytes: a file
// mapped read-only (its pages straight from the page cache: nothing to zero or
// copy, which on a VM costs more than the parsing), or a padded_string.
class Input {
 public:
  Input() = default;
  explicit Input(simdjson::padded_string s) : str_(std::move(s)), data_(str_.data()), size_(str_.size()) {}
  Input(Input&& o) noexcept { *this = std::move(o); }
  Input& operator=(Input&& o) noexcept {
    release();
    str_ = std::move(o.str_);
    data_ = o.map_ ? o.data_ : str_.data();
    size_ = o.size_;
    map_ = o.map_;
    map_bytes_ = o.map_bytes_;
    o.map_ = nullptr;
    o.data_ = nullptr;
    o.size_ = 0;
    return *this;
  }
  ~Input() { release(); }

  // The file mapped, with zero pages after it; false on anything unusual (not a
  // regular file, a failed mapping), which padded_string::load then reads.
  static bool map(const std::string& path, Input& out) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (ok) {
      const size_t size = static_cast<size_t>(st.st_size), page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
      const size_t bytes = (size + simdjson::SIMDJSON_PADDING + page - 1) / page * page;
      // Anonymous zero pages for the whole range, the file's pages over its start.
      void* base = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      ok = base != MAP_FAILED;
      if (ok && size > 0)
        ok = ::mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0) != MAP_FAILED;
      if (ok) {
        out = Input();
        out.map_ = base;
        out.map_bytes_ = bytes;
        out.data_ = static_cast<const char*>(base);
        out.size_ = size;
      } else if (base != MAP_FAILED) {
        ::munmap(base, bytes);
      }
    }
    ::close(fd);
    return ok;
  }

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  std::string_view view() const { return {data_, size_}; }
  void release() {
    if (map_) ::munmap(map_, map_bytes_);
    map_ = nullptr;
    str_ = simdjson::padded_string();
    data_ = nullptr;
    size_ = 0;
  }

 private:
  simdjson::padded_string str_;
  const char* data_ = nullptr;
  size_t size_ = 0;
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
};

// ---- JSONL --------------------------------------------------------------------------

// Takes the input over so that it can be freed as soon as the lines are parsed:
// the peak is then the file plus the parsed parts, not the file plus the history.
KeyHistory read_padded(Input buf, const std::string& source, unsigned threads) {
  const char* const begin = buf.data();
  const char* const end = begin + buf.size();
  const char* const padded_end = end + simdjson::SIMDJSON_PADDING;

  // The header: the first line that is no comment, found and parsed as the DOM
  // reader does (nothing before it can fail).
  uint64_t line = 0;
  const char* p = begin;
  Header header;
  uint32_t header_line = 0;
  while (p < end && header_line == 0) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
    const char* le = nl ? nl : end;
    if (++line > UINT32_MAX) throw FormatError(source, UINT32_MAX, "too many lines (more than 2^32 - 1)");
    if (!comment_or_blank(p, le)) {
      header_line = static_cast<uint32_t>(line);
      header = parse_header_json(std::string_view(p, le - p), source, header_line);
    }
    p = le + 1;
  }
  if (header_line == 0)
    throw FormatError(source, std::max<uint32_t>(static_cast<uint32_t>(line), 1),
                      "header missing: the file has no header line (it is empty or only comments)");
  require_keys_model(header, source, header_line);

  // The events, in blocks of whole lines on every thread (at least a block a
  // thread). Small inputs get fewer threads: starting one costs more than
  // parsing a few hundred kB.
  const char* const body = std::min(p, end);
  if (threads == 0) {
    const size_t per_thread = size_t{1} << 20;
    threads = static_cast<unsigned>(std::clamp<size_t>((end - body) / per_thread, 1, default_threads()));
  }
  threads = std::min(threads, 255u);
  constexpr size_t kBlockBytes = size_t{4} << 20;
  const size_t blocks = std::max<size_t>(threads, (end - body) / kBlockBytes);
  std::vector<Part> parts(1);
  Part& whole = parts[0];
  whole.reserve_for(end - body);
  whole.line_base = line;
  // A line turned down: the DOM reader reads the whole input and throws its own
  // error, identical by construction (it reads line errors in file order, then
  // the header, then the events' rules).
  if (!parse_blocks(cut_at_lines(body, end, blocks), padded_end, keyed_model(header.model), threads, whole)) {
    parts.clear();
    return keys_of_dom(read_history_text(buf.view(), source));
  }
  // Every string the parts need was copied out: the input goes, on another
  // thread while the events are checked where there is one (tearing down the
  // mapping of a few hundred MB takes tens of ms).
  std::jthread unmap;
  if (threads > 1) unmap = std::jthread([in = std::move(buf)]() mutable { in.release(); });
  buf.release();

  const std::vector<uint64_t> first_line{whole.line_base + 1};
  if (line + whole.lines > UINT32_MAX) throw FormatError(source, UINT32_MAX, "too many lines (more than 2^32 - 1)");
  return assemble_keys(source, std::move(header), header_line, std::move(parts), first_line, threads);
}

// ---- binary ---------------------------------------------------------------------------

using namespace binary_layout;

constexpr uint64_t kNoPayload = UINT64_MAX;

// Decodes the value pool's key payloads; any other content or inconsistency is
// "not taken", left for read_history_binary_bytes to name.
class PoolKeys {
 public:
  // `scalars`: a ret's res may also be one integer or true/false (keyed models).
  // Payloads are read from `start` on (where the first record read has its payload).
  PoolKeys(std::string_view pool, uint64_t start, Part& part, bool scalars)
      : pool_(pool), part_(part), scalars_(scalars), pos_(start) {}
  size_t pos() const { return pos_; }

  bool inv(uint64_t aux, Payload& out) {
    const char* n = nullptr;
    if (aux != pos_ || !take(4, n)) return false;
    const uint32_t len = static_cast<uint32_t>(get_le(n, 4));
    const char* f = nullptr;
    if (!take(len, f)) return false;
    out.fn = part_.fn_of(std::string_view(f, len));
    return out.fn != UINT16_MAX && keys(out);
  }
  bool ret(uint64_t aux, Payload& out) {
    const char* tag = nullptr;
    if (aux != pos_ || !take(1, tag)) return false;
    if (*tag == kNull) {
      out.kind = KeyOp::kNullResult;
      return true;
    }
    if (scalars_ && (*tag == kInt || *tag == kTrue || *tag == kFalse)) {
      const char* x = nullptr;
      if (*tag == kInt && !take(8, x)) return false;
      out.kind = *tag == kInt ? KeyOp::kValueResult : KeyOp::kBoolResult;
      out.off = part_.keys.size();
      out.len = 1;
      part_.keys.push_back(*tag == kInt ? static_cast<int64_t>(get_le(x, 8)) : *tag == kTrue);
      return true;
    }
    --pos_;  // the array's tag again
    out.kind = KeyOp::kKeysResult;
    return keys(out);
  }

 private:
  bool take(uint64_t n, const char*& p) {
    if (n > pool_.size() - pos_) return false;
    p = pool_.data() + pos_;
    pos_ += n;
    return true;
  }
  // tag 5, u32 count, then count times (tag 3, i64).
  bool keys(Payload& out) {
    const char* head = nullptr;
    if (!take(5, head) || static_cast<uint8_t>(head[0]) != kArray) return false;
    const uint32_t count = static_cast<uint32_t>(get_le(head + 1, 4));
    const char* items = nullptr;
    if (!take(uint64_t{count} * 9, items)) return false;
    out.off = part_.keys.size();
    out.len = count;
    for (uint32_t i = 0; i < count; ++i, items += 9) {
      if (static_cast<uint8_t>(items[0]) != kInt) return false;
      part_.keys.push_back(static_cast<int64_t>(get_le(items + 1, 8)));
    }
    return true;
  }
  std::string_view pool_;
  Part& part_;
  bool scalars_;
  size_t pos_;
};

// Records [0, count) from `rec` (lines 1.. of the part), as
// read_history_binary_bytes reads them, their payloads from pool[start, end);
// false when it would complain or build a Value that is no key list.
bool parse_records(const char* rec, uint64_t count, std::string_view pool, uint64_t start, uint64_t pool_bytes,
                   bool scalars, Part& part, uint64_t& end) {
  reserve_huge(part.events, count);
  reserve_huge(part.slot, count);
  reserve_huge(part.keys, pool_bytes / 9);  // a key takes 9 bytes in the pool
  PoolKeys reader(pool, start, part, scalars);
  for (uint64_t i = 0; i < count; ++i, rec += kRecordSize) {
    const Record r = decode_record(rec, i);
    if (!r.known_kind() || !r.padding_zero) return false;
    Event ev = r.ev;
    const uint64_t aux = r.aux;
    Payload payload;
    switch (ev.kind) {
      case EventKind::Acq:
      case EventKind::Rel:
        ev.node = static_cast<int64_t>(aux);
        part.add(ev, 0);
        break;
      case EventKind::Lp:
        if (aux != 0) return false;
        part.add(ev, 0);
        break;
      case EventKind::Inv:
        if (!reader.inv(aux, payload)) return false;
        part.add(ev, static_cast<uint32_t>(part.calls.size()));
        part.calls.push_back(payload);
        break;
      case EventKind::Ret:
        if (!reader.ret(aux, payload)) return false;
        part.add(ev, static_cast<uint32_t>(part.results.size()));
        part.results.push_back(payload);
        break;
    }
  }
  part.lines = count;
  end = reader.pos();
  return true;
}

// `threads`: runs of records parsed at once; 0: one per 2^20 records, at most one per core.
KeyHistory read_binary_bytes(std::string_view bytes, const std::string& source, unsigned threads) {
  auto dom = [&] { return keys_of_dom(read_history_binary_bytes(bytes, source)); };
  // Before the records: any irregularity is for the binary reader to name.
  if (bytes.size() < sizeof kMagic + 4 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return dom();
  size_t pos = sizeof kMagic;
  const uint64_t header_len = get_le(bytes.data() + pos, 4);
  pos += 4;
  if (bytes.size() - pos < header_len + 16) return dom();
  Header header = parse_header_json(bytes.substr(pos, header_len), source, 0);
  pos += header_len;
  const uint64_t count = get_le(bytes.data() + pos, 8);
  const uint64_t pool_size = get_le(bytes.data() + pos + 8, 8);
  pos += 16;
  if (count > (bytes.size() - pos) / kRecordSize || count >= UINT32_MAX) return dom();
  require_keys_model(header, source, 0);
  const char* rec = bytes.data() + pos;
  pos += count * kRecordSize;
  const std::string_view pool = bytes.substr(pos);
  if (pool.size() != pool_size) return dom();

  // Runs of records in parallel, each reading its payloads from where its first
  // one lies (its aux); the runs must then meet end to end, as one reader's would.
  if (threads == 0) threads = static_cast<unsigned>(std::clamp<uint64_t>(count >> 20, 1, default_threads()));
  threads = static_cast<unsigned>(std::clamp<uint64_t>(std::min<uint64_t>(threads, count), 1, 255));  // Payload::part is a byte
  std::vector<uint64_t> begin(threads + 1), start(threads, kNoPayload), end(threads, kNoPayload);
  for (unsigned i = 0; i <= threads; ++i) begin[i] = count * i / threads;
  for (unsigned i = 0; i < threads; ++i)
    for (uint64_t r = begin[i]; r < begin[i + 1] && start[i] == kNoPayload; ++r) {
      const Record x = decode_record(rec + r * kRecordSize, r);
      if (x.known_kind() && (x.ev.kind == EventKind::Inv || x.ev.kind == EventKind::Ret)) start[i] = x.aux;
    }
  std::vector<Part> parts(threads);
  // Part 0's vectors become the history's (join, build_ops): room for all of it.
  reserve_huge(parts[0].events, count);
  reserve_huge(parts[0].slot, count);
  reserve_huge(parts[0].keys, pool_size / 9);
  std::vector<char> taken(threads, 0);
  const bool scalars = keyed_model(header.model);
  on_threads(threads, [&](unsigned i) {
    const uint64_t from = start[i] == kNoPayload ? 0 : start[i];
    taken[i] = from <= pool_size && parse_records(rec + begin[i] * kRecordSize, begin[i + 1] - begin[i], pool, from,
                                                  pool_size / threads, scalars, parts[i], end[i]);
  });
  uint64_t at = 0;  // where the next payload must start
  std::vector<uint64_t> first_line(threads);
  for (unsigned i = 0; i < threads; ++i) {
    if (!taken[i] || (start[i] != kNoPayload && start[i] != at)) return dom();
    if (start[i] != kNoPayload) at = end[i];
    first_line[i] = begin[i] + 1;
  }
  if (at != pool_size) return dom();
  return assemble_keys(source, std::move(header), 0, std::move(parts), first_line, threads);
}

}  // namespace

KeyHistory read_key_history_file(const std::string& path, unsigned threads) {
  Input in;
  if (!Input::map(path, in)) {
    simdjson::padded_string buf;
    if (auto err = simdjson::padded_string::load(path).get(buf))
      throw FormatError(path, 0, fmt::format("cannot read the file: {}", simdjson::error_message(err)));
    in = Input(std::move(buf));
  }
  return read_padded(std::move(in), path, threads);
}

KeyHistory read_key_history_text(std::string_view text, const std::string& source, unsigned threads) {
  return read_padded(Input(simdjson::padded_string(text)), source, threads);
}

KeyHistory read_key_history_any(const std::string& path, unsigned threads) {
  if (!is_binary_history_file(path)) return read_key_history_file(path, threads);
  Input in;
  if (Input::map(path, in)) return read_binary_bytes(in.view(), path, threads);
  return read_binary_bytes(read_file_bytes(path), path, threads);
}

}  // namespace gpulin
