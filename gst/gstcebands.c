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


#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcebands.h"

GST_DEBUG_CATEGORY_STATIC (gst_ce_bands_debug);
#define GST_CAT_DEFAULT gst_ce_bands_debug

struct _GstCeBands
{
  GstTaskPool *pool;            /* NULL with one thread */
  guint n_threads;
};

typedef struct
{
  GstCeBandFunc func;
  gpointer user_data;
  gint row0, row1;
  ce_status status;
} GstCeBand;

static void
gst_ce_band_run (gpointer data)
{
  GstCeBand *band = data;

  band->status = band->func (band->user_data, band->row0, band->row1);
}

GstCeBands *
gst_ce_bands_new (guint n_threads)
{
  static gsize done = 0;
  GstCeBands *bands;
  GError *err = NULL;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_ce_bands_debug, "cebands", 0,
        "gst-cudaedge CPU bands");
    g_once_init_leave (&done, 1);
  }

  bands = g_new0 (GstCeBands, 1);
  bands->n_threads = n_threads ? n_threads : g_get_num_processors ();
  if (bands->n_threads > 1) {
    bands->pool = gst_shared_task_pool_new ();
    gst_shared_task_pool_set_max_threads (GST_SHARED_TASK_POOL (bands->pool),
        bands->n_threads - 1);
    gst_task_pool_prepare (bands->pool, &err);
    if (err) {
      GST_WARNING ("no task pool, CPU frames use one thread: %s",
          err->message);
      g_clear_error (&err);
      gst_clear_object (&bands->pool);
      bands->n_threads = 1;
    }
  }
  GST_DEBUG ("CPU work on up to %u threads", bands->n_threads);
  return bands;
}

void
gst_ce_bands_free (GstCeBands * bands)
{
  if (!bands)
    return;
  if (bands->pool) {
    gst_task_pool_cleanup (bands->pool);
    gst_object_unref (bands->pool);
  }
  g_free (bands);
}

guint
gst_ce_bands_get_n_threads (GstCeBands * bands)
{
  return bands ? bands->n_threads : 1;
}

ce_status
gst_ce_bands_run (GstCeBands * bands, gint rows, GstCeBandFunc func,
    gpointer user_data)
{
  GstCeBand *band;
  gpointer *handles;
  ce_status status = CE_STATUS_OK;
  gint n, i, band_rows;

  n = MIN ((gint) gst_ce_bands_get_n_threads (bands),
      rows / GST_CE_MIN_BAND_ROWS);
  if (n <= 1 || bands->pool == NULL)
    return func (user_data, 0, rows);

  band_rows = (rows + n - 1) / n;
  n = (rows + band_rows - 1) / band_rows;
  band = g_newa (GstCeBand, n);
  handles = g_newa (gpointer, n);
  for (i = 0; i < n; i++) {
    band[i].func = func;
    band[i].user_data = user_data;
    band[i].row0 = i * band_rows;
    band[i].row1 = MIN (rows, (i + 1) * band_rows);
    band[i].status = CE_STATUS_OK;
  }

  for (i = 0; i < n - 1; i++) {
    GError *err = NULL;

    handles[i] = gst_task_pool_push (bands->pool, gst_ce_band_run, &band[i],
        &err);
    if (err) {
      /* Not queued: done here instead. */
      g_clear_error (&err);
      handles[i] = NULL;
      gst_ce_band_run (&band[i]);
    }
  }
  gst_ce_band_run (&band[n - 1]);

  /* join () returns once the band has run, and publishes its status. */
  for (i = 0; i < n - 1; i++) {
    if (handles[i])
      gst_task_pool_join (bands->pool, handles[i]);
  }
  for (i = 0; i < n; i++) {
    if (band[i].status != CE_STATUS_OK) {
      status = band[i].status;
      break;
    }
  }
  return status;
}
