/* gst-cudaedge: a gate for cudaedge-bench's timings (bench-gate.cu).
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_GATE_H
#define BENCH_GATE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Queues on @stream a wait until @gate_device[0] (the device address of
 * two words of mapped pinned memory) is non-zero, or @timeout_ns have
 * passed; a timeout sets @gate_device[1] to 1. */
cudaError_t bench_gate_close (cudaStream_t stream, unsigned *gate_device,
    unsigned long long timeout_ns);

#ifdef __cplusplus
}
#endif

#endif
