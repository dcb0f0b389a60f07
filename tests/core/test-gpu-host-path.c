/* gst-cudaedge: the host side of the core's frame path (GLib test framework)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Cases registered by ce_test_register_gpu_host_path () for the core test
 * runner, on what the frame path does per frame besides the GPU's work.
 * Under /cuda/host-path, run everywhere the CUDA path is built, with a
 * device or without:
 *
 * - the table of a context's own pinned blocks (pinned-table-lookups);
 * - picking a device: an id that does not exist is refused, with no
 *   device at all too (device-pick);
 * - on the emulated device, a free of memory the context did not
 *   allocate is refused, as cudaFreeHost refuses it (emulated-host-free).
 *
 * Under /gpu/runtime, skipped, loudly, without a GPU:
 *
 * - a context knows the blocks it allocated, at any offset, without asking
 *   the driver, and forgets them when they are freed, also while frames
 *   run and another thread allocates and frees;
 * - timing is off by default (zero times, no timing events) and on when
 *   asked, per frame, with the same output bytes either way;
 * - a wait returns with every band downloaded, for any number of bands
 *   and streams, timed or not, with frames in flight on both slots.
 */

#include <string.h>

#include <glib.h>

#include "ce-core-test.h"
#include "cudaedge-core.h"
#include "cudaedge-private.h"
#include "cudaedge-testing.h"

static gboolean
skip_without_gpu (void)
{
  int count = 0;

  if (ce_cuda_device_count (&count) == CE_STATUS_OK && count > 0)
    return FALSE;
  g_printerr ("\n*** SKIP %s: no CUDA device (%s) ***\n", g_test_get_path (),
      ce_last_error ());
  g_test_skip ("no CUDA device");
  return TRUE;
}

/* ---- the table itself (no device) ---- */

static void
test_pinned_table_lookups (void)
{
  ce_pinned_table t;
  static guint8 a[1000], b[64], c[4096];
  guint8 many[40];
  int i;

  memset (&t, 0, sizeof t);
  g_assert_false (ce_pinned_table_find (&t, a, 1));

  g_assert_cmpint (ce_pinned_table_add (&t, a, sizeof a), ==, 0);
  g_assert_cmpint (ce_pinned_table_add (&t, b, sizeof b), ==, 0);
  /* the base, an offset inside, the whole block, the last byte */
  g_assert_true (ce_pinned_table_find (&t, a, 1));
  g_assert_true (ce_pinned_table_find (&t, a + 100, 900));
  g_assert_true (ce_pinned_table_find (&t, a, sizeof a));
  g_assert_true (ce_pinned_table_find (&t, a + 999, 1));
  g_assert_true (ce_pinned_table_find (&t, a + 999, 0));
  g_assert_true (ce_pinned_table_find (&t, b + 10, 54));
  /* past the end, or starting after it: not inside one block */
  g_assert_false (ce_pinned_table_find (&t, a + 100, 901));
  g_assert_false (ce_pinned_table_find (&t, a + 1000, 1));
  g_assert_false (ce_pinned_table_find (&t, a + 1, sizeof a));
  g_assert_false (ce_pinned_table_find (&t, a + 10, (size_t) -1));
  g_assert_false (ce_pinned_table_find (&t, b + 60, 5));
  g_assert_false (ce_pinned_table_find (&t, c, 1));

  /* forgotten by its base only */
  g_assert_cmpint (ce_pinned_table_remove (&t, a + 1), ==, 0);
  g_assert_cmpint (ce_pinned_table_remove (&t, c), ==, 0);
  g_assert_cmpint (ce_pinned_table_remove (&t, a), ==, 1);
  g_assert_false (ce_pinned_table_find (&t, a + 100, 1));
  g_assert_true (ce_pinned_table_find (&t, b, sizeof b));
  g_assert_cmpint (ce_pinned_table_remove (&t, a), ==, 0);

  /* grows past its first capacity; removal keeps the others */
  for (i = 0; i < 40; i++)
    g_assert_cmpint (ce_pinned_table_add (&t, many + i, 1), ==, 0);
  g_assert_cmpuint (t.n, ==, 41);
  for (i = 0; i < 40; i += 2)
    g_assert_cmpint (ce_pinned_table_remove (&t, many + i), ==, 1);
  for (i = 0; i < 40; i++)
    g_assert_cmpint (ce_pinned_table_find (&t, many + i, 1), ==, i % 2);
  g_assert_true (ce_pinned_table_find (&t, b, 1));

  ce_pinned_table_clear (&t);
  g_assert_cmpuint (t.n, ==, 0);
  g_assert_false (ce_pinned_table_find (&t, b, 1));
  /* usable again after clear */
  g_assert_cmpint (ce_pinned_table_add (&t, c, sizeof c), ==, 0);
  g_assert_true (ce_pinned_table_find (&t, c + 4000, 96));
  ce_pinned_table_clear (&t);
}

