/* gst-cudaedge: the core's CUDA runtime behaviour (GLib test framework)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * - a context probes the kernels when it is made (a GPU the build cannot
 *   run on is "no usable device", said once, at start);
 * - frames taller than the grid's y limit (65,535 blocks) give the CPU's
 *   bytes, on host memory and on device memory;
 * - entry points give the calling thread its current device back.
 * Every case is skipped, loudly, without a GPU.
 */

#include <string.h>

#include <glib.h>
#include <cuda_runtime_api.h>

#include "cudaedge-core.h"
#include "cudaedge-device.h"
#include "cudaedge-kernels.h"
#include "cudaedge-testing.h"

static gboolean
skip_without_gpu (void)
{
  int count = 0;

  if (ce_cuda_device_count (&count) == CE_STATUS_OK && count > 0)
    return FALSE;
  g_printerr ("SKIP: no CUDA device: %s\n", ce_last_error ());
  g_test_skip ("no CUDA device");
  return TRUE;
}

static guint8 *
random_bytes (gsize n, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 *p = g_malloc (n);
  gsize i;

  for (i = 0; i < n; i++)
    p[i] = g_rand_int (rand) & 0xff;
  g_rand_free (rand);
  return p;
}

static void
assert_same (const guint8 * want, const guint8 * got, gsize row_bytes,
    gsize rows, const gchar * what)
{
  gsize i;

  for (i = 0; i < row_bytes * rows; i++)
    if (want[i] != got[i])
      g_error ("%s: differs at x=%" G_GSIZE_FORMAT " y=%" G_GSIZE_FORMAT
          ": expected %d, got %d", what, i % row_bytes, i / row_bytes,
          want[i], got[i]);
}

static void
test_context_probes_the_kernels (void)
{
  ce_cuda_ctx *ctx = NULL;

  if (skip_without_gpu ())
    return;
  g_assert_cmpint (ce_cuda_ctx_new (-1, 2, &ctx), ==, CE_STATUS_OK);
  /* On a GPU the build targets the probe passes; an older GPU (not
   * available here) gets CE_STATUS_NO_DEVICE, "no kernel image ...". */
  g_assert_cmpint (ce_kernels_probe (), ==, CE_STATUS_OK);
  ce_cuda_ctx_free (ctx);
}

#define TALL_W 16
#define TALL_H 600000           /* 75,000 blocks of 8 rows: over 65,535 */

static void
test_tall_frame_edges_on_host_memory (void)
{
  guint8 *src, *want, *got;
  ce_edge_params params;
  ce_cuda_ctx *ctx = NULL;
  ce_frame f;
  ce_timing t;

  if (skip_without_gpu ())
    return;
  src = random_bytes ((gsize) TALL_W * TALL_H, 1);
  want = g_malloc ((gsize) TALL_W * TALL_H);
  got = g_malloc ((gsize) TALL_W * TALL_H);
  memset (got, 0xa5, (gsize) TALL_W * TALL_H);
  ce_edge_params_init (&params);
  f.data = src;
  f.stride = TALL_W;
  f.width = TALL_W;
  f.height = TALL_H;
  f.format = CE_FORMAT_GRAY8;
  g_assert_cmpint (ce_cpu_edge_rows (&f, &params, 0, TALL_H, want, TALL_W),
      ==, CE_STATUS_OK);
  g_assert_cmpint (ce_cuda_ctx_new (-1, 2, &ctx), ==, CE_STATUS_OK);
  /* One band: the launches themselves must split the rows. */
  ce_cuda_ctx_set_bands (ctx, 1);
  g_assert_cmpint (ce_cuda_edge_frame (ctx, &f, &params, got, TALL_W, &t),
      ==, CE_STATUS_OK);
  assert_same (want, got, TALL_W, TALL_H, "GRAY8 16x600000 edges");

  ce_cuda_ctx_free (ctx);
  g_free (src);
  g_free (want);
  g_free (got);
}

static void
test_tall_frame_upscale_on_host_memory (void)
{
  const int w = 8, h = 300000, bpp = 4;
  gsize out_bytes = (gsize) 2 * w * bpp * 2 * h;
  guint8 *src, *want, *got;
  ce_cuda_ctx *ctx = NULL;
  ce_timing t;

  if (skip_without_gpu ())
    return;
  src = random_bytes ((gsize) w * bpp * h, 2);
  want = g_malloc (out_bytes);
  got = g_malloc (out_bytes);
  memset (got, 0x5a, out_bytes);
  g_assert_cmpint (ce_cpu_upscale2x_rows (src, (gsize) w * bpp, w, h, bpp, 0,
          2 * h, want, (gsize) 2 * w * bpp), ==, CE_STATUS_OK);
  g_assert_cmpint (ce_cuda_ctx_new (-1, 2, &ctx), ==, CE_STATUS_OK);
  ce_cuda_ctx_set_bands (ctx, 1);
  g_assert_cmpint (ce_cuda_upscale2x_frame (ctx, src, (gsize) w * bpp, w, h,
          bpp, got, (gsize) 2 * w * bpp, &t), ==, CE_STATUS_OK);
  assert_same (want, got, (gsize) 2 * w * bpp, (gsize) 2 * h,
      "RGBA 8x300000 upscale");

  ce_cuda_ctx_free (ctx);
  g_free (src);
  g_free (want);
  g_free (got);
}

