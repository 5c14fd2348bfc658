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
};

}  // namespace gpulin::merge_path
