# Puts a prototype kernel (tile16.cuh or tileg.cuh) into a COPY of the tree, in place
# of the unrecorded mixed kernel and the map's bulk build (bench/results/
# slab-tile-groups-h200.txt): python3 patch.py COPY_ROOT PROTOTYPE.cuh
import sys, pathlib
root = pathlib.Path(sys.argv[1])
k = root / "structures/slab_hash/gpu/slab_hash_kernels.cu"
s = k.read_text()
s = s.replace('#include <vector>\n', '#include <vector>\n#include "tile16.cuh"\n', 1)
old = "  if (!ops.fn && ops.uniform_fn == kFnInsert) return launch(slab_batch_kernel<P, kOff, kFnInsert>, {}, {});"
assert old in s
s = s.replace(old, "  if constexpr (P::mode != Mode::Set && !P::versioned) { if (!searches && (ops.fn || P::mode == Mode::Map)) { proto_tile16_kernel<P><<<needed, threads, 0, stream>>>(t.view<P>(), ops, {}, {}, 0); return cudaGetLastError(); } }\n" + old)
k.write_text(s)
(root / "structures/slab_hash/gpu/tile16.cuh").write_text((pathlib.Path(sys.argv[2])).read_text())
print("patched", k)
