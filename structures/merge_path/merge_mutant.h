// Bug injections into the global merge, chosen at compile time (a template argument
// of merge_block, as cuCollections passes its policies): the default GPU kernels
// instantiate only MergeMutant::None, so a mutant costs them nothing and can never
// be switched on at run time. `gpulin explore --structure merge --mutant NAME`
// instantiates the others in the simulator to show the explorer finds them.
#pragma once

namespace gpulin::merge_path {

enum class MergeMutant {
  None,
  // The copy warp takes A one element past the window's corner split(w + 1) (and one
  // element fewer of B, so the window still has `tile` outputs): the window reads
  // into the next window's partition (§2.1: windows must meet at the path's points).
  WindowOverrun,
  // Each consumer thread arrives on its stage's `empty` barrier before it merges from
  // the stage, not after: the copy warp may refill the stage while the thread still
  // reads it (§2.3's window must stay put until every thread has read it). Within a
  // warp's step the simulator's lanes run in turn, so no schedule shows a wrong
  // output; the lanes' clocks see the refill's writes race with the reads.
  EarlyRelease,
  // A consumer warp stores its slice of the window from its write buffer without the
  // __syncwarp between the lanes' writes of the buffer and the warp's reads of it:
  // lane l reads outputs other lanes wrote, unordered (a race between the threads of
  // one warp, which one fiber per warp can never interleave).
  NoWarpSync,
};

}  // namespace gpulin::merge_path
