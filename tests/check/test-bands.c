/* gst-cudaedge: CPU work in bands of rows on a task pool
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst_ce_bands_run () over many row counts and thread counts must run
 * every row exactly once and report a failed band, also on pools whose
 * pushes fail: one that queues the task and still reports an error (a
 * thread could not be started; a thread already there runs it later),
 * and one that never runs what it was given.  After such a failure the
 * work stays on the calling thread, nothing runs a band twice, and
 * freeing the bands does not wait for tasks that never run.
 */

#include <gst/gst.h>
#include <gst/check/gstcheck.h>

#include "gstcebands.h"

#define MAX_ROWS 400

typedef struct
{
  gint count[MAX_ROWS];         /* atomic: runs of each row */
  gint fail_row;                /* the band holding it fails; -1: none */
} Rows;

static ce_status
count_rows (gpointer user_data, gint row0, gint row1)
{
  Rows *r = user_data;
  gboolean fail = FALSE;

  for (gint y = row0; y < row1; y++) {
    g_atomic_int_inc (&r->count[y]);
    fail |= y == r->fail_row;
  }
  return fail ? CE_STATUS_INVALID_ARGUMENT : CE_STATUS_OK;
}

/* Every row of [0, rows) ran once and no other row ran. */
static void
assert_once (const Rows * r, gint rows, const gchar * what)
{
  for (gint y = 0; y < MAX_ROWS; y++)
    fail_unless (g_atomic_int_get (&r->count[y]) == (y < rows),
        "%s: row %d of %d ran %d times", what, y, rows,
        g_atomic_int_get (&r->count[y]));
}

/* ---- a shared pool whose pushes queue and still fail ---- */

typedef GstSharedTaskPool FailingPool;
typedef GstSharedTaskPoolClass FailingPoolClass;
G_DEFINE_TYPE (FailingPool, failing_pool, GST_TYPE_SHARED_TASK_POOL);

static gpointer
failing_pool_push (GstTaskPool * pool, GstTaskPoolFunction func,
    gpointer data, GError ** error)
{
  gpointer handle = GST_TASK_POOL_CLASS (failing_pool_parent_class)->push
      (pool, func, data, NULL);

  g_set_error (error, G_THREAD_ERROR, G_THREAD_ERROR_AGAIN,
      "no thread (the task is queued all the same)");
  return handle;
}

static void
failing_pool_class_init (FailingPoolClass * klass)
{
  GST_TASK_POOL_CLASS (klass)->push = failing_pool_push;
}

static void
failing_pool_init (G_GNUC_UNUSED FailingPool * pool)
{
}

/* ---- a pool that keeps what it is given and never runs it ---- */

typedef struct
{
  GstTaskPool parent;
  GPtrArray *funcs, *datas;
} DeadPool;
typedef GstTaskPoolClass DeadPoolClass;
G_DEFINE_TYPE (DeadPool, dead_pool, GST_TYPE_TASK_POOL);

static void
dead_pool_prepare (G_GNUC_UNUSED GstTaskPool * pool,
    G_GNUC_UNUSED GError ** error)
{
}

static void
dead_pool_cleanup (G_GNUC_UNUSED GstTaskPool * pool)
{
  fail ("cleanup would wait for tasks that never run");
}

static gpointer
dead_pool_push (GstTaskPool * pool, GstTaskPoolFunction func, gpointer data,
    GError ** error)
{
  DeadPool *self = (DeadPool *) pool;

  g_ptr_array_add (self->funcs, func);
  g_ptr_array_add (self->datas, data);
  g_set_error (error, G_THREAD_ERROR, G_THREAD_ERROR_AGAIN, "no thread");
  return NULL;
}

static void
dead_pool_finalize (GObject * object)
{
  DeadPool *self = (DeadPool *) object;

  g_ptr_array_unref (self->funcs);
  g_ptr_array_unref (self->datas);
  G_OBJECT_CLASS (dead_pool_parent_class)->finalize (object);
}

static void
dead_pool_class_init (DeadPoolClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = dead_pool_finalize;
  klass->prepare = dead_pool_prepare;
  klass->cleanup = dead_pool_cleanup;
  klass->push = dead_pool_push;
}

static void
dead_pool_init (DeadPool * self)
{
  self->funcs = g_ptr_array_new ();
  self->datas = g_ptr_array_new ();
}

/* ---- a pool that runs each task at once, on a thread of its own ---- */

typedef GstTaskPool NowPool;
typedef GstTaskPoolClass NowPoolClass;
G_DEFINE_TYPE (NowPool, now_pool, GST_TYPE_TASK_POOL);

typedef struct
{
  GstTaskPoolFunction func;
  gpointer data;
} NowTask;

static gpointer
now_pool_thread (gpointer data)
{
  NowTask *t = data;

  t->func (t->data);
  return NULL;
}

/* The task has run when push returns: with it, the first task takes
 * every band, and the calling thread none. */
