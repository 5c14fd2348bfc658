// A history's identity: everything of it that a checker reads, packed into bytes,
// so that two histories with equal identities get equal verdicts from every
// checker. The explorer meets the same history many times (DFS 3 x 3 bound 2: 80 644
// schedules, about 5 300 distinct histories) and judges each only once
// (tools/explore/passed_histories.h). Left out: the file name and line numbers (a
// checker cites them in messages, never in a verdict) and the header's "schedule"
// field (the replay string of the run, different for every schedule and never
// interpreted). Every other header field, each event and each operation are in.
#pragma once

#include <string>

#include "histories/history.h"

namespace gpulin {

std::string history_identity(const History& h);

}  // namespace gpulin