/* ---- frames ---- */

/* The CPU's edges of a frame. */
static guint8 *
cpu_edges_of (const guint8 * src, gsize stride, int w, int h,
    ce_format format, const ce_edge_params * p)
{
  guint8 *want = g_malloc ((gsize) w * h);
  ce_frame f = ce_test_frame (src, stride, w, h, format);

  ce_assert_status (ce_cpu_edge_rows (&f, p, 0, h, want, w), CE_STATUS_OK);
  return want;
}

static guint8 *
cpu_edges (const guint8 * src, gsize stride, int w, int h,
    const ce_edge_params * p)
{
  return cpu_edges_of (src, stride, w, h, CE_FORMAT_GRAY8, p);
}

/* ---- the context's pinned blocks ---- */

/* Blocks from ce_cuda_host_alloc are pinned at any offset, without a
 * driver query per frame; other memory is asked about; freed blocks are
 * forgotten. */
static void
test_context_knows_its_pinned_blocks (void)
{
  const int w = 640, h = 480;
  const gsize stride = 700, offset = 4096 + 64;
  const gsize src_size = offset + stride * h, dst_size = offset + (gsize) w * h;
  ce_cuda_ctx *ctx = NULL;
  guint8 *src_block = NULL, *dst_block = NULL, *src, *dst, *want, *pageable;
  guint8 *pageable_dst;
  unsigned long q0;
  ce_edge_params p;
  ce_frame f;

  if (skip_without_gpu ())
    return;
  ce_edge_params_init (&p);
  ce_assert_status (ce_cuda_ctx_new (-1, 3, &ctx), CE_STATUS_OK);
  if (g_test_failed ())
    return;
  ce_assert_status (ce_cuda_host_alloc (ctx, src_size, (void **) &src_block),
      CE_STATUS_OK);
  ce_assert_status (ce_cuda_host_alloc (ctx, dst_size, (void **) &dst_block),
      CE_STATUS_OK);
  if (g_test_failed ())
    goto out;

  /* the table, through the context */
  g_assert_true (ce_cuda_ctx_pinned_known (ctx, src_block, src_size));
  g_assert_true (ce_cuda_ctx_pinned_known (ctx, src_block + offset,
          src_size - offset));
  g_assert_false (ce_cuda_ctx_pinned_known (ctx, src_block + 1, src_size));
  g_assert_true (ce_cuda_ctx_pinned_known (ctx, dst_block + 17, 1));

  src = src_block + offset;
  dst = dst_block + offset;
  ce_test_fill_random (src_block, src_size);
  want = cpu_edges (src, stride, w, h, &p);
  f = ce_test_frame (src, stride, w, h, CE_FORMAT_GRAY8);

  /* both pinned at an offset: no driver query */
  memset (dst_block, CE_TEST_POISON, dst_size);
  q0 = ce_cuda_pointer_queries ();
  ce_assert_status (ce_cuda_edge_frame (ctx, &f, &p, dst, w, NULL),
      CE_STATUS_OK);
  g_assert_cmpuint (ce_cuda_pointer_queries () - q0, ==, 0);
  ce_assert_rows_equal ("pinned src and dst at an offset", want, w, dst, w,
      w, 0, h, CE_TEST_POISON);
  ce_assert_poisoned ("before dst", dst_block, offset, 0, offset, 0, 1,
      CE_TEST_POISON);

  /* pageable memory is asked about, and staged */
  pageable = g_malloc (stride * h);
  pageable_dst = g_malloc ((gsize) w * h);
  memcpy (pageable, src, stride * h);
  f.data = pageable;
  memset (dst, CE_TEST_POISON, (gsize) w * h);
  q0 = ce_cuda_pointer_queries ();
  ce_assert_status (ce_cuda_edge_frame (ctx, &f, &p, dst, w, NULL),
      CE_STATUS_OK);
  g_assert_cmpuint (ce_cuda_pointer_queries () - q0, ==, 1);
  ce_assert_rows_equal ("pageable src, pinned dst", want, w, dst, w, w, 0,
      h, CE_TEST_POISON);
  memset (pageable_dst, CE_TEST_POISON, (gsize) w * h);
  q0 = ce_cuda_pointer_queries ();
  ce_assert_status (ce_cuda_edge_frame (ctx, &f, &p, pageable_dst, w, NULL),
      CE_STATUS_OK);
  g_assert_cmpuint (ce_cuda_pointer_queries () - q0, ==, 2);
  ce_assert_rows_equal ("pageable src and dst", want, w, pageable_dst, w, w,
      0, h, CE_TEST_POISON);

  /* an image that runs past its block is not taken for pinned by the
   * table (the driver is asked about it instead) */
  g_assert_false (ce_cuda_ctx_pinned_known (ctx, src_block + src_size - 10,
          11));

  ce_assert_status (ce_cuda_host_free (ctx, src_block), CE_STATUS_OK);
  g_assert_false (ce_cuda_ctx_pinned_known (ctx, src_block, 1));
  g_assert_false (ce_cuda_ctx_pinned_known (ctx, src, 1));
  g_assert_true (ce_cuda_ctx_pinned_known (ctx, dst, 1));
  src_block = NULL;
  ce_assert_status (ce_cuda_host_free (ctx, dst_block), CE_STATUS_OK);
  g_assert_false (ce_cuda_ctx_pinned_known (ctx, dst, 1));
  dst_block = NULL;

  g_free (want);
  g_free (pageable);
  g_free (pageable_dst);
out:
  if (src_block)
    ce_cuda_host_free (ctx, src_block);
  if (dst_block)
    ce_cuda_host_free (ctx, dst_block);
  ce_cuda_ctx_free (ctx);
}

