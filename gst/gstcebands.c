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
  /* A push failed: the pool may hold a task that no thread will run, so
   * nothing more is pushed and the pool is not cleaned up (its cleanup
   * would wait for that task). */
  gboolean degraded;
};

/* One gst_ce_bands_run: bands are claimed by number, by the calling
 * thread and by the pool's tasks alike, so each runs exactly once
 * whichever thread takes it, and the caller waits for the bands, not for
 * the tasks.  A task that runs late (queued while no thread could start)
 * finds no band left; its reference keeps the job alive until then. */
typedef struct
{
  gint ref;                     /* atomic */
  gint next;                    /* atomic: the next band to claim */
  gint n, band_rows, rows;
  GstCeBandFunc func;
  gpointer user_data;
  GMutex lock;
  GCond cond;
  gint done;                    /* bands finished (lock) */
  ce_status status;             /* the first failure (lock) */
  gchar *message;               /* its ce_last_error () (lock): the
                                 * message is per thread */
} GstCeBandsJob;

static void
gst_ce_bands_job_unref (GstCeBandsJob * job)
{
  if (g_atomic_int_dec_and_test (&job->ref)) {
    g_mutex_clear (&job->lock);
    g_cond_clear (&job->cond);
    g_free (job->message);
    g_free (job);
  }
}

/* Runs bands until none is left to claim. */
static void
gst_ce_bands_job_work (GstCeBandsJob * job)
{
  gint i;

  while ((i = g_atomic_int_add (&job->next, 1)) < job->n) {
    gint row0 = i * job->band_rows;
    ce_status st = job->func (job->user_data, row0,
        MIN (job->rows, row0 + job->band_rows));

    g_mutex_lock (&job->lock);
    if (st != CE_STATUS_OK && job->status == CE_STATUS_OK) {
      job->status = st;
      job->message = g_strdup (ce_last_error ());
    }
    if (++job->done == job->n)
      g_cond_broadcast (&job->cond);
    g_mutex_unlock (&job->lock);
  }
}

static void
gst_ce_bands_job_task (gpointer data)
{
  gst_ce_bands_job_work (data);
  gst_ce_bands_job_unref (data);
}

static void
gst_ce_bands_init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_ce_bands_debug, "cebands", 0,
        "gst-cudaedge CPU bands");
    g_once_init_leave (&done, 1);
  }
}

GstCeBands *
gst_ce_bands_new (guint n_threads)
{
  GstTaskPool *pool = NULL;
  GstCeBands *bands;

  n_threads = n_threads ? n_threads : g_get_num_processors ();
  if (n_threads > 1) {
    pool = gst_shared_task_pool_new ();
    gst_shared_task_pool_set_max_threads (GST_SHARED_TASK_POOL (pool),
        n_threads - 1);
  }
  bands = gst_ce_bands_new_with_pool (n_threads, pool);
  if (pool)
    gst_object_unref (pool);
  return bands;
}

GstCeBands *
gst_ce_bands_new_with_pool (guint n_threads, GstTaskPool * pool)
{
  GstCeBands *bands;
  GError *err = NULL;

  gst_ce_bands_init_debug ();
  bands = g_new0 (GstCeBands, 1);
  bands->n_threads = n_threads ? n_threads : g_get_num_processors ();
  if (bands->n_threads > 1 && pool) {
    bands->pool = gst_object_ref (pool);
    gst_task_pool_prepare (bands->pool, &err);
    if (err) {
      GST_WARNING ("no task pool, CPU frames use one thread: %s",
          err->message);
      g_clear_error (&err);
      gst_clear_object (&bands->pool);
    }
  }
  if (!bands->pool)
    bands->n_threads = 1;
  GST_DEBUG ("CPU work on up to %u threads", bands->n_threads);
  return bands;
}

void
gst_ce_bands_free (GstCeBands * bands)
{
  if (!bands)
    return;
  if (bands->pool) {
    if (!bands->degraded)
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
  GstCeBandsJob *job;
  ce_status status;
  gint n, i;

  n = MIN ((gint) gst_ce_bands_get_n_threads (bands),
      rows / GST_CE_MIN_BAND_ROWS);
  if (n <= 1 || bands->pool == NULL || bands->degraded)
    return func (user_data, 0, rows);

  job = g_new0 (GstCeBandsJob, 1);
  job->ref = 1;
  job->band_rows = (rows + n - 1) / n;
  job->n = (rows + job->band_rows - 1) / job->band_rows;
  job->rows = rows;
  job->func = func;
  job->user_data = user_data;
  job->status = CE_STATUS_OK;
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);

  /* One task per band but the caller's; each may take any band. */
  for (i = 0; i < job->n - 1; i++) {
    GError *err = NULL;
    gpointer handle;

    /* The task's reference: a pool may queue a task and return no
     * handle (GstTaskPool's default) or an error (below), so it is the
     * task's to drop, whenever it runs. */
    g_atomic_int_inc (&job->ref);
    handle = gst_task_pool_push (bands->pool, gst_ce_bands_job_task, job,
        &err);
    /* The bands tell when they are done: no handle is joined. */
    if (handle)
      gst_task_pool_dispose_handle (bands->pool, handle);
    if (err) {
      /* Perhaps queued anyway, with no thread to run it: the bands left
       * are this thread's, and the pool takes no more. */
      GST_WARNING ("CPU bands on fewer threads from now on: %s",
          err->message);
      g_clear_error (&err);
      bands->degraded = TRUE;
      bands->n_threads = 1;
      break;
    }
  }
  gst_ce_bands_job_work (job);

  g_mutex_lock (&job->lock);
  while (job->done < job->n)
    g_cond_wait (&job->cond, &job->lock);
  status = job->status;
  /* The failed band's message, on the caller's thread, whichever thread
   * ran the band. */
  if (status != CE_STATUS_OK)
    ce_set_last_error (job->message);
  g_mutex_unlock (&job->lock);
  gst_ce_bands_job_unref (job);
  return status;
}
