/* gst-cudaedge compute core: internal helpers shared by its C and CUDA files.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CUDAEDGE_PRIVATE_H
#define CUDAEDGE_PRIVATE_H

#include "cudaedge-core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inner helpers of the CPU paths, inlined so that gcc vectorises them. */
#if defined(__GNUC__)
#define CE_INLINE static inline __attribute__ ((always_inline))
#else
#define CE_INLINE static inline
#endif

/* Records the calling thread's detailed error message (printf format). */
void ce_set_error (const char *fmt, ...)
#ifdef __GNUC__
    __attribute__ ((format (printf, 1, 2)))
#endif
    ;

/* Argument checks shared by every entry point.  Each records a message
 * naming the argument and returns CE_STATUS_INVALID_ARGUMENT. */
ce_status ce_check_pointer (const void *ptr, const char *name);
ce_status ce_check_size (int width, int height);
ce_status ce_check_stride (size_t stride, size_t row_bytes, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_PRIVATE_H */