typedef struct
{
  ce_cuda_ctx *ctx;
  int rounds;
  int failures;
  int unknown;                  /* blocks the table did not know */
  int remembered;               /* freed blocks the table still knew */
} Churn;

/* A pool's thread: allocates and frees pinned blocks on the context. */
static gpointer
churn_thread (gpointer data)
{
  Churn *c = data;
  void *blocks[8];
  int r, i;

  for (r = 0; r < c->rounds; r++) {
    for (i = 0; i < 8; i++) {
      blocks[i] = NULL;
      if (ce_cuda_host_alloc (c->ctx, 4096 * (1 + i), &blocks[i])
          != CE_STATUS_OK)
        c->failures++;
      else if (!ce_cuda_ctx_pinned_known (c->ctx, blocks[i], 4096 * (1 + i)))
        c->unknown++;
    }
    for (i = 0; i < 8; i++) {
      if (!blocks[i])
        continue;
      if (ce_cuda_host_free (c->ctx, blocks[i]) != CE_STATUS_OK)
        c->failures++;
      else if (ce_cuda_ctx_pinned_known (c->ctx, blocks[i], 1))
        c->remembered++;
    }
  }
  return NULL;
}

/* Frames in pinned blocks on one thread while another allocates and frees
 * blocks on the same context: every frame right, none asked about. */