static gpointer
now_pool_push (G_GNUC_UNUSED GstTaskPool * pool, GstTaskPoolFunction func,
    gpointer data, G_GNUC_UNUSED GError ** error)
{
  NowTask t = { func, data };

  g_thread_join (g_thread_new ("now-pool", now_pool_thread, &t));
  return NULL;
}

static void
now_pool_prepare (G_GNUC_UNUSED GstTaskPool * pool,
    G_GNUC_UNUSED GError ** error)
{
}

static void
now_pool_cleanup (G_GNUC_UNUSED GstTaskPool * pool)
{
}

static void
now_pool_class_init (NowPoolClass * klass)
{
  klass->prepare = now_pool_prepare;
  klass->cleanup = now_pool_cleanup;
  klass->push = now_pool_push;
}

static void
now_pool_init (G_GNUC_UNUSED NowPool * pool)
{
}

/* A band that fails with a message naming its first row. */
static ce_status
fail_with_message (gpointer user_data, gint row0, gint row1)
{
  Rows *r = user_data;

  for (gint y = row0; y < row1; y++)
    g_atomic_int_inc (&r->count[y]);
  ce_set_last_error (row0 == 0 ? "band at row 0 failed" : "a later band");
  return row0 == 0 ? CE_STATUS_OUT_OF_MEMORY : CE_STATUS_OK;
}

/* ---- cases ---- */

GST_START_TEST (test_every_row_once_on_any_number_of_threads)
{
  static const gint row_counts[] = { 0, 1, 31, 32, 63, 64, 65, 97, 128, 255,
    256, 257, 399, 400
  };

  for (guint t = 1; t <= 9; t++) {
    GstCeBands *bands = gst_ce_bands_new (t);

    for (guint i = 0; i < G_N_ELEMENTS (row_counts); i++) {
      Rows *r = g_new0 (Rows, 1);

      r->fail_row = -1;
      fail_unless_equals_int (gst_ce_bands_run (bands, row_counts[i],
              count_rows, r), CE_STATUS_OK);
      assert_once (r, row_counts[i], "shared pool");
      g_free (r);
    }
    gst_ce_bands_free (bands);
  }
}

GST_END_TEST;

static ce_status
count_rows_slowly (gpointer user_data, gint row0, gint row1)
{
  g_usleep (2000);
  return count_rows (user_data, row0, row1);
}

typedef struct
{
  Rows rows;
  GMutex lock;
  GCond overlap;                /* signalled when two bands run at once */
  GHashTable *threads;          /* the threads that ran a band */
  gint running, most;           /* bands running at once, now and at most */
} Spread;

/* Each band waits, up to 10 s, until two bands are running at the same
 * time, so that a pool that runs bands together shows it whatever the
 * scheduler does, and one that runs them one after the other still
 * ends (with most == 1). */
static ce_status
note_thread_waiting (gpointer user_data, gint row0, gint row1)
{
  Spread *s = user_data;
  gint64 deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  g_mutex_lock (&s->lock);
  g_hash_table_add (s->threads, g_thread_self ());
  s->running++;
  s->most = MAX (s->most, s->running);
  if (s->most > 1)
    g_cond_broadcast (&s->overlap);
  while (s->most < 2) {
    if (!g_cond_wait_until (&s->overlap, &s->lock, deadline))
      break;
  }
  s->running--;
  g_mutex_unlock (&s->lock);
  return count_rows (&s->rows, row0, row1);
}

/* Bands on 4 threads run on more than one thread, at the same time (4
 * bands of 64 rows, each waiting for another to run beside it; a pool
 * that ran them one after the other, or all on the calling thread, would
 * show one). */
GST_START_TEST (test_bands_run_on_several_threads_at_once)
{
  GstCeBands *bands = gst_ce_bands_new (4);
  Spread *s = g_new0 (Spread, 1);

  g_mutex_init (&s->lock);
  g_cond_init (&s->overlap);
  s->threads = g_hash_table_new (NULL, NULL);
  s->rows.fail_row = -1;
  fail_unless_equals_int (gst_ce_bands_get_n_threads (bands), 4);
  fail_unless_equals_int (gst_ce_bands_run (bands, 256, note_thread_waiting,
          s), CE_STATUS_OK);
  assert_once (&s->rows, 256, "bands on 4 threads");
  fail_unless (g_hash_table_size (s->threads) > 1,
      "every band ran on one thread");
  fail_unless (s->most > 1, "the bands ran one after another");
  gst_ce_bands_free (bands);
  g_hash_table_unref (s->threads);
  g_cond_clear (&s->overlap);
  g_mutex_clear (&s->lock);
  g_free (s);
}

GST_END_TEST;

/* run () returns only once every band is done, the pool's as well. */
GST_START_TEST (test_returns_when_every_band_is_done)
{
  GstCeBands *bands = gst_ce_bands_new (5);

  for (gint i = 0; i < 20; i++) {
    Rows *r = g_new0 (Rows, 1);

    r->fail_row = -1;
    fail_unless_equals_int (gst_ce_bands_run (bands, 320, count_rows_slowly,
            r), CE_STATUS_OK);
    assert_once (r, 320, "slow bands");
    g_free (r);
  }
  gst_ce_bands_free (bands);
}

