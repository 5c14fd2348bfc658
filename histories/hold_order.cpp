#include "histories/hold_order.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>

#include "histories/history.h"

namespace gpulin {

namespace {

// The merge of the actors' sequences (see the header). Each actor advances through
// its hold events as far as the nodes' numbers allow; the ticketed events are
// taken one at a time in ticket order, each when it heads its actor's sequence.
class HoldOrder {
 public:
  HoldOrder(std::vector<DeviceEvent> events, const std::string& source) : events_(std::move(events)), source_(source) {}

  std::vector<DeviceEvent> run() {
    const size_t n = events_.size();
    std::vector<uint32_t> by_actor(n);
    std::iota(by_actor.begin(), by_actor.end(), 0u);
    std::stable_sort(by_actor.begin(), by_actor.end(),
                     [&](uint32_t a, uint32_t b) { return events_[a].actor < events_[b].actor; });
    // Actor s's events are seq_[begin_[s], begin_[s + 1]).
    seq_ = std::move(by_actor);
    for (size_t i = 0; i < n; ++i) {
      if (i == 0 || events_[seq_[i]].actor != events_[seq_[i - 1]].actor) begin_.push_back(i);
      slot_of_[events_[seq_[i]].actor] = static_cast<uint32_t>(begin_.size() - 1);
    }
    begin_.push_back(n);
    head_.assign(begin_.begin(), begin_.end() - 1);
    number_acquisitions();
    std::vector<uint32_t> tickets;
    for (uint32_t i = 0; i < n; ++i)
      if (events_[i].t != 0) tickets.push_back(i);
    std::sort(tickets.begin(), tickets.end(), [&](uint32_t a, uint32_t b) { return events_[a].t < events_[b].t; });
    for (size_t i = 1; i < tickets.size(); ++i)
      if (events_[tickets[i]].t == events_[tickets[i - 1]].t)
        refuse(events_[tickets[i]], "its ticket is also another event's: the recorder's counter gives each its own");
    out_.reserve(n);
    for (uint32_t s = 0; s + 1 < begin_.size(); ++s) ready_.push_back(s);
    for (size_t ti = 0;; ++ti) {
      while (!ready_.empty()) {
        const uint32_t s = ready_.back();
        ready_.pop_back();
        advance(s);
      }
      if (ti == tickets.size()) break;
      const uint32_t i = tickets[ti];
      const uint32_t s = slot_of_.at(events_[i].actor);
      if (head_[s] == begin_[s + 1]) refuse(events_[i], "its actor's events ended before it");  // not reached
      if (seq_[head_[s]] != i) {
        const DeviceEvent& blocked = events_[seq_[head_[s]]];
        refuse(blocked, blocked.t == 0 ? waiting_for(blocked) + ", while ticket " + std::to_string(events_[i].t) +
                                             " after it in the actor's order is due"
                                       : "its ticket comes after ticket " + std::to_string(events_[i].t) +
                                             ", which the actor recorded later");
      }
      emit(s);
      ready_.push_back(s);
    }
    for (uint32_t s = 0; s + 1 < begin_.size(); ++s)
      if (head_[s] != begin_[s + 1]) refuse(events_[seq_[head_[s]]], waiting_for(events_[seq_[head_[s]]]));
    return std::move(out_);
  }

 private:
  [[noreturn]] void refuse(const DeviceEvent& e, const std::string& what) const {
    const std::string hold = e.t == 0 ? ", node " + std::to_string(e.node) + ", hold " + std::to_string(e.fn) : "";
    throw FormatError(source_, 0,
                      "recorded event (op " + std::to_string(e.op) + ", actor " + std::to_string(e.actor) + hold +
                          "): " + what);
  }
  // An unnumbered acq (device_events.h: the GPU numbers a hold at its rel) takes
  // the number of its actor's next rel of the node by the same op; one with no rel
  // (a hold the actor never left: it stopped) comes after every hold of the node
  // that ended.
  void number_acquisitions() {
    std::unordered_map<int64_t, uint32_t> ended;  // rels seen a node
    for (const DeviceEvent& e : events_)
      if (e.t == 0 && e.kind == kDeviceRel) ++ended[e.node];
    for (size_t s = 0; s + 1 < begin_.size(); ++s) {
      std::map<std::pair<int64_t, int64_t>, uint32_t> next_rel;  // (node, op) -> number, scanning backwards
      for (size_t j = begin_[s + 1]; j-- > begin_[s];) {
        DeviceEvent& e = events_[seq_[j]];
        if (e.t != 0) continue;
        if (e.kind == kDeviceRel) next_rel[{e.node, e.op}] = e.fn;
        if (e.kind != kDeviceAcq || e.fn != kHoldUnnumbered) continue;
        const auto rel = next_rel.find({e.node, e.op});
        if (rel != next_rel.end()) {
          e.fn = rel->second;
          next_rel.erase(rel);
        } else {
          e.fn = ended[e.node];
        }
      }
    }
  }
  std::string waiting_for(const DeviceEvent& e) const {
    return "it waits for hold " + std::to_string(e.fn == 0 ? 0 : e.fn - 1) + " of node " + std::to_string(e.node) +
           " to end, which was never recorded ending before it";
  }
  void emit(uint32_t s) {
    DeviceEvent e = events_[seq_[head_[s]++]];
    e.t = out_.size() + 1;
    out_.push_back(e);
  }
  // Actor s's hold events, as far as their nodes' numbers allow.
  void advance(uint32_t s) {
    while (head_[s] != begin_[s + 1]) {
      const DeviceEvent& e = events_[seq_[head_[s]]];
      if (e.t != 0) return;  // a ticketed event: its turn comes in ticket order
      if (e.kind != kDeviceAcq && e.kind != kDeviceRel) refuse(e, "t 0 on an event that is not a hold (acq or rel)");
      Node& node = nodes_[e.node];
      if (e.kind == kDeviceAcq) {
        if (e.fn < node.ended || (e.fn == node.ended && node.held))
          refuse(e, "the node's hold " + std::to_string(e.fn) + " was recorded twice");
        if (e.fn != node.ended) {
          if (!waiting_.emplace(std::make_pair(e.node, e.fn), s).second)
            refuse(e, "the node's hold " + std::to_string(e.fn) + " was recorded twice");
          return;
        }
        node.held = true;
      } else {
        if (!node.held || e.fn != node.ended)
          refuse(e, "a rel of a hold that is not the node's current one (hold " + std::to_string(node.ended) +
                        (node.held ? ", held" : ", not held") + ")");
        node.held = false;
        ++node.ended;
        const auto next = waiting_.find(std::make_pair(e.node, node.ended));
        if (next != waiting_.end()) ready_.push_back(next->second), waiting_.erase(next);
      }
      emit(s);
    }
  }

  struct Node {
    uint32_t ended = 0;  // holds of the node that ended (the next hold's number)
    bool held = false;   // hold `ended` is on
  };
  std::vector<DeviceEvent> events_;
  const std::string& source_;
  std::vector<uint32_t> seq_;
  std::vector<size_t> begin_, head_;
  std::unordered_map<uint32_t, uint32_t> slot_of_;
  std::unordered_map<int64_t, Node> nodes_;
  std::map<std::pair<int64_t, uint32_t>, uint32_t> waiting_;
  std::vector<uint32_t> ready_;
  std::vector<DeviceEvent> out_;
};

}  // namespace

std::vector<DeviceEvent> order_hold_versions(std::vector<DeviceEvent> events, const std::string& source) {
  return HoldOrder(std::move(events), source).run();
}

}  // namespace gpulin