static void
test_pinned_blocks_from_another_thread (void)
{
  const int w = 320, h = 240, frames = 40;
  const gsize n = (gsize) w * h;
  ce_cuda_ctx *ctx = NULL;
  guint8 *src = NULL, *dst[2] = { NULL, NULL }, *want;
  unsigned long q0;
  ce_edge_params p;
  GThread *thread;
  Churn churn;
  ce_frame f;
  int i;

  if (skip_without_gpu ())
    return;
  ce_edge_params_init (&p);
  ce_assert_status (ce_cuda_ctx_new (-1, 3, &ctx), CE_STATUS_OK);
  if (g_test_failed ())
    return;
  ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &src),
      CE_STATUS_OK);
  ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &dst[0]),
      CE_STATUS_OK);
  ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &dst[1]),
      CE_STATUS_OK);
  if (g_test_failed ())
    goto out;
  ce_test_fill_random (src, n);
  want = cpu_edges (src, w, w, h, &p);
  f = ce_test_frame (src, w, w, h, CE_FORMAT_GRAY8);

  memset (&churn, 0, sizeof churn);
  churn.ctx = ctx;
  churn.rounds = 50;
  thread = g_thread_new ("pool", churn_thread, &churn);
  q0 = ce_cuda_pointer_queries ();
  /* two frames in flight, as the element runs them */
  for (i = 0; i < frames && !g_test_failed (); i++) {
    int slot = i % 2;

    if (i >= 2) {
      ce_assert_status (ce_cuda_frame_wait (ctx, slot, NULL), CE_STATUS_OK);
      ce_assert_rows_equal ("frame while blocks come and go", want, w,
          dst[slot], w, w, 0, h, CE_TEST_POISON);
    }
    memset (dst[slot], CE_TEST_POISON, n);
    ce_assert_status (ce_cuda_edge_frame_submit (ctx, slot, &f, &p, dst[slot],
            w), CE_STATUS_OK);
  }
  for (i = frames - 2; i < frames && !g_test_failed (); i++) {
    ce_assert_status (ce_cuda_frame_wait (ctx, i % 2, NULL), CE_STATUS_OK);
    ce_assert_rows_equal ("last frames", want, w, dst[i % 2], w, w, 0, h,
        CE_TEST_POISON);
  }
  g_assert_cmpuint (ce_cuda_pointer_queries () - q0, ==, 0);
  g_thread_join (thread);
  g_assert_cmpint (churn.failures, ==, 0);
  g_assert_cmpint (churn.unknown, ==, 0);
  g_assert_cmpint (churn.remembered, ==, 0);
  g_free (want);
out:
  ce_cuda_host_free (ctx, src);
  ce_cuda_host_free (ctx, dst[0]);
  ce_cuda_host_free (ctx, dst[1]);
  ce_cuda_ctx_free (ctx);
}

/* ---- timing ---- */

/* Timing off (the default) gives zero times and records no timing events;
 * on gives times; a frame keeps the setting it was submitted with; the
 * bytes are the same every way. */