GST_END_TEST;

GST_START_TEST (test_a_failed_band_is_reported)
{
  GstCeBands *bands = gst_ce_bands_new (4);

  for (gint fail_row = 0; fail_row < 256; fail_row += 37) {
    Rows *r = g_new0 (Rows, 1);

    r->fail_row = fail_row;
    fail_unless_equals_int (gst_ce_bands_run (bands, 256, count_rows, r),
        CE_STATUS_INVALID_ARGUMENT);
    assert_once (r, 256, "failing band");
    g_free (r);
  }
  gst_ce_bands_free (bands);
}

GST_END_TEST;

/* A band that fails on a pool thread: its message, kept per thread by the
 * core, is the caller's ce_last_error () when run () returns. */
GST_START_TEST (test_a_failed_band_s_message_reaches_the_caller)
{
  GstTaskPool *pool = g_object_new (now_pool_get_type (), NULL);
  GstCeBands *bands;
  Rows *r = g_new0 (Rows, 1);

  gst_object_ref_sink (pool);
  bands = gst_ce_bands_new_with_pool (4, pool);
  ce_set_last_error ("stale message of the calling thread");
  fail_unless_equals_int (gst_ce_bands_run (bands, 256, fail_with_message, r),
      CE_STATUS_OUT_OF_MEMORY);
  assert_once (r, 256, "bands on the pool's thread");
  fail_unless_equals_string (ce_last_error (), "band at row 0 failed");
  gst_ce_bands_free (bands);
  gst_object_unref (pool);
  g_free (r);
}

GST_END_TEST;

GST_START_TEST (test_push_error_with_the_task_queued_runs_each_band_once)
{
  GstTaskPool *pool = g_object_new (failing_pool_get_type (), NULL);
  GstCeBands *bands;
  Rows *r[3];

  gst_object_ref_sink (pool);
  gst_shared_task_pool_set_max_threads (GST_SHARED_TASK_POOL (pool), 3);
  bands = gst_ce_bands_new_with_pool (4, pool);
  for (guint i = 0; i < G_N_ELEMENTS (r); i++) {
    r[i] = g_new0 (Rows, 1);
    r[i]->fail_row = -1;
    fail_unless_equals_int (gst_ce_bands_run (bands, 256, count_rows, r[i]),
        CE_STATUS_OK);
  }
  /* The queued task has run or runs now; cleanup waits for it. */
  gst_ce_bands_free (bands);
  gst_task_pool_cleanup (pool);
  for (guint i = 0; i < G_N_ELEMENTS (r); i++) {
    assert_once (r[i], 256, "queued despite the error");
    g_free (r[i]);
  }
  gst_object_unref (pool);
}

GST_END_TEST;

GST_START_TEST (test_push_error_with_no_thread_ever_does_not_hang)
{
  DeadPool *pool = g_object_new (dead_pool_get_type (), NULL);
  GstCeBands *bands;
  Rows *r = g_new0 (Rows, 1);

  gst_object_ref_sink (pool);
  bands = gst_ce_bands_new_with_pool (4, GST_TASK_POOL (pool));
  r->fail_row = -1;
  fail_unless_equals_int (gst_ce_bands_run (bands, 256, count_rows, r),
      CE_STATUS_OK);
  assert_once (r, 256, "dead pool");
  fail_unless_equals_int (gst_ce_bands_run (bands, 256, count_rows, r),
      CE_STATUS_OK);
  fail_unless_equals_int (pool->funcs->len, 1);     /* no second push */
  gst_ce_bands_free (bands);    /* no cleanup: it would hang */

  /* Run late, the task finds no band and drops its reference. */
  for (guint i = 0; i < pool->funcs->len; i++)
    ((GstTaskPoolFunction) g_ptr_array_index (pool->funcs, i))
        (g_ptr_array_index (pool->datas, i));
  for (gint y = 0; y < 256; y++)
    fail_unless_equals_int (r->count[y], 2);
  g_free (r);
  gst_object_unref (pool);
}

GST_END_TEST;

static Suite *
bands_suite (void)
{
  Suite *s = suite_create ("cebands");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_row_once_on_any_number_of_threads);
  tcase_add_test (tc, test_bands_run_on_several_threads_at_once);
  tcase_add_test (tc, test_returns_when_every_band_is_done);
  tcase_add_test (tc, test_a_failed_band_is_reported);
  tcase_add_test (tc, test_a_failed_band_s_message_reaches_the_caller);
  tcase_add_test (tc, test_push_error_with_the_task_queued_runs_each_band_once);
  tcase_add_test (tc, test_push_error_with_no_thread_ever_does_not_hang);
  return s;
}

GST_CHECK_MAIN (bands);
