// Reads a PTX litmus test in the herd format (the one herd7 and Dartagnan read):
//
//   PTX MP
//   "an optional comment"
//   { x=0; y=0; P1:r0=0; }
//    P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
//    st.weak x, 1        | ld.acquire.gpu r0, y ;
//    st.release.gpu y, 1 | ld.weak r1, x        ;
//   exists (P1:r0 = 1 /\ P1:r1 = 0)
//
// Instructions: ld, st (.weak .relaxed .acquire .release .volatile, scopes .cta .gpu
// .sys), atom and red (.add .sub .exch .cas .and .or .xor .min .max), fence (.sc
// .acq_rel .acquire .release) and membar, bar.sync / bar.cta.sync / barrier.sync
// with a constant id and thread count, mov and add on registers (and herd's `ld r,
// 1` for a constant). Conditions:
// exists, ~exists, forall over /\, \/, ~, parentheses and `P:reg = n`, `x = n`,
// `!=`. A test using anything else (proxies, textures, surfaces, branches, barrier
// ids or counts in registers, registers holding addresses) is returned with `refused` set,
// naming the file and line; a file that is not a litmus test throws FormatError.
#pragma once

#include <string>

#include "tools/litmus/litmus_test.h"

namespace gpulin::litmus {

LitmusTest parse_litmus(const std::string& text, const std::string& file);
LitmusTest read_litmus_file(const std::string& path);

}  // namespace gpulin::litmus