static void
test_timing_switch (void)
{
  const int w = 1920, h = 1080;
  const gsize n = (gsize) w * h;
  ce_cuda_ctx *ctx = NULL;
  guint8 *src = NULL, *dst[2] = { NULL, NULL }, *want;
  unsigned long e0, events;
  ce_edge_params p;
  ce_timing t;
  ce_frame f;
  int bands, s;

  if (skip_without_gpu ())
    return;
  ce_edge_params_init (&p);
  ce_assert_status (ce_cuda_ctx_new (-1, 3, &ctx), CE_STATUS_OK);
  if (g_test_failed ())
    return;
  ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &src),
      CE_STATUS_OK);
  ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &dst[0]),
      CE_STATUS_OK);
  ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &dst[1]),
      CE_STATUS_OK);
  if (g_test_failed ())
    goto out;
  ce_test_fill_random (src, n);
  want = cpu_edges (src, w, w, h, &p);
  f = ce_test_frame (src, w, w, h, CE_FORMAT_GRAY8);

  for (bands = 1; bands <= 4; bands *= 2) {
    gchar *what;

    ce_cuda_ctx_set_bands (ctx, bands);
    what = g_strdup_printf ("%d bands", bands);

    /* off by default */
    memset (dst[0], CE_TEST_POISON, n);
    t.upload_us = t.kernel_us = t.download_us = -1.0;
    e0 = ce_cuda_events_recorded ();
    ce_assert_status (ce_cuda_edge_frame (ctx, &f, &p, dst[0], w, &t),
        CE_STATUS_OK);
    events = ce_cuda_events_recorded () - e0;
    ce_assert_rows_equal (what, want, w, dst[0], w, w, 0, h, CE_TEST_POISON);
    g_test_message ("%s, untimed: %lu events", what, events);
    g_assert_cmpfloat (t.upload_us, ==, 0.0);
    g_assert_cmpfloat (t.kernel_us, ==, 0.0);
    g_assert_cmpfloat (t.download_us, ==, 0.0);
    /* at most one event between streams per band and one per stream */
    g_assert_cmpuint (events, <=, (unsigned long) bands + 2);

    /* on */
    ce_cuda_ctx_set_timing (ctx, 1);
    memset (dst[0], CE_TEST_POISON, n);
    e0 = ce_cuda_events_recorded ();
    ce_assert_status (ce_cuda_edge_frame (ctx, &f, &p, dst[0], w, &t),
        CE_STATUS_OK);
    events = ce_cuda_events_recorded () - e0;
    ce_assert_rows_equal (what, want, w, dst[0], w, w, 0, h, CE_TEST_POISON);
    g_test_message ("%s, timed: %lu events, upload %.1f us, kernels %.1f us, "
        "download %.1f us", what, events, t.upload_us, t.kernel_us,
        t.download_us);
    g_assert_cmpfloat (t.upload_us, >, 0.0);
    g_assert_cmpfloat (t.kernel_us, >, 0.0);
    g_assert_cmpfloat (t.download_us, >, 0.0);
    g_assert_cmpuint (events, >=, 5 * (unsigned long) bands);

    /* a frame keeps its setting: slot 0 timed, slot 1 not */
    memset (dst[0], CE_TEST_POISON, n);
    memset (dst[1], CE_TEST_POISON2, n);
    ce_assert_status (ce_cuda_edge_frame_submit (ctx, 0, &f, &p, dst[0], w),
        CE_STATUS_OK);
    ce_cuda_ctx_set_timing (ctx, 0);
    ce_assert_status (ce_cuda_edge_frame_submit (ctx, 1, &f, &p, dst[1], w),
        CE_STATUS_OK);
    ce_cuda_ctx_set_timing (ctx, 1);
    for (s = 0; s < 2; s++) {
      t.upload_us = t.kernel_us = t.download_us = -1.0;
      ce_assert_status (ce_cuda_frame_wait (ctx, s, &t), CE_STATUS_OK);
      ce_assert_rows_equal (what, want, w, dst[s], w, w, 0, h,
          s ? CE_TEST_POISON2 : CE_TEST_POISON);
      if (s == 0)
        g_assert_cmpfloat (t.kernel_us, >, 0.0);
      else
        g_assert_cmpfloat (t.kernel_us, ==, 0.0);
    }
    ce_cuda_ctx_set_timing (ctx, 0);
    g_free (what);
  }
  g_free (want);
out:
  ce_cuda_host_free (ctx, src);
  ce_cuda_host_free (ctx, dst[0]);
  ce_cuda_host_free (ctx, dst[1]);
  ce_cuda_ctx_free (ctx);
}

/* ---- the wait ---- */

/* Every band is downloaded when the wait returns: frames of many bands on
 * 2 to 5 streams, timed and not, two in flight (the second with other
 * bytes), edges (GRAY8, and RGBA with its luma kernel) and the upscale.  The outputs are pinned, so bands are
 * downloaded straight into them, poisoned before each frame: a band not
 * yet downloaded at the wait shows. */
