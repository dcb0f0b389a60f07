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
/* The same for a plane of @rows rows: its span must be addressable. */
ce_status ce_check_plane (size_t stride, size_t row_bytes, int rows,
    const char *name);

/* ---- CUDA builds only (cudaedge-cuda.c) ---- */

/* The page-locked blocks a CUDA context allocated itself with
 * ce_cuda_host_alloc (), so that the frame path can tell pinned memory
 * from a pointer without asking the driver (cudaPointerGetAttributes) on
 * every frame.  Plain data: the context holds its own mutex around every
 * call, since pools allocate and free on other threads than the one
 * submitting frames. */
typedef struct
{
  uintptr_t base;
  size_t size;
} ce_pinned_block;

typedef struct
{
  ce_pinned_block *blocks;
  size_t n, cap;
} ce_pinned_table;

/* 0, or -1 when the table cannot grow (the block is then not known, and
 * the frame path asks the driver about it as before). */
int ce_pinned_table_add (ce_pinned_table * table, const void *base,
    size_t size);
/* 1 when the block that starts at @base was known and is forgotten. */
int ce_pinned_table_remove (ce_pinned_table * table, const void *base);
/* 1 when the bytes [ptr, ptr + extent) lie inside one known block (an
 * extent of 0 counts as 1). */
int ce_pinned_table_find (const ce_pinned_table * table, const void *ptr,
    size_t extent);
void ce_pinned_table_clear (ce_pinned_table * table);

/* For the core's tests.  Whether @ctx's own table (not the driver) says
 * that [ptr, ptr + extent) is page-locked. */
int ce_cuda_ctx_pinned_known (ce_cuda_ctx * ctx, const void *ptr,
    size_t extent);
/* Counts, on the calling thread, of the driver queries the frame path made
 * about host pointers (cudaPointerGetAttributes) and of the CUDA events it
 * recorded, since the thread started. */
unsigned long ce_cuda_pointer_queries (void);
unsigned long ce_cuda_events_recorded (void);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_PRIVATE_H */
