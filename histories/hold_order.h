// Recorded events whose holds were numbered on their node instead of ticketed
// (hold versions, histories/device_events.h: an acq or rel with t = 0 and the
// hold's number in `fn`), put in one order that respects what was recorded: each
// actor's program order, each node's holds in their numbers (a hold's rel before
// the next hold's acq), and the one counter's tickets among the other events. The
// events then get t = 1, 2, 3, ... in that order, which the rest of the pipeline
// reads as any recorded history. Where no such order exists the recorded orders
// contradict each other (a hold numbered twice, a rel of a hold that is not the
// node's current one, a hold waiting for one never recorded, a ticketed event
// that a node's holds put after a later ticket): a FormatError naming the event.
#pragma once

#include <string>
#include <vector>

#include "histories/device_events.h"

namespace gpulin {

// `events`: each actor's events in the order the actor recorded them (actors may
// be interleaved; the device download gives them actor by actor). Events with t != 0
// keep their tickets' relative order.
std::vector<DeviceEvent> order_hold_versions(std::vector<DeviceEvent> events, const std::string& source);

}  // namespace gpulin