static void
test_wait_covers_every_band (void)
{
  const int w = 301, h = 517;
  const gsize n = (gsize) w * h, up_stride = 2 * (gsize) w;
  const int n_streams[] = { 2, 3, 5 };
  const int n_bands[] = { 1, 2, 3, 7, 32 };
  guint8 *src[2], *want, *up_want, *out[2] = { NULL, NULL };
  guint8 *up_out = NULL, *rgba, *rgba_want;
  ce_edge_params p;
  int si, bi, timed, k;

  if (skip_without_gpu ())
    return;
  ce_edge_params_init (&p);
  p.threshold = 30.0;
  for (k = 0; k < 2; k++) {
    src[k] = g_malloc (n);
    ce_test_fill_random (src[k], n);
  }
  want = cpu_edges (src[0], w, w, h, &p);
  rgba = g_malloc (4 * n);
  ce_test_fill_random (rgba, 4 * n);
  rgba_want = cpu_edges_of (rgba, 4 * (gsize) w, w, h, CE_FORMAT_RGBA, &p);
  up_want = g_malloc (up_stride * 2 * h);
  ce_assert_status (ce_cpu_upscale2x_rows (src[1], w, w, h, 1, 0, 2 * h,
          up_want, up_stride), CE_STATUS_OK);

  for (si = 0; si < (int) G_N_ELEMENTS (n_streams) && !g_test_failed ();
      si++) {
    ce_cuda_ctx *ctx = NULL;

    ce_assert_status (ce_cuda_ctx_new (-1, n_streams[si], &ctx),
        CE_STATUS_OK);
    if (g_test_failed ())
      break;
    ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &out[0]),
        CE_STATUS_OK);
    ce_assert_status (ce_cuda_host_alloc (ctx, n, (void **) &out[1]),
        CE_STATUS_OK);
    ce_assert_status (ce_cuda_host_alloc (ctx, up_stride * 2 * h,
            (void **) &up_out), CE_STATUS_OK);
    if (g_test_failed ()) {
      ce_cuda_host_free (ctx, out[0]);
      ce_cuda_host_free (ctx, out[1]);
      ce_cuda_host_free (ctx, up_out);
      ce_cuda_ctx_free (ctx);
      break;
    }
    for (bi = 0; bi < (int) G_N_ELEMENTS (n_bands); bi++)
      for (timed = 0; timed < 2; timed++) {
        gchar *what = g_strdup_printf ("%d streams, %d bands, %s",
            n_streams[si], n_bands[bi], timed ? "timed" : "untimed");
        ce_frame f0 = ce_test_frame (src[0], w, w, h, CE_FORMAT_GRAY8);

        ce_cuda_ctx_set_bands (ctx, n_bands[bi]);
        ce_cuda_ctx_set_timing (ctx, timed);
        memset (out[0], CE_TEST_POISON, n);
        memset (up_out, CE_TEST_POISON2, up_stride * 2 * h);
        ce_assert_status (ce_cuda_edge_frame_submit (ctx, 0, &f0, &p, out[0],
                w), CE_STATUS_OK);
        ce_assert_status (ce_cuda_upscale2x_frame_submit (ctx, 1, src[1], w,
                w, h, 1, up_out, up_stride), CE_STATUS_OK);
        ce_assert_status (ce_cuda_frame_wait (ctx, 0, NULL), CE_STATUS_OK);
        ce_assert_rows_equal (what, want, w, out[0], w, w, 0, h,
            CE_TEST_POISON);
        ce_assert_status (ce_cuda_frame_wait (ctx, 1, NULL), CE_STATUS_OK);
        ce_assert_rows_equal (what, up_want, up_stride, up_out, up_stride,
            up_stride, 0, 2 * h, CE_TEST_POISON2);

        /* the other order of waits, edges on both slots, RGBA on 1 */
        {
          ce_frame f1 = ce_test_frame (rgba, 4 * (gsize) w, w, h,
              CE_FORMAT_RGBA);

          memset (out[0], CE_TEST_POISON, n);
          memset (out[1], CE_TEST_POISON2, n);
          ce_assert_status (ce_cuda_edge_frame_submit (ctx, 1, &f1, &p,
                  out[1], w), CE_STATUS_OK);
          ce_assert_status (ce_cuda_edge_frame_submit (ctx, 0, &f0, &p,
                  out[0], w), CE_STATUS_OK);
          ce_assert_status (ce_cuda_frame_wait (ctx, 1, NULL), CE_STATUS_OK);
          ce_assert_rows_equal (what, rgba_want, w, out[1], w, w, 0, h,
              CE_TEST_POISON2);
          ce_assert_status (ce_cuda_frame_wait (ctx, 0, NULL), CE_STATUS_OK);
          ce_assert_rows_equal (what, want, w, out[0], w, w, 0, h,
              CE_TEST_POISON);
        }
        g_free (what);
      }
    ce_cuda_host_free (ctx, out[0]);
    ce_cuda_host_free (ctx, out[1]);
    ce_cuda_host_free (ctx, up_out);
    out[0] = out[1] = up_out = NULL;
    ce_cuda_ctx_free (ctx);
  }
  for (k = 0; k < 2; k++)
    g_free (src[k]);
  g_free (want);
  g_free (rgba);
  g_free (rgba_want);
  g_free (up_want);
}

