/* gst-cudaedge: CPU work split into bands of rows
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

#ifndef __GST_CE_BANDS_H__
#define __GST_CE_BANDS_H__

#include <gst/gst.h>

#include "cudaedge-core.h"

G_BEGIN_DECLS

/* Computes rows [row0, row1) of a frame. */
typedef ce_status (*GstCeBandFunc) (gpointer user_data, gint row0,
    gint row1);

/* No band is shorter than this: below it, thread hand-offs cost more than
 * they save. */
#define GST_CE_MIN_BAND_ROWS 32

/* Up to @n_threads bands at once (0: one per core), on a GstSharedTaskPool
 * of n_threads - 1 threads; the calling thread takes one band itself. */
typedef struct _GstCeBands GstCeBands;

GstCeBands *gst_ce_bands_new (guint n_threads);
/* The same on @pool (prepared here; a reference is taken), whose tasks must
 * not depend on each other; NULL or @n_threads 1: one thread.  After a
 * push that fails the rest of the work stays on the calling thread. */
GstCeBands *gst_ce_bands_new_with_pool (guint n_threads, GstTaskPool * pool);
void gst_ce_bands_free (GstCeBands * bands);
guint gst_ce_bands_get_n_threads (GstCeBands * bands);

/* Runs @func over rows [0, @rows) and returns when every band is done:
 * CE_STATUS_OK, or the status of a failed band, whose ce_last_error ()
 * is then the calling thread's too, whichever thread ran it.  @bands may
 * be NULL: one band on the calling thread. */
ce_status gst_ce_bands_run (GstCeBands * bands, gint rows,
    GstCeBandFunc func, gpointer user_data);

G_END_DECLS

#endif /* __GST_CE_BANDS_H__ */
