// GPULIN_HD marks a function compiled for host and device under nvcc and as plain
// C++ elsewhere. Below every layer (common/ depends on nothing), so that the
// structures' contract (structures/exec/context.h) and the checkers' per-key
// rules (verify/pq_linear/key_rules.h) share it without either including the other.
#pragma once

#if defined(__CUDACC__)
#define GPULIN_HD __host__ __device__
#define GPULIN_D __device__
#else
#define GPULIN_HD
#define GPULIN_D
#endif
