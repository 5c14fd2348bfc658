// The slab hash's GPU kernels: instantiations of the same templates the simulator
// runs (structures/slab_hash/), with the CUDA execution context in warp scope. No
// second copy of the algorithm and no mutant: SlabPolicy<mode, light, None> only,
// and for the multimap its fixed variant too (bucket_version.h): the new kernels
// are the multimap's, x fixed, x the two allocators.
#include "structures/slab_hash/gpu/slab_hash_kernel.cuh"

#include <vector>

namespace gpulin::slab_hash {

namespace {

int sm_count() {
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  return sms > 0 ? sms : 1;
}

// The lanes an operation of an unrecorded bulk build runs on (slab_lanes.h): for
// pairs in the paper's variants a tile of 8, four inserts in flight a warp; the set
// and the fixed multimap, and every other kernel, on the warp (a mixed batch on
// tiles spills more registers than its operations in flight gain: bench/results/
// slab-tile-groups-h200.txt).
template <class P>
constexpr uint32_t kBuildLanes = ModeTraits<P::mode>::kPairs && !P::versioned ? 8 : 32;

template <class P>
cudaError_t launch_policy(const DeviceSlabHash& t, const SlabOpBatch& ops, uint32_t threads, cudaStream_t stream,
                          const DeviceRecorderRef* rec, const KeyClockRecorderRef* clocks, int64_t op_id_base) {
  static_assert(P::mutant == Mutant::None, "mutants are not built into the library's GPU kernels");
  if (ops.count == 0) return cudaSuccess;
  // One operation per thread; with recording the grid covers the batch exactly:
  // by events, warp w is actor w (the recorder's buffers); by key clocks, every
  // thread owns one operation of the launch. So does an unrecorded batch of
  // searches or of mixed operations, as the original's kernels launch: the
  // hardware deals each block to the first multiprocessor with room, so no warp is
  // left with a last round while others idle, as a grid-stride loop's last wave
  // would leave them. So does a bulk build on tiles (kBuildLanes < 32): each tile
  // runs its lanes' inserts, one round, and ends; a tile's allocator loads its
  // resident block only when it allocates (slab_alloc.h), which few do in a build.
  // A bulk build on the warp, or a bulk delete, keeps a grid-stride loop over at
  // most 32 blocks a multiprocessor: a warp's allocator state (its resident memory
  // block, loaded once) then lives across its rounds instead of being loaded again
  // for every block. (Each measured against the alternative: bench/results/
  // architecture-notes.md, 4.)
  const bool recorded = rec || clocks;
  const bool searches = !ops.fn && ops.uniform_fn == kFnSearch;
  // Only a bulk build on the warp or a bulk delete keeps the grid-stride loop; the
  // mixed kernel (any other batch) runs one round a thread and needs the exact grid
  // (it faults without).
  const bool warp_build = ops.uniform_fn == kFnInsert && kBuildLanes<P> == 32;
  const bool grid_stride = !recorded && !ops.fn && (warp_build || ops.uniform_fn == kFnDelete);
  const bool exact = !grid_stride;
  const uint64_t needed = (ops.count + threads - 1) / threads;
  const uint64_t blocks = exact ? needed : std::min<uint64_t>(needed, uint64_t(sm_count()) * 32);
  const auto launch = [&](auto kernel, const DeviceRecorderRef& r, const KeyClockRecorderRef& c, uint64_t tickers = 0) {
    kernel<<<blocks + tickers, threads, 0, stream>>>(t.view<P>(), ops, r, c, op_id_base);
    return cudaGetLastError();
  };
  if (rec && clocks) return cudaErrorInvalidValue;          // one recorder a launch
  if (rec) return launch(slab_batch_kernel<P, SlabRecording::kEvents>, *rec, {});
  if (clocks) {
    // A key-clock record holds one result word: SEARCHALL's list is not one.
    if constexpr (P::mode == Mode::Multimap) return cudaErrorInvalidValue;
    else {
      if (op_id_base < 0 || uint64_t(op_id_base) + ops.count > clocks->record_cap) return cudaErrorInvalidValue;
      if (clocks->mode == KeyClockMode::kWarpRounds) {
        if (clocks->clock_bits != 0) return cudaErrorInvalidValue;  // one clock for every key
        return launch(slab_batch_kernel<P, SlabRecording::kWarpRounds>, {}, *clocks);
      }
      if (clocks->mode == KeyClockMode::kPublished) {
        if (clocks->clock_bits != kPublishedClockBits || !clocks->published || !clocks->ticks) return cudaErrorInvalidValue;
        constexpr SlabRecording kPub = SlabRecording::kPublished;
        return launch(slab_batch_kernel<P, kPub>, {}, *clocks, slab_batch_grid<kPub>(blocks) - blocks);
      }
      if (clocks->mode != KeyClockMode::kPerKey) return cudaErrorInvalidValue;
      return launch(slab_batch_kernel<P, SlabRecording::kKeyClocks>, {}, *clocks);
    }
  }
  constexpr SlabRecording kOff = SlabRecording::kNone;
  // A batch of one operation (a bulk build, search or delete) runs a kernel with
  // that operation fixed: no dispatch per operation.
  if (!ops.fn && ops.uniform_fn == kFnInsert) {
    using PB = WithLanes<P, kBuildLanes<P>>;  // the bulk build's operations on its lanes
    slab_batch_kernel<PB, kOff, kFnInsert><<<blocks, threads, 0, stream>>>(t.view<PB>(), ops, {}, {}, op_id_base);
    return cudaGetLastError();
  }
  if (searches) return launch(slab_batch_kernel<P, kOff, kFnSearch, true>, {}, {});
  if (!ops.fn && ops.uniform_fn == kFnDelete) return launch(slab_batch_kernel<P, kOff, kFnDelete>, {}, {});
  return launch(slab_batch_kernel<P, kOff>, {}, {});
}

}  // namespace

cudaError_t launch_slab_batch(Mode mode, const DeviceSlabHash& table, const SlabOpBatch& ops, uint32_t threads,
                              cudaStream_t stream, const DeviceRecorderRef* recorder, int64_t op_id_base) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  return with_slab_policy(mode, table.light(), [&](auto policy) -> cudaError_t {
    return launch_policy<decltype(policy)>(table, ops, threads, stream, recorder, nullptr, op_id_base);
  });
}