static void
test_tall_frame_edges_on_device_memory (void)
{
  gsize n = (gsize) TALL_W * TALL_H;
  guint8 *src, *want, *got, *d_src = NULL;
  ce_edge_params params;
  ce_cuda_dev *dev = NULL;
  ce_frame f;

  if (skip_without_gpu ())
    return;
  src = random_bytes (n, 3);
  want = g_malloc (n);
  got = g_malloc (n);
  memset (got, 0x33, n);
  ce_edge_params_init (&params);
  params.output = CE_OUTPUT_MAGNITUDE;
  f.data = src;
  f.stride = TALL_W;
  f.width = TALL_W;
  f.height = TALL_H;
  f.format = CE_FORMAT_GRAY8;
  g_assert_cmpint (ce_cpu_edge_rows (&f, &params, 0, TALL_H, want, TALL_W),
      ==, CE_STATUS_OK);

  g_assert_cmpint (cudaSetDevice (0), ==, cudaSuccess);
  g_assert_cmpint (cudaMalloc ((void **) &d_src, n), ==, cudaSuccess);
  g_assert_cmpint (cudaMemcpy (d_src, src, n, cudaMemcpyHostToDevice), ==,
      cudaSuccess);
  g_assert_cmpint (ce_cuda_dev_new (&dev), ==, CE_STATUS_OK);
  f.data = d_src;
  g_assert_cmpint (ce_cuda_dev_edge_submit (dev, 0, &f, &params, NULL, 0, got,
          TALL_W), ==, CE_STATUS_OK);
  g_assert_cmpint (ce_cuda_dev_wait (dev, 0, NULL), ==, CE_STATUS_OK);
  assert_same (want, got, TALL_W, TALL_H, "GRAY8 16x600000 on the device");

  ce_cuda_dev_free (dev);
  cudaFree (d_src);
  g_free (src);
  g_free (want);
  g_free (got);
}

typedef struct
{
  int app_device;
  int after[6];
  int pending[6];
} DeviceCheck;

/* An application thread that made its own device current calls every
 * kind of entry point; its current device must not move. */
static gpointer
application_thread (gpointer data)
{
  DeviceCheck *c = data;
  ce_cuda_ctx *ctx = NULL;
  ce_edge_params params;
  guint8 src[64 * 48], dst[64 * 48];
  void *pinned = NULL;
  ce_frame f = { src, 64, 64, 48, CE_FORMAT_GRAY8 };
  ce_timing t;
  int step = 0;

  memset (src, 7, sizeof src);
  ce_edge_params_init (&params);
  cudaSetDevice (c->app_device);
#define RECORD() do { \
    cudaGetDevice (&c->after[step]); \
    c->pending[step++] = ce_cuda_device_switches_pending (); \
  } while (0)
  /* The element's context is on device 0, the application's elsewhere
   * when there are two GPUs. */
  ce_cuda_ctx_new (0, 2, &ctx);
  RECORD ();
  ce_cuda_host_alloc (ctx, 4096, &pinned);
  RECORD ();
  ce_cuda_edge_frame_submit (ctx, 0, &f, &params, dst, 64);
  RECORD ();
  ce_cuda_frame_wait (ctx, 0, &t);
  RECORD ();
  ce_cuda_host_free (ctx, pinned);
  RECORD ();
  ce_cuda_ctx_free (ctx);
  RECORD ();
#undef RECORD
  return NULL;
}

static void
test_entry_points_restore_the_current_device (void)
{
  DeviceCheck c;
  int count = 0, i;

  if (skip_without_gpu ())
    return;
  ce_cuda_device_count (&count);
  c.app_device = count - 1;
  if (count < 2)
    g_test_message ("one GPU: the device cannot visibly move; checking that "
        "no entry point leaves a switch behind");
  g_thread_join (g_thread_new ("application", application_thread, &c));
  for (i = 0; i < 6; i++) {
    g_assert_cmpint (c.after[i], ==, c.app_device);
    g_assert_cmpint (c.pending[i], ==, 0);
  }
}

int
main (int argc, char **argv)
{
  int count = 0;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu/runtime/context-probes-the-kernels",
      test_context_probes_the_kernels);
  g_test_add_func ("/gpu/runtime/tall-frame-edges-on-host-memory",
      test_tall_frame_edges_on_host_memory);
  g_test_add_func ("/gpu/runtime/tall-frame-upscale-on-host-memory",
      test_tall_frame_upscale_on_host_memory);
  g_test_add_func ("/gpu/runtime/tall-frame-edges-on-device-memory",
      test_tall_frame_edges_on_device_memory);
  g_test_add_func ("/gpu/runtime/entry-points-restore-the-current-device",
      test_entry_points_restore_the_current_device);
  if (ce_cuda_device_count (&count) != CE_STATUS_OK || count == 0) {
    g_printerr ("**********************************************************\n"
        "SKIP: every GPU runtime case: no CUDA device (%s)\n"
        "**********************************************************\n",
        ce_last_error ());
  }
  return g_test_run ();
}