/* ---- picking a device ---- */

/* A bad id is refused before any device is asked; -1 gives a usable
 * device where there is one, and the same one a context opens on. */
static void
test_device_pick (void)
{
  int count = 0, picked = 7;
  ce_cuda_ctx *ctx = NULL;

  ce_assert_invalid (ce_cuda_device_pick (-2, &picked), "device id");
  ce_assert_invalid (ce_cuda_device_pick (-1, NULL), "picked");
  if (ce_cuda_device_count (&count) != CE_STATUS_OK || count == 0) {
    g_assert_cmpint (ce_cuda_device_pick (-1, &picked), ==,
        CE_STATUS_NO_DEVICE);
    return;
  }
  ce_assert_status (ce_cuda_device_pick (-1, &picked), CE_STATUS_OK);
  g_assert_cmpint (picked, >=, 0);
  g_assert_cmpint (picked, <, count);
  ce_assert_status (ce_cuda_device_pick (count, &picked),
      CE_STATUS_NO_DEVICE);
  g_assert_nonnull (strstr (ce_last_error (), "does not exist"));
  ce_assert_status (ce_cuda_device_pick (-1, &picked), CE_STATUS_OK);
  ce_assert_status (ce_cuda_ctx_new (-1, 2, &ctx), CE_STATUS_OK);
  if (ctx)
    g_assert_cmpint (ce_cuda_ctx_device_id (ctx), ==, picked);
  ce_cuda_ctx_free (ctx);
}

/* ---- the emulated device's pinned memory ---- */

static void
test_emulated_host_free (void)
{
  int was = ce_cuda_fake_device ();
  ce_cuda_ctx *ctx = NULL;
  void *own = NULL, *other = g_malloc (64);

  ce_cuda_set_fake_device (1);
  ce_assert_status (ce_cuda_ctx_new (-1, 2, &ctx), CE_STATUS_OK);
  if (ctx == NULL)
    goto out;
  ce_assert_status (ce_cuda_host_alloc (ctx, 100, &own), CE_STATUS_OK);
  g_assert_true (ce_cuda_ctx_pinned_known (ctx, own, 100));
  /* not the context's: refused, and still the caller's to free */
  ce_assert_status (ce_cuda_host_free (ctx, other), CE_STATUS_CUDA_ERROR);
  g_assert_nonnull (strstr (ce_last_error (), "not pinned memory"));
  ce_assert_status (ce_cuda_host_free (ctx, own), CE_STATUS_OK);
  g_assert_false (ce_cuda_ctx_pinned_known (ctx, own, 1));
  /* freed once already */
  ce_assert_status (ce_cuda_host_free (ctx, own), CE_STATUS_CUDA_ERROR);
  ce_assert_status (ce_cuda_host_free (ctx, NULL), CE_STATUS_OK);
out:
  ce_cuda_ctx_free (ctx);
  g_free (other);
  ce_cuda_set_fake_device (was);
}

void
ce_test_register_gpu_host_path (void)
{
  ce_test_add ("/cuda/host-path/device-pick", test_device_pick);
  ce_test_add ("/cuda/host-path/pinned-table-lookups",
      test_pinned_table_lookups);
  ce_test_add ("/cuda/host-path/emulated-host-free",
      test_emulated_host_free);
  ce_test_add ("/gpu/runtime/context-knows-its-pinned-blocks",
      test_context_knows_its_pinned_blocks);
  ce_test_add ("/gpu/runtime/pinned-blocks-from-another-thread",
      test_pinned_blocks_from_another_thread);
  ce_test_add ("/gpu/runtime/timing-switch", test_timing_switch);
  ce_test_add ("/gpu/runtime/wait-covers-every-band",
      test_wait_covers_every_band);
}