cudaError_t launch_slab_batch(Mode mode, Variant variant, const DeviceSlabHash& table, const SlabOpBatch& ops,
                              uint32_t threads, cudaStream_t stream, const DeviceRecorderRef* recorder,
                              int64_t op_id_base) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  if (variant == Variant::Fixed && mode != Mode::Multimap) return cudaErrorInvalidValue;
  return with_slab_policy(mode, table.light(), variant, [&](auto policy) -> cudaError_t {
    return launch_policy<decltype(policy)>(table, ops, threads, stream, recorder, nullptr, op_id_base);
  });
}

cudaError_t launch_slab_batch(Mode mode, const DeviceSlabHash& table, const SlabOpBatch& ops, uint32_t threads,
                              cudaStream_t stream, const KeyClockRecorderRef& clocks, int64_t op_id_base) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  return with_slab_policy(mode, table.light(), [&](auto policy) -> cudaError_t {
    return launch_policy<decltype(policy)>(table, ops, threads, stream, nullptr, &clocks, op_id_base);
  });
}

// Every kernel launch_policy may launch for the policy: the unrecorded ones, the
// flush, and each recorder's (map and set: key clocks, warp rounds and the published
// clock, the default; every mode: events).
cudaError_t load_slab_kernels(Mode mode, bool light, Variant variant) {
  if (variant == Variant::Fixed && mode != Mode::Multimap) return cudaErrorInvalidValue;
  return with_slab_policy(mode, light, variant, [&](auto policy) -> cudaError_t {
    using P = decltype(policy);
    cudaFuncAttributes a;
    constexpr SlabRecording kOff = SlabRecording::kNone;
    std::vector<const void*> kernels = {
        (const void*)slab_batch_kernel<P, SlabRecording::kEvents>,
        (const void*)slab_batch_kernel<P, kOff>,
        (const void*)slab_batch_kernel<WithLanes<P, kBuildLanes<P>>, kOff, kFnInsert>,
        (const void*)slab_batch_kernel<P, kOff, kFnSearch, true>,
        (const void*)slab_batch_kernel<P, kOff, kFnDelete>,
        (const void*)slab_flush_kernel<SlabPolicy<P::mode, P::light>>};  // one flush for both variants
    if constexpr (P::mode != Mode::Multimap) {
      kernels.push_back((const void*)slab_batch_kernel<P, SlabRecording::kKeyClocks>);
      kernels.push_back((const void*)slab_batch_kernel<P, SlabRecording::kWarpRounds>);
      kernels.push_back((const void*)slab_batch_kernel<P, SlabRecording::kPublished>);
    }
    for (const void* k : kernels)
      if (const cudaError_t e = cudaFuncGetAttributes(&a, k); e != cudaSuccess) return e;
    return cudaSuccess;
  });
}

cudaError_t launch_slab_flush(Mode mode, const DeviceSlabHash& table, uint32_t threads, cudaStream_t stream) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024) return cudaErrorInvalidValue;
  return with_slab_policy(mode, table.light(), [&](auto policy) -> cudaError_t {
    const uint64_t warps_needed = table.shape().buckets;
    const uint64_t blocks = std::min<uint64_t>((warps_needed * 32 + threads - 1) / threads, uint64_t(sm_count()) * 32);
    slab_flush_kernel<decltype(policy)><<<blocks, threads, 0, stream>>>(table.view<decltype(policy)>());
    return cudaGetLastError();
  });
}

}  // namespace gpulin::slab_hash
