/* gst-cudaedge compute core: entry points for tests only
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Not part of the core's API: tests, and plugin builds configured with
 * -Dtest-hooks=true, include this header to provoke failures that a
 * working GPU never gives.
 */

#ifndef CUDAEDGE_TESTING_H
#define CUDAEDGE_TESTING_H

#include "cudaedge-core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The wait of the n-th frame submitted from now on (n >= 1) fails with
 * CE_STATUS_CUDA_ERROR, as a device fault would; 0 disarms it.  Lets
 * callers test their recovery without breaking a GPU. */
void ce_cuda_ctx_inject_failure (ce_cuda_ctx * ctx, int n);

/* How many entry points have made their device current and not yet given
 * the calling thread its own back: 0 whenever no core call is running. */
int ce_cuda_device_switches_pending (void);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_TESTING_H */
