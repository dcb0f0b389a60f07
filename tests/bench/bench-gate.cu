/* gst-cudaedge: a gate for cudaedge-bench's timings.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One thread that holds its stream until the host opens the gate (the
 * first of two words in mapped pinned memory becomes non-zero) or a
 * timeout passes, so that every timed run of a row is queued before the
 * first one starts: the event pairs then time the GPU only, not the
 * host's queueing of each launch.  On a timeout the kernel sets the
 * second word, and the row's times may hold queueing again.
 */
#include <cuda_runtime.h>

#include "bench-gate.h"

static __global__ void
bench_gate_kernel (volatile unsigned *gate, unsigned long long timeout_ns)
{
  unsigned long long t0, t;

  asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (t0));
  while (gate[0] == 0) {
    asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (t));
    if (t - t0 > timeout_ns) {
      gate[1] = 1;
      __threadfence_system ();
      return;
    }
#if __CUDA_ARCH__ >= 700
    __nanosleep (500);
#endif
  }
}

extern "C" cudaError_t
bench_gate_close (cudaStream_t stream, unsigned *gate_device,
    unsigned long long timeout_ns)
{
  bench_gate_kernel <<< 1, 1, 0, stream >>> (gate_device, timeout_ns);
  return cudaGetLastError ();
}
