/* gst-cudaedge: the core's CUDA runtime behaviour (GLib test framework)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Cases under /gpu/runtime, registered by ce_test_register_gpu_runtime ()
 * for the core test runner:
 *
 * - a context probes the kernels when it is made: a GPU the build has no
 *   kernel image for is "no usable device", said at start;
 * - frames taller than a grid holds (65,535 blocks along y) give the CPU's
 *   bytes, for every kernel, on host memory and on device memory;
 * - entry points give the calling thread its current device back.
 *
 * Every case is skipped, loudly, without a GPU.  Assertions do not abort
 * (see ce-core-test.h): a case checks g_test_failed () before it goes on
 * from a step the rest needs.
 */

#include <string.h>

#include <glib.h>
#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>

#include "ce-core-test.h"
#include "cudaedge-core.h"
#include "cudaedge-device.h"
#include "cudaedge-kernels.h"
#include "cudaedge-staged.h"
#include "cudaedge-testing.h"

/* Heights past the grid's y limit for each kind of kernel: blocks of 8
 * rows (the luma, the staged per-pixel kernels), of 16 output rows (the
 * upscale), of 32 rows (the staged tiled kernels) and of 64 rows (past
 * the fused kernel's too: its short kernel's blocks take 16). */
#define ROWS_PAST_8 600000
#define ROWS_PAST_16 600000     /* input rows: 1,200,000 output rows */
#define ROWS_PAST_32 2200000
#define ROWS_PAST_64 4300000

G_STATIC_ASSERT (ROWS_PAST_8 > CE_GRID_Y_MAX * 8);
G_STATIC_ASSERT (2 * ROWS_PAST_16 > CE_GRID_Y_MAX * 16);
G_STATIC_ASSERT (ROWS_PAST_32 > CE_GRID_Y_MAX * 32);
G_STATIC_ASSERT (ROWS_PAST_64 > CE_GRID_Y_MAX * 64);

static int
gpu_count (void)
{
  int count = 0;

  if (ce_cuda_device_count (&count) != CE_STATUS_OK)
    return 0;
  return count;
}

static gboolean
skip_without_gpu (void)
{
  if (gpu_count () > 0)
    return FALSE;
  g_printerr ("\n*** SKIP %s: no CUDA device (%s) ***\n", g_test_get_path (),
      ce_last_error ());
  g_test_skip ("no CUDA device");
  return TRUE;
}

static guint8 *
random_bytes (gsize n)
{
  guint8 *p = g_malloc (n);

  ce_test_fill_random (p, n);
  return p;
}

static guint8 *
poisoned_bytes (gsize n)
{
  guint8 *p = g_malloc (n);

  memset (p, CE_TEST_POISON, n);
  return p;
}

/* A CUDA runtime call of the test itself; a failure fails the case. */
#define CUDA_OK(call) cuda_ok ((call), #call, __FILE__, __LINE__)

static gboolean
cuda_ok (cudaError_t err, const char *call, const char *file, int line)
{
  if (err == cudaSuccess)
    return TRUE;
  ce_test_fail_at (file, line, G_STRFUNC, "%s: %s", call,
      cudaGetErrorString (err));
  return FALSE;
}

/* A device copy of n bytes of h, or NULL (the case failed). */
static gpointer
to_device (const void *h, gsize n)
{
  gpointer d = NULL;

  if (!CUDA_OK (cudaMalloc (&d, n)))
    return NULL;
  if (!CUDA_OK (cudaMemcpy (d, h, n, cudaMemcpyHostToDevice))) {
    cudaFree (d);
    return NULL;
  }
  return d;
}

static gboolean
to_host (void *h, const void *d, gsize n)
{
  return CUDA_OK (cudaMemcpy (h, d, n, cudaMemcpyDeviceToHost));
}

/* ---- the kernel probe ---- */

/* On a GPU the build has code for, the context opens and the probe says
 * so.  The other branch cannot happen on such a GPU; it is provoked by a
 * build for another architecture only (-Dcuda-arch=100 -Dcuda-ptx= on a
 * Hopper GPU), run with CE_TEST_EXPECT_NO_KERNEL_IMAGE=1: the context must
 * then fail with CE_STATUS_NO_DEVICE and say why. */
static void
test_context_probes_the_kernels (void)
{
  gboolean expect_none = g_getenv ("CE_TEST_EXPECT_NO_KERNEL_IMAGE") != NULL;
  ce_cuda_ctx *ctx = NULL;
  ce_status status;

  if (skip_without_gpu ())
    return;
  status = ce_cuda_ctx_new (-1, 2, &ctx);
  if (expect_none) {
    char *why = g_strdup (ce_last_error ());

    g_test_message ("context: %s: %s", ce_status_string (status), why);
    g_assert_cmpint (status, ==, CE_STATUS_NO_DEVICE);
    g_assert_null (ctx);
    g_assert_nonnull (strstr (why, "no kernel image for this device "
            "(compute capability "));
    g_assert_nonnull (strstr (why, "; this build has "));
    if (CUDA_OK (cudaSetDevice (0)))
      ce_assert_status (ce_kernels_probe (), CE_STATUS_NO_DEVICE);
    ce_cuda_ctx_free (ctx);
    g_free (why);
    return;
  }
  ce_assert_status (status, CE_STATUS_OK);
  if (ctx && CUDA_OK (cudaSetDevice (ce_cuda_ctx_device_id (ctx))))
    ce_assert_status (ce_kernels_probe (), CE_STATUS_OK);
  ce_cuda_ctx_free (ctx);
}

/* ---- frames taller than a grid ---- */

/* The edge chain of a host frame on a context with one band, so that each
 * kernel gets the whole height in one range, against the CPU. */
static void
check_tall_edges (ce_format format, int bpp, int width, int height,
    const ce_edge_params * params, const gchar * what)
{
  gsize n = (gsize) width * height;
  guint8 *src, *want, *got;
  ce_cuda_ctx *ctx = NULL;
  ce_frame f;

  src = random_bytes (n * bpp);
  want = g_malloc (n);
  got = poisoned_bytes (n);
  f = ce_test_frame (src, (gsize) width * bpp, width, height, format);
  ce_assert_status (ce_cpu_edge_rows (&f, params, 0, height, want, width),
      CE_STATUS_OK);
  ce_assert_status (ce_cuda_ctx_new (-1, 2, &ctx), CE_STATUS_OK);
  if (g_test_failed ())
    goto out;
  ce_cuda_ctx_set_bands (ctx, 1);
  ce_assert_status (ce_cuda_edge_frame (ctx, &f, params, got, width, NULL),
      CE_STATUS_OK);
  ce_assert_rows_equal (what, want, width, got, width, width, 0, height,
      CE_TEST_POISON);
out:
  ce_cuda_ctx_free (ctx);
  g_free (src);
  g_free (want);
  g_free (got);
}

static void
test_tall_gray8_edges (void)
{
  ce_edge_params p;

  if (skip_without_gpu ())
    return;
  ce_edge_params_init (&p);
  check_tall_edges (CE_FORMAT_GRAY8, 1, 16, ROWS_PAST_8, &p,
      "GRAY8 16x600000");
}

/* A 4-byte format: the luma kernel (8 rows a block) splits its launch. */
static void
test_tall_rgba_edges (void)
{
  ce_edge_params p;

  if (skip_without_gpu ())
    return;
  ce_edge_params_init (&p);
  p.threshold = 40.0;
  check_tall_edges (CE_FORMAT_RGBA, 4, 16, ROWS_PAST_8, &p,
      "RGBA 16x600000");
}

/* Past the fused kernel's own limit (its short kernel's blocks take 16
 * rows, so this frame takes five launches), with the border rule at the
 * top and bottom of the frame in the first and last launches' reach. */
static void
test_tall_fused_edges (void)
{
  ce_edge_params p;

  if (skip_without_gpu ())
    return;
  ce_edge_params_init (&p);
  p.border = CE_BORDER_REFLECT;
  p.output = CE_OUTPUT_MAGNITUDE;
  check_tall_edges (CE_FORMAT_GRAY8, 1, 8, ROWS_PAST_64, &p,
      "GRAY8 8x4300000, reflect, magnitude");
}

static void
check_tall_upscale (int width, int height, int bpp, const gchar * what)
{
  gsize src_stride = (gsize) width * bpp, dst_stride = 2 * src_stride;
  gsize out_bytes = dst_stride * 2 * height;
  guint8 *src, *want, *got;
  ce_cuda_ctx *ctx = NULL;

  src = random_bytes (src_stride * height);
  want = g_malloc (out_bytes);
  got = poisoned_bytes (out_bytes);
  ce_assert_status (ce_cpu_upscale2x_rows (src, src_stride, width, height,
          bpp, 0, 2 * height, want, dst_stride), CE_STATUS_OK);
  ce_assert_status (ce_cuda_ctx_new (-1, 2, &ctx), CE_STATUS_OK);
  if (g_test_failed ())
    goto out;
  ce_cuda_ctx_set_bands (ctx, 1);
  ce_assert_status (ce_cuda_upscale2x_frame (ctx, src, src_stride, width,
          height, bpp, got, dst_stride, NULL), CE_STATUS_OK);
  ce_assert_rows_equal (what, want, dst_stride, got, dst_stride, dst_stride,
      0, 2 * height, CE_TEST_POISON);
out:
  ce_cuda_ctx_free (ctx);
  g_free (src);
  g_free (want);
  g_free (got);
}

static void
test_tall_upscale (void)
{
  if (skip_without_gpu ())
    return;
  /* 600,000 output rows: one launch. */
  check_tall_upscale (8, 300000, 1, "GRAY8 8x300000 upscale");
  /* 1,200,000 output rows: two launches. */
  check_tall_upscale (8, ROWS_PAST_16, 1, "GRAY8 8x600000 upscale");
  check_tall_upscale (4, ROWS_PAST_16, 4, "RGBA 4x600000 upscale");
}

/* Frames in device memory (ce_cuda_dev): the luma, fused and upscale
 * launchers get the whole height at once. */
static void
test_tall_frames_on_device_memory (void)
{
  const int w = 16, h = ROWS_PAST_8, bpp = 4;
  gsize n = (gsize) w * h, src_stride = (gsize) w * bpp;
  gsize up_stride = 2 * src_stride, up_bytes = up_stride * 2 * h;
  guint8 *src, *want, *got, *d_src = NULL, *d_up = NULL;
  ce_edge_params params;
  ce_cuda_dev *dev = NULL;
  ce_frame f;

  if (skip_without_gpu ())
    return;
  src = random_bytes (n * bpp);
  want = g_malloc (up_bytes);
  got = g_malloc (up_bytes);
  ce_edge_params_init (&params);
  params.norm = CE_NORM_L1;
  f = ce_test_frame (src, src_stride, w, h, CE_FORMAT_BGRx);
  ce_assert_status (ce_cpu_edge_rows (&f, &params, 0, h, want, w),
      CE_STATUS_OK);

  if (!CUDA_OK (cudaSetDevice (0)) || !(d_src = to_device (src, n * bpp))
      || !CUDA_OK (cudaMalloc ((void **) &d_up, up_bytes)))
    goto out;
  ce_assert_status (ce_cuda_dev_new (&dev), CE_STATUS_OK);
  if (g_test_failed ())
    goto out;

  f.data = d_src;
  memset (got, CE_TEST_POISON, n);
  ce_assert_status (ce_cuda_dev_edge_submit (dev, 0, &f, &params, NULL, 0,
          got, w), CE_STATUS_OK);
  ce_assert_status (ce_cuda_dev_wait (dev, 0, NULL), CE_STATUS_OK);
  ce_assert_rows_equal ("BGRx 16x600000 edges on the device", want, w, got,
      w, w, 0, h, CE_TEST_POISON);

  ce_assert_status (ce_cpu_upscale2x_rows (src, src_stride, w, h, bpp, 0,
          2 * h, want, up_stride), CE_STATUS_OK);
  /* cudaMemset runs on the legacy stream, which the element's
   * non-blocking streams do not wait for: finish it first. */
  if (!CUDA_OK (cudaMemset (d_up, CE_TEST_POISON, up_bytes))
      || !CUDA_OK (cudaDeviceSynchronize ()))
    goto out;
  ce_assert_status (ce_cuda_dev_upscale2x_submit (dev, 1, d_src, src_stride,
          w, h, bpp, d_up, up_stride), CE_STATUS_OK);
  ce_assert_status (ce_cuda_dev_wait (dev, 1, NULL), CE_STATUS_OK);
  if (to_host (got, d_up, up_bytes))
    ce_assert_rows_equal ("BGRx 16x600000 upscale on the device", want,
        up_stride, got, up_stride, up_stride, 0, 2 * h, CE_TEST_POISON);

out:
  ce_cuda_dev_free (dev);
  cudaFree (d_src);
  cudaFree (d_up);
  g_free (src);
  g_free (want);
  g_free (got);
}

/* ce_cuda_dev_edge_fill_submit: the edges of a GRAY8 device frame into a
 * device image and, from the same launch, a byte range after it set to
 * 128, as the chroma of an NV12 picture.  Odd sizes, padded input pitches
 * (a multiple of 4 or not: aligned frames from 1080p up take the strip
 * kernel and its 1-D grid, the others the short kernel and its 2-D
 * grid), a range that starts and ends off 16-byte boundaries; poison
 * around the range must stay; every norm and output, with and without
 * the blur.  Tall narrow frames: one strip-kernel launch; short-kernel
 * launches split in two, the first full (the fill goes with the
 * second); two full ones (no room: the fill is a memset after them). */
static void
test_edge_fill_on_device_memory (void)
{
  /* Rows of one short-kernel launch that fills its grid. */
  const int short_launch_rows = CE_GRID_Y_MAX * ce_fused_short_block_rows ();
  const struct
  {
    int w, h;
    gboolean aligned;
  } sizes[] = {
    {1, 1, FALSE}, {613, 611, FALSE}, {641, 481, TRUE}, {1920, 1080, FALSE},
    {2560, 1440, TRUE}, {3840, 2160, TRUE}, {3840, 2160, FALSE},
    {16, ROWS_PAST_8, TRUE}, {16, short_launch_rows + 102880, FALSE},
    {16, 2 * short_launch_rows, FALSE},
  };
  ce_cuda_dev *dev = NULL;
  gsize k;

  if (skip_without_gpu ())
    return;
  if (!CUDA_OK (cudaSetDevice (0)))
    return;
  ce_assert_status (ce_cuda_dev_new (&dev), CE_STATUS_OK);
  if (g_test_failed ())
    return;

  for (k = 0; k < G_N_ELEMENTS (sizes); k++) {
    const int w = sizes[k].w, h = sizes[k].h;
    const gsize in_pitch = sizes[k].aligned ? ((w + 3) & ~3) + 64 : w + 13;
    const gsize out_pitch = ((w + 3) & ~3) + 4;
    /* out rows, 7 guard bytes, the range, 9 guard bytes */
    const gsize out_bytes = out_pitch * h, fill_at = out_bytes + 7;
    const gsize fill_bytes = (gsize) w * h / 2 + 5;
    const gsize total = fill_at + fill_bytes + 9;
    guint8 *src = random_bytes (in_pitch * h), *want, *got;
    guint8 *d_src = NULL, *d_out = NULL;
    ce_edge_params params;
    char what[96];
    gsize i, bad = 0, first = 0;
    ce_frame f;

    params = ce_test_params (k % 2 ? 40.0 : 90.0, k != 2,
        (ce_border_mode) (k % 3), k % 2 ? CE_NORM_L1 : CE_NORM_L2,
        k % 4 == 1 ? CE_OUTPUT_MAGNITUDE : CE_OUTPUT_EDGES);
    f = ce_test_frame (src, in_pitch, w, h, CE_FORMAT_GRAY8);
    want = g_malloc ((gsize) w * h);
    got = g_malloc (total);
    ce_assert_status (ce_cpu_edge_rows (&f, &params, 0, h, want, w),
        CE_STATUS_OK);
    memset (got, CE_TEST_POISON, total);
    if ((d_src = to_device (src, in_pitch * h))
        && (d_out = to_device (got, total)) && CUDA_OK (cudaDeviceSynchronize ())) {
      f.data = d_src;
      ce_assert_status (ce_cuda_dev_edge_fill_submit (dev, k % 2, &f,
              &params, d_out, out_pitch, d_out + fill_at, fill_bytes, 128),
          CE_STATUS_OK);
      ce_assert_status (ce_cuda_dev_wait (dev, k % 2, NULL), CE_STATUS_OK);
      if (to_host (got, d_out, total)) {
        g_snprintf (what, sizeof what, "%dx%d (input pitch %" G_GSIZE_FORMAT
            ") edges with a fill", w, h, in_pitch);
        ce_assert_rows_equal (what, want, w, got, out_pitch, w, 0, h,
            CE_TEST_POISON);
        g_snprintf (what, sizeof what, "%dx%d: guard before the range", w,
            h);
        ce_assert_poisoned (what, got + out_bytes, 7, 0, 7, 0, 1,
            CE_TEST_POISON);
        g_snprintf (what, sizeof what, "%dx%d: guard after the range", w, h);
        ce_assert_poisoned (what, got + fill_at + fill_bytes, 9, 0, 9, 0, 1,
            CE_TEST_POISON);
        for (i = 0; i < fill_bytes; i++)
          if (got[fill_at + i] != 128 && bad++ == 0)
            first = i;
        if (bad)
          ce_test_fail ("%dx%d: %" G_GSIZE_FORMAT " byte(s) of the %"
              G_GSIZE_FORMAT "-byte range are not 128, the first at %"
              G_GSIZE_FORMAT " (%u)", w, h, bad, fill_bytes, first,
              got[fill_at + first]);
      }
    }
    cudaFree (d_src);
    cudaFree (d_out);
    g_free (src);
    g_free (want);
    g_free (got);
  }

  /* A NULL range with a length is refused. */
  {
    guint8 px = 0, *d_px = to_device (&px, 4);
    ce_edge_params params;
    ce_frame f = ce_test_frame (d_px, 4, 1, 1, CE_FORMAT_GRAY8);

    ce_edge_params_init (&params);
    if (d_px)
      ce_assert_status (ce_cuda_dev_edge_fill_submit (dev, 0, &f, &params,
              d_px, 4, NULL, 16, 128), CE_STATUS_INVALID_ARGUMENT);
    cudaFree (d_px);
  }
  ce_cuda_dev_free (dev);
}

/* Frames on one slot go through its launch graph, whose kernel node
 * takes each frame's kernel, grid and pointers: a run of frames of one
 * size and parameters into two output images in turn (each poisoned
 * again before the frame that does not write it, which must leave it
 * so), and frames whose size, alignment, output, norm or blur changes
 * from one frame to the next (another kernel, another grid), with the
 * chroma range too; every frame against the CPU reference, its row
 * padding and the bytes around its chroma range still poisoned, and the
 * frames launched through the slot's graph (not directly, as after a
 * failed graph call). */
static void
test_edge_frames_through_one_graph (void)
{
  static const struct
  {
    int w, h;
    gboolean aligned;
    int blur, norm, output;
  } frames[] = {
    {641, 481, TRUE, 1, CE_NORM_L2, CE_OUTPUT_EDGES},
    {641, 481, TRUE, 1, CE_NORM_L2, CE_OUTPUT_EDGES},
    {641, 481, TRUE, 1, CE_NORM_L2, CE_OUTPUT_EDGES},
    {641, 481, TRUE, 1, CE_NORM_L2, CE_OUTPUT_MAGNITUDE},
    {613, 611, FALSE, 1, CE_NORM_L1, CE_OUTPUT_EDGES},
    {2560, 1440, TRUE, 1, CE_NORM_L2, CE_OUTPUT_EDGES},
    {2560, 1440, TRUE, 1, CE_NORM_L2, CE_OUTPUT_EDGES},
    {2560, 1440, TRUE, 0, CE_NORM_L1, CE_OUTPUT_MAGNITUDE},
    {1, 1, FALSE, 1, CE_NORM_L2, CE_OUTPUT_EDGES},
    {3840, 2160, TRUE, 1, CE_NORM_L2, CE_OUTPUT_MAGNITUDE},
    {3840, 2160, FALSE, 1, CE_NORM_L2, CE_OUTPUT_MAGNITUDE},
    {7, 3, TRUE, 0, CE_NORM_L2, CE_OUTPUT_EDGES},
    {641, 481, TRUE, 1, CE_NORM_L2, CE_OUTPUT_EDGES},
  };
  const int max_w = 3840, max_h = 2160;
  const gsize pitch = max_w + 64, plane = pitch * max_h;
  const gsize fill_max = plane / 2, total = plane + fill_max;
  guint8 *src[2], *want, *got;
  guint8 *d_src[2] = { NULL, NULL }, *d_out[2] = { NULL, NULL };
  ce_cuda_dev *dev = NULL;
  gsize k;
  int i;

  if (skip_without_gpu ())
    return;
  if (!CUDA_OK (cudaSetDevice (0)))
    return;
  want = g_malloc (plane);
  got = g_malloc (total);
  for (i = 0; i < 2; i++) {
    src[i] = random_bytes (plane + 1);
    d_src[i] = to_device (src[i], plane + 1);
    CUDA_OK (cudaMalloc ((void **) &d_out[i], total));
  }
  if (!d_src[0] || !d_src[1] || !d_out[0] || !d_out[1])
    goto out;
  ce_assert_status (ce_cuda_dev_new (&dev), CE_STATUS_OK);
  if (g_test_failed ())
    goto out;

  for (k = 0; k < G_N_ELEMENTS (frames); k++) {
    const int w = frames[k].w, h = frames[k].h, o = k % 2;
    /* An unaligned frame starts one byte in, with an odd pitch. */
    const gsize in_pitch = frames[k].aligned ? pitch : pitch - 3;
    const gsize in_off = frames[k].aligned ? 0 : 1;
    const gsize out_pitch = ((w + 3) & ~3) + 4;
    const gsize fill_bytes = k % 3 ? (gsize) out_pitch * h / 2 : 0;
    ce_edge_params params;
    char what[96];
    ce_frame f;

    params = ce_test_params (k % 2 ? 60.0 : 100.0, frames[k].blur,
        (ce_border_mode) (k % 3), (ce_norm) frames[k].norm,
        (ce_output) frames[k].output);
    f = ce_test_frame (src[k % 2] + in_off, in_pitch, w, h, CE_FORMAT_GRAY8);
    ce_assert_status (ce_cpu_edge_rows (&f, &params, 0, h, want, w),
        CE_STATUS_OK);
    /* Both images poisoned; the previous frame's must stay so. */
    if (!CUDA_OK (cudaMemset (d_out[0], CE_TEST_POISON, total))
        || !CUDA_OK (cudaMemset (d_out[1], CE_TEST_POISON, total))
        || !CUDA_OK (cudaDeviceSynchronize ()))
      break;
    f.data = d_src[k % 2] + in_off;
    ce_assert_status (ce_cuda_dev_edge_fill_submit (dev, 0, &f, &params,
            d_out[o], out_pitch, d_out[o] + plane, fill_bytes, 128),
        CE_STATUS_OK);
    ce_assert_status (ce_cuda_dev_wait (dev, 0, NULL), CE_STATUS_OK);
    if (g_test_failed () || !to_host (got, d_out[o], total))
      break;
    g_snprintf (what, sizeof what, "frame %" G_GSIZE_FORMAT ", %dx%d%s",
        k, w, h, frames[k].aligned ? "" : " unaligned");
    ce_assert_rows_equal (what, want, w, got, out_pitch, w, 0, h,
        CE_TEST_POISON);
    ce_assert_poisoned (what, got, out_pitch, w, out_pitch, 0, h,
        CE_TEST_POISON);        /* row padding */
    ce_assert_poisoned (what, got + out_pitch * h, 0, 0,
        plane - out_pitch * h, 0, 1, CE_TEST_POISON);
    for (i = 0; i < (int) fill_bytes; i++)
      if (got[plane + i] != 128) {
        ce_test_fail ("%s: chroma byte %d is %u, not 128", what, i,
            got[plane + i]);
        break;
      }
    ce_assert_poisoned (what, got + plane + fill_bytes, 0, 0,
        total - plane - fill_bytes, 0, 1, CE_TEST_POISON);
    if (!to_host (got, d_out[1 - o], total))
      break;
    for (i = 0; i < (int) total; i++)
      if (got[i] != CE_TEST_POISON) {
        ce_test_fail ("%s: byte %d of the other image written", what, i);
        break;
      }
    if (g_test_failed ())
      break;
  }
  /* Through the graph, not direct launches after a failed graph call. */
  if (!g_test_failed ())
    g_assert_cmpuint (ce_cuda_dev_graph_launches (dev), >=,
        G_N_ELEMENTS (frames));

out:
  ce_cuda_dev_free (dev);
  for (i = 0; i < 2; i++) {
    cudaFree (d_src[i]);
    cudaFree (d_out[i]);
    g_free (src[i]);
  }
  g_free (want);
  g_free (got);
}

/* A frame that is not timed signals its end in memory, and its wait
 * then makes no CUDA call.  As soon as the slot shows the signal, the
 * output is read back on the legacy stream, which does not wait for the
 * slot's: first the last bytes of the chroma range (filled by the
 * launch's last blocks; read within microseconds, while an 8K magnitude
 * frame's kernel takes tens), then everything, which must be the CPU
 * reference's; the wait that follows is answered by the signal.  Frames
 * on all slots, several per slot, so that each slot's block count is
 * found at zero again; both fused kernels, with and without a fill;
 * frames past the default size limit with the limit raised.  A frame of
 * two launches, one whose fill is a memset after its launch, a timed
 * one and one with a download (these four with no size limit), one past
 * the default limit and one with signals off do not signal: their
 * waits synchronise, and are exact. */
static void
test_edge_frame_ends_signalled (void)
{
  const int short_launch_rows = CE_GRID_Y_MAX * ce_fused_short_block_rows ();
  static const struct
  {
    int w, h;
    gboolean aligned, fill;
  } frames[] = {
    {641, 481, TRUE, TRUE}, {613, 611, FALSE, FALSE}, {1, 1, FALSE, TRUE},
    {2048, 2048, TRUE, TRUE}, {2560, 1440, FALSE, FALSE},
    {1920, 1080, TRUE, TRUE}, {641, 481, TRUE, FALSE},
    {7680, 4320, TRUE, TRUE}, {3840, 2160, TRUE, TRUE},
    {3840, 2160, FALSE, FALSE},
  };
  const int n_frames = G_N_ELEMENTS (frames);
  ce_cuda_dev *dev = NULL;
  int k, slot;

  if (skip_without_gpu ())
    return;
  if (!CUDA_OK (cudaSetDevice (0)))
    return;
  ce_assert_status (ce_cuda_dev_new (&dev), CE_STATUS_OK);
  if (g_test_failed ())
    return;
  for (slot = 0; slot < CE_CUDA_SLOTS; slot++)
    ce_cuda_dev_set_timing (dev, slot, 0);

  /* Past the list: two launches, the fill in the second; one launch
   * whose fill is a memset after it (its grid has no room); timed;
   * downloaded; past the default limit; signals off.  All but the last
   * two with no size limit, so that only what they are keeps them from
   * signalling. */
  for (k = 0; k < n_frames + 6 && !g_test_failed (); k++) {
    const gboolean tall = k == n_frames, memset_after = k == n_frames + 1;
    const gboolean timed = k == n_frames + 2;
    const gboolean download = k == n_frames + 3;
    const gboolean big = k == n_frames + 4, off = k == n_frames + 5;
    const gboolean signals = k < n_frames;
    const int w = signals ? frames[k].w : tall || memset_after ? 16
        : big ? 2049 : 641;
    const int h = signals ? frames[k].h : tall ? short_launch_rows + 9
        : memset_after ? short_launch_rows - 5 * ce_fused_short_block_rows ()
        : big ? 2048 : 481;
    const gboolean aligned = signals ? frames[k].aligned : FALSE;
    const gboolean fill = signals ? frames[k].fill : !download;
    const gsize in_pitch = aligned ? ((w + 3) & ~3) + 64 : w + 13;
    const gsize out_pitch = ((w + 3) & ~3) + 4;
    const gsize out_bytes = out_pitch * h;
    const gsize fill_bytes = fill ? out_bytes / 2 + 3 : 0;
    const gsize total = out_bytes + fill_bytes;
    guint8 *src = random_bytes (in_pitch * h), *want, *got, *h_dst = NULL;
    guint8 *d_src = NULL, *d_out = NULL;
    const unsigned long before = ce_cuda_dev_signalled_waits (dev);
    ce_edge_params params;
    ce_timing timing;
    char what[96];
    gint64 until;
    gsize i;
    ce_frame f;

    slot = k % CE_CUDA_SLOTS;
    g_snprintf (what, sizeof what, "frame %d, %dx%d%s%s on slot %d", k, w,
        h, aligned ? "" : " unaligned", fill ? " with a fill" : "", slot);
    params = ce_test_params (k % 2 ? 50.0 : 110.0, k != 4,
        (ce_border_mode) (k % 3), k % 3 == 2 ? CE_NORM_L1 : CE_NORM_L2,
        k % 4 == 3 ? CE_OUTPUT_MAGNITUDE : CE_OUTPUT_EDGES);
    f = ce_test_frame (src, in_pitch, w, h, CE_FORMAT_GRAY8);
    want = g_malloc ((gsize) w * h);
    got = g_malloc (total);
    ce_assert_status (ce_cpu_edge_rows (&f, &params, 0, h, want, w),
        CE_STATUS_OK);
    memset (got, CE_TEST_POISON, total);
    if (!(d_src = to_device (src, in_pitch * h))
        || !(d_out = to_device (got, total))
        || !CUDA_OK (cudaDeviceSynchronize ()))
      goto next;
    f.data = d_src;
    ce_cuda_dev_set_timing (dev, slot, timed);
    ce_cuda_dev_set_end_signals (dev, off ? 0 : big || (signals
            && (gint64) w * h <= CE_CUDA_DEV_SIGNAL_PIXELS) ?
        CE_CUDA_DEV_SIGNAL_PIXELS : G_MAXINT64, 0);
    if (download) {
      if (!CUDA_OK (cudaMallocHost ((void **) &h_dst, (gsize) w * h)))
        goto next;
      memset (h_dst, CE_TEST_POISON, (gsize) w * h);
      ce_assert_status (ce_cuda_dev_edge_submit (dev, slot, &f, &params,
              d_out, out_pitch, h_dst, w), CE_STATUS_OK);
    } else {
      ce_assert_status (ce_cuda_dev_edge_fill_submit (dev, slot, &f,
              &params, d_out, out_pitch, fill ? d_out + out_bytes : NULL,
              fill_bytes, 128), CE_STATUS_OK);
    }
    if (g_test_failed ())
      goto next;
    if (signals) {
      until = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
      while (!ce_cuda_dev_end_seen (dev, slot)
          && g_get_monotonic_time () < until);
      if (!ce_cuda_dev_end_seen (dev, slot)) {
        ce_test_fail ("%s: no end signal within 10 s", what);
        goto next;
      }
      /* Read back before the wait, and before anything else waits. */
      if (fill_bytes) {
        const gsize tail = MIN (fill_bytes, 4096);

        if (!to_host (got + total - tail, d_out + total - tail, tail))
          goto next;
        for (i = total - tail; i < total; i++)
          if (got[i] != 128) {
            ce_test_fail ("%s: the signal came before the chroma byte %"
                G_GSIZE_FORMAT " was written (%u)", what, i - out_bytes,
                got[i]);
            break;
          }
      }
      if (!to_host (got, d_out, total))
        goto next;
      ce_assert_status (ce_cuda_dev_wait (dev, slot, &timing), CE_STATUS_OK);
      g_assert_cmpuint (ce_cuda_dev_signalled_waits (dev), ==, before + 1);
    } else {
      /* Done, whatever signal it would have given. */
      if (!CUDA_OK (cudaDeviceSynchronize ()))
        goto next;
      g_assert_false (ce_cuda_dev_end_seen (dev, slot));
      ce_assert_status (ce_cuda_dev_wait (dev, slot, &timing), CE_STATUS_OK);
      g_assert_cmpuint (ce_cuda_dev_signalled_waits (dev), ==, before);
      if (timed && timing.kernel_us <= 0.0)
        ce_test_fail ("%s: timed, but no kernel time", what);
      if (!to_host (got, d_out, total))
        goto next;
    }
    ce_assert_rows_equal (what, want, w, got, out_pitch, w, 0, h,
        CE_TEST_POISON);
    ce_assert_poisoned (what, got, out_pitch, w, out_pitch, 0, h,
        CE_TEST_POISON);        /* row padding */
    for (i = 0; i < fill_bytes; i++)
      if (got[out_bytes + i] != 128) {
        ce_test_fail ("%s: chroma byte %" G_GSIZE_FORMAT " is %u, not 128",
            what, i, got[out_bytes + i]);
        break;
      }
    if (download)
      ce_assert_rows_equal (what, want, w, h_dst, w, w, 0, h,
          CE_TEST_POISON);
  next:
    cudaFreeHost (h_dst);
    cudaFree (d_src);
    cudaFree (d_out);
    g_free (src);
    g_free (want);
    g_free (got);
  }
  ce_cuda_dev_free (dev);
}

/* The same for upscales: an upscale that is not timed and whose input
 * is within the limit signals its end in memory; as soon as the slot
 * shows it, the last 4 KiB of the output (its last row, written in the
 * grid's last pass over the row pairs) and then all of it are read back
 * on the legacy stream and
 * compared with the CPU reference, and the wait is answered by the
 * signal.  Both pixel sizes, odd sizes, unaligned pitches, frames on
 * every slot, the largest frame within the default limit, a 4K frame
 * with the limit raised.  A frame of two launches and a timed one (both
 * with no size limit), the smallest past the default limit and one with
 * signals off do not signal. */
static void
test_upscale_frame_ends_signalled (void)
{
  static const struct
  {
    int w, h, bpp;
    gboolean aligned;
  } frames[] = {
    {641, 481, 4, TRUE}, {613, 611, 1, FALSE}, {1, 1, 4, TRUE},
    {1, 1, 1, FALSE}, {320, 240, 4, TRUE}, {1024, 1024, 4, TRUE},
    {1023, 511, 1, FALSE}, {1920, 1080, 4, TRUE}, {3840, 2160, 4, TRUE},
    {641, 481, 4, TRUE},
  };
  const int n_frames = G_N_ELEMENTS (frames);
  ce_cuda_dev *dev = NULL;
  int k, slot;

  if (skip_without_gpu ())
    return;
  if (!CUDA_OK (cudaSetDevice (0)))
    return;
  ce_assert_status (ce_cuda_dev_new (&dev), CE_STATUS_OK);
  if (g_test_failed ())
    return;
  for (slot = 0; slot < CE_CUDA_SLOTS; slot++)
    ce_cuda_dev_set_timing (dev, slot, 0);

  /* Past the list: two launches, timed (both with no size limit), past
   * the default limit (1025 x 1024 pixels in), signals off. */
  for (k = 0; k < n_frames + 4 && !g_test_failed (); k++) {
    const gboolean tall = k == n_frames, timed = k == n_frames + 1;
    const gboolean big = k == n_frames + 2, off = k == n_frames + 3;
    const gboolean signals = k < n_frames;
    const int w = signals ? frames[k].w : tall ? 3 : big ? 1025 : 641;
    const int h = signals ? frames[k].h : tall ? ROWS_PAST_16 : big ? 1024
        : 481;
    const int bpp = signals ? frames[k].bpp : tall ? 1 : 4;
    const gboolean aligned = signals ? frames[k].aligned : bpp == 4;
    const gsize row = (gsize) w * bpp;
    const gsize in_pitch = aligned ? row + 64 : row + 13;
    const gsize out_row = 2 * row;
    const gsize out_pitch = aligned ? out_row + 4 * 5 : out_row + 7;
    const gsize out_bytes = out_pitch * 2 * h;
    guint8 *src = random_bytes (in_pitch * h), *want, *got;
    guint8 *d_src = NULL, *d_out = NULL;
    const unsigned long before = ce_cuda_dev_signalled_waits (dev);
    ce_timing timing;
    char what[96];
    gint64 until;

    slot = k % CE_CUDA_SLOTS;
    g_snprintf (what, sizeof what, "upscale %d, %dx%d, %d B/px%s on slot %d",
        k, w, h, bpp, aligned ? "" : " unaligned", slot);
    want = g_malloc (out_row * 2 * h);
    got = poisoned_bytes (out_bytes);
    ce_assert_status (ce_cpu_upscale2x_rows (src, in_pitch, w, h, bpp, 0,
            2 * h, want, out_row), CE_STATUS_OK);
    if (!(d_src = to_device (src, in_pitch * h))
        || !(d_out = to_device (got, out_bytes))
        || !CUDA_OK (cudaDeviceSynchronize ()))
      goto next;
    ce_cuda_dev_set_timing (dev, slot, timed);
    ce_cuda_dev_set_end_signals (dev, 0, off ? 0 : big || (signals
            && (gint64) w * h <= CE_CUDA_DEV_UPSCALE_SIGNAL_PIXELS) ?
        CE_CUDA_DEV_UPSCALE_SIGNAL_PIXELS : G_MAXINT64);
    ce_assert_status (ce_cuda_dev_upscale2x_submit (dev, slot, d_src,
            in_pitch, w, h, bpp, d_out, out_pitch), CE_STATUS_OK);
    if (g_test_failed ())
      goto next;
    if (signals) {
      const gsize tail = MIN (out_row, 4096);
      const gsize last = out_pitch * (2 * h - 1) + out_row - tail;
      gsize i;

      until = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
      while (!ce_cuda_dev_end_seen (dev, slot)
          && g_get_monotonic_time () < until);
      if (!ce_cuda_dev_end_seen (dev, slot)) {
        ce_test_fail ("%s: no end signal within 10 s", what);
        goto next;
      }
      /* Read back before the wait, and before anything else waits. */
      if (!to_host (got + last, d_out + last, tail))
        goto next;
      for (i = 0; i < tail; i++)
        if (got[last + i] != want[out_row * (2 * h - 1) + out_row - tail
                + i]) {
          ce_test_fail ("%s: the signal came before byte %" G_GSIZE_FORMAT
              " of the last row was written (%u)", what, out_row - tail + i,
              got[last + i]);
          break;
        }
      if (!to_host (got, d_out, out_bytes))
        goto next;
      ce_assert_status (ce_cuda_dev_wait (dev, slot, &timing), CE_STATUS_OK);
      g_assert_cmpuint (ce_cuda_dev_signalled_waits (dev), ==, before + 1);
    } else {
      /* Done, whatever signal it would have given. */
      if (!CUDA_OK (cudaDeviceSynchronize ()))
        goto next;
      g_assert_false (ce_cuda_dev_end_seen (dev, slot));
      ce_assert_status (ce_cuda_dev_wait (dev, slot, &timing), CE_STATUS_OK);
      g_assert_cmpuint (ce_cuda_dev_signalled_waits (dev), ==, before);
      if (timed && timing.kernel_us <= 0.0)
        ce_test_fail ("%s: timed, but no kernel time", what);
      if (!to_host (got, d_out, out_bytes))
        goto next;
    }
    ce_assert_rows_equal (what, want, out_row, got, out_pitch, out_row, 0,
        2 * h, CE_TEST_POISON);
    ce_assert_poisoned (what, got, out_pitch, out_row, out_pitch, 0, 2 * h,
        CE_TEST_POISON);        /* row padding */
  next:
    cudaFree (d_src);
    cudaFree (d_out);
    g_free (src);
    g_free (want);
    g_free (got);
  }
  /* Through the slots' graphs, not direct launches. */
  if (!g_test_failed ())
    g_assert_cmpuint (ce_cuda_dev_graph_launches (dev), >=, n_frames + 4);
  ce_cuda_dev_free (dev);
}

/* The staged kernels (benchmark and tests), each against its CPU
 * reference stage, past the tiled kernels' limit (32 rows a block). */
static void
test_tall_staged_kernels (void)
{
  const int w = 4, h = ROWS_PAST_32;
  const gsize n = (gsize) w * h, b_pitch = (gsize) w * 2;
  const gsize g_pitch = (gsize) w * 8;
  guint8 *y, *want_b, *got_b, *want_g, *got_g, *want_e, *got_e;
  guint8 *d_y = NULL, *d_e = NULL;
  guint16 *d_b = NULL, *d_scratch = NULL;
  gint32 *d_g = NULL;
  ce_edge_consts consts;
  const ce_border_mode border = CE_BORDER_ZERO;

  if (skip_without_gpu ())
    return;
  consts = ce_test_consts (128.0, 1, border, CE_NORM_L2, CE_OUTPUT_EDGES);
  y = random_bytes (n);
  want_b = g_malloc (n * 2);
  got_b = g_malloc (n * 2);
  want_g = g_malloc (n * 8);
  got_g = g_malloc (n * 8);
  want_e = g_malloc (n);
  got_e = g_malloc (n);
  ce_assert_status (ce_ref_blur (y, w, w, h, border, (guint16 *) want_b,
          b_pitch), CE_STATUS_OK);
  ce_assert_status (ce_ref_sobel ((guint16 *) want_b, b_pitch, w, h, border,
          (gint32 *) want_g, g_pitch), CE_STATUS_OK);
  ce_assert_status (ce_ref_threshold ((gint32 *) want_g, g_pitch, w, h,
          &consts, want_e, w), CE_STATUS_OK);

  if (g_test_failed () || !CUDA_OK (cudaSetDevice (0))
      || !(d_y = to_device (y, n))
      || !CUDA_OK (cudaMalloc ((void **) &d_b, n * 2))
      || !CUDA_OK (cudaMalloc ((void **) &d_scratch, n * 2))
      || !CUDA_OK (cudaMalloc ((void **) &d_g, n * 8))
      || !CUDA_OK (cudaMalloc ((void **) &d_e, n)))
    goto out;

  for (int v = 0; v < CE_BLUR_VARIANT_COUNT; v++) {
    gchar *what = g_strdup_printf ("blur (%s) 4x2200000",
        ce_blur_variant_name ((ce_blur_variant) v));

    if (CUDA_OK (cudaMemset (d_b, CE_TEST_POISON, n * 2))) {
      ce_assert_status (ce_launch_blur ((ce_blur_variant) v, d_y, w, w, h,
              border, d_scratch, b_pitch, d_b, b_pitch, 0), CE_STATUS_OK);
      if (CUDA_OK (cudaDeviceSynchronize ()) && to_host (got_b, d_b, n * 2))
        ce_assert_rows_equal (what, want_b, b_pitch, got_b, b_pitch,
            b_pitch, 0, h, CE_TEST_POISON);
    }
    g_free (what);
  }
  if (g_test_failed ())
    goto out;

  /* d_b holds B now. */
  ce_assert_status (ce_launch_sobel (d_b, b_pitch, w, h, border, d_g,
          g_pitch, 0), CE_STATUS_OK);
  if (CUDA_OK (cudaDeviceSynchronize ()) && to_host (got_g, d_g, n * 8))
    ce_assert_rows_equal ("sobel 4x2200000", want_g, g_pitch, got_g,
        g_pitch, g_pitch, 0, h, CE_TEST_POISON);

  ce_assert_status (ce_launch_threshold (d_g, g_pitch, w, h, &consts, d_e,
          w, 0), CE_STATUS_OK);
  if (CUDA_OK (cudaDeviceSynchronize ()) && to_host (got_e, d_e, n))
    ce_assert_rows_equal ("threshold 4x2200000", want_e, w, got_e, w, w, 0,
        h, CE_TEST_POISON);

  if (CUDA_OK (cudaMemset (d_e, CE_TEST_POISON, n))) {
    ce_assert_status (ce_launch_sobel_threshold (d_b, b_pitch, w, h,
            &consts, d_e, w, 0), CE_STATUS_OK);
    if (CUDA_OK (cudaDeviceSynchronize ()) && to_host (got_e, d_e, n))
      ce_assert_rows_equal ("sobel+threshold 4x2200000", want_e, w, got_e,
          w, w, 0, h, CE_TEST_POISON);
  }

out:
  cudaFree (d_y);
  cudaFree (d_b);
  cudaFree (d_scratch);
  cudaFree (d_g);
  cudaFree (d_e);
  g_free (y);
  g_free (want_b);
  g_free (got_b);
  g_free (want_g);
  g_free (got_g);
  g_free (want_e);
  g_free (got_e);
}

/* ---- the calling thread's current device ---- */

#define N_CALLS 10

typedef struct
{
  int app_device;               /* the application thread's device */
  int ctx_device;               /* the element's context's */
  const char *name[N_CALLS];
  ce_status status[N_CALLS];
  int device_after[N_CALLS];
  int pending_after[N_CALLS];
  unsigned long scopes[N_CALLS];        /* taken by the call */
  int n;
} DeviceLog;

/* After each call: the thread's device, the scopes still open on it, and
 * how many scopes the call took. */
#define LOG_CALL(log, call) do { \
    unsigned long taken_ = ce_cuda_device_scopes_taken (); \
    int i_ = (log)->n++; \
    (log)->name[i_] = #call; \
    (log)->status[i_] = (call); \
    (log)->device_after[i_] = -1; \
    (void) cudaGetDevice (&(log)->device_after[i_]); \
    (log)->pending_after[i_] = ce_cuda_device_switches_pending (); \
    (log)->scopes[i_] = ce_cuda_device_scopes_taken () - taken_; \
  } while (0)

static ce_status
free_status (ce_cuda_ctx * ctx)
{
  ce_cuda_ctx_free (ctx);
  return CE_STATUS_OK;
}

/* An application thread with its own device current (a pool's allocation
 * thread, say) calls every entry point that works on a context's device,
 * a failing one included. */
static gpointer
application_thread (gpointer data)
{
  DeviceLog *log = data;
  ce_cuda_ctx *ctx = NULL;
  ce_edge_params params;
  guint8 src[64 * 48], dst[64 * 48], up[128 * 96];
  ce_frame f = { src, 64, 64, 48, CE_FORMAT_GRAY8 };
  void *pinned = NULL;

  memset (src, 7, sizeof src);
  ce_edge_params_init (&params);
  if (cudaSetDevice (log->app_device) != cudaSuccess)
    return NULL;                /* the case fails on log->n */

  LOG_CALL (log, ce_cuda_ctx_new (log->ctx_device, 2, &ctx));
  if (ctx == NULL)
    return NULL;
  LOG_CALL (log, ce_cuda_host_alloc (ctx, 4096, &pinned));
  LOG_CALL (log, ce_cuda_edge_frame_submit (ctx, 0, &f, &params, dst, 64));
  LOG_CALL (log, ce_cuda_frame_wait (ctx, 0, NULL));
  LOG_CALL (log, ce_cuda_upscale2x_frame (ctx, src, 64, 64, 48, 1, up, 128,
          NULL));
  ce_cuda_ctx_inject_failure (ctx, 1);
  LOG_CALL (log, ce_cuda_edge_frame (ctx, &f, &params, dst, 64, NULL));
  LOG_CALL (log, ce_cuda_host_free (ctx, pinned));
  LOG_CALL (log, free_status (ctx));
  return NULL;
}

static void
test_entry_points_restore_the_current_device (void)
{
  static const ce_status expected[] = {
    CE_STATUS_OK, CE_STATUS_OK, CE_STATUS_OK, CE_STATUS_OK, CE_STATUS_OK,
    CE_STATUS_CUDA_ERROR,       /* the injected failure */
    CE_STATUS_OK, CE_STATUS_OK
  };
  DeviceLog log;
  int count, i;

  if (skip_without_gpu ())
    return;
  count = gpu_count ();
  memset (&log, 0, sizeof log);
  log.ctx_device = 0;
  log.app_device = count - 1;
  if (count < 2)
    g_test_message ("one GPU: the device cannot visibly move; checking that "
        "every entry point takes a device scope and gives it back");
  else
    g_test_message ("application thread on device %d, context on device %d",
        log.app_device, log.ctx_device);

  g_thread_join (g_thread_new ("application", application_thread, &log));

  g_assert_cmpint (log.n, ==, G_N_ELEMENTS (expected));
  for (i = 0; i < log.n && i < (int) G_N_ELEMENTS (expected); i++) {
    g_test_message ("%s: %s, device %d after, %d scopes open, %lu taken",
        log.name[i], ce_status_string (log.status[i]), log.device_after[i],
        log.pending_after[i], log.scopes[i]);
    g_assert_cmpint (log.status[i], ==, expected[i]);
    g_assert_cmpint (log.device_after[i], ==, log.app_device);
    g_assert_cmpint (log.pending_after[i], ==, 0);
    /* Not vacuous: the call did make the context's device current. */
    g_assert_cmpuint (log.scopes[i], >=, 1);
  }
}

/* ---- the CUDA context a ce_cuda_ctx works in ---- */

/* The driver's context calls, through the runtime (the tests do not link
 * libcuda, which a machine without a driver lacks). */
typedef struct
{
  PFN_cuCtxCreate_v3020 create;
  PFN_cuCtxDestroy_v4000 destroy;
  PFN_cuCtxGetCurrent_v4000 get_current;
  PFN_cuCtxSetCurrent_v4000 set_current;
  PFN_cuCtxPopCurrent_v4000 pop_current;
  PFN_cuDeviceGet_v2000 device_get;
} DriverCalls;

static gboolean
driver_call (const char *name, int version, void **fn)
{
  enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;

  *fn = NULL;
  return cudaGetDriverEntryPointByVersion (name, fn, version,
      cudaEnableDefault, &found) == cudaSuccess
      && found == cudaDriverEntryPointSuccess && *fn != NULL;
}

static gboolean
driver_calls (DriverCalls * d)
{
  return driver_call ("cuCtxCreate", 3020, (void **) &d->create)
      && driver_call ("cuCtxDestroy", 4000, (void **) &d->destroy)
      && driver_call ("cuCtxGetCurrent", 4000, (void **) &d->get_current)
      && driver_call ("cuCtxSetCurrent", 4000, (void **) &d->set_current)
      && driver_call ("cuCtxPopCurrent", 4000, (void **) &d->pop_current)
      && driver_call ("cuDeviceGet", 2000, (void **) &d->device_get);
}

typedef struct
{
  DriverCalls d;
  int device;
  /* Each step's status, output comparison and the context current after
   * it; the step that failed to set up, if any. */
  ce_status status[6];
  int equal[6];
  CUcontext after[6], expect_after[6];
  const char *setup_failed;
} CtxLog;

/* One poisoned 61x47 frame of edges through @ctx, compared with the
 * reference; the context current after the call goes in log->after[i]. */
static void
ctx_step (CtxLog * log, int i, ce_cuda_ctx * ctx, CUcontext expect_after)
{
  const int w = 61, h = 47;
  guint8 *src = random_bytes ((gsize) w * h), *want = g_malloc (w * h),
      *got = poisoned_bytes ((gsize) w * h);
  ce_frame f = { src, w, w, h, CE_FORMAT_GRAY8 };
  ce_edge_params params;

  ce_edge_params_init (&params);
  (void) ce_ref_edge_frame (&f, &params, want, w);
  log->status[i] = ce_cuda_edge_frame (ctx, &f, &params, got, w, NULL);
  log->equal[i] = memcmp (want, got, (size_t) w * h) == 0;
  log->after[i] = NULL;
  (void) log->d.get_current (&log->after[i]);
  log->expect_after[i] = expect_after;
  g_free (src);
  g_free (want);
  g_free (got);
}

/* Pops every context of the thread's stack: none is current after. */
static void
ctx_clear (CtxLog * log)
{
  CUcontext c = NULL;
  int i;

  for (i = 0; i < 16 && log->d.get_current (&c) == CUDA_SUCCESS && c; i++)
    (void) log->d.set_current (NULL);
}

static gpointer
ctx_thread (gpointer data)
{
  CtxLog *log = data;
  CUcontext app = NULL, gst = NULL;
  ce_cuda_ctx *primary_ctx = NULL, *current_ctx = NULL;
  CUdevice dev;

  if (log->d.device_get (&dev, log->device) != CUDA_SUCCESS
      || log->d.create (&app, 0, dev) != CUDA_SUCCESS) {
    log->setup_failed = "cuCtxCreate";
    return NULL;
  }
  /* The application's own context is current: ce_cuda_ctx_new still
   * works in the device's primary context, and gives app back. */
  log->status[0] = ce_cuda_ctx_new (log->device, 2, &primary_ctx);
  log->after[0] = NULL;
  (void) log->d.get_current (&log->after[0]);
  log->expect_after[0] = app;
  log->equal[0] = 1;
  if (primary_ctx == NULL)
    return NULL;
  ctx_step (log, 1, primary_ctx, app);

  /* A context made in another (as GStreamer's is, pushed) works in it
   * from a thread with none current, and leaves none current. */
  if (log->d.create (&gst, 0, dev) != CUDA_SUCCESS) {
    log->setup_failed = "cuCtxCreate (second)";
    return NULL;
  }
  log->status[2] = ce_cuda_ctx_new_current (2, &current_ctx);
  log->equal[2] = 1;
  log->after[2] = NULL;
  (void) log->d.get_current (&log->after[2]);
  log->expect_after[2] = gst;
  if (current_ctx == NULL)
    return NULL;
  /* cuCtxCreate pushed both: the stack is app, gst. */
  ctx_clear (log);
  ctx_step (log, 3, current_ctx, NULL);

  /* The application's context gone: the first works as before. */
  (void) log->d.destroy (app);
  ctx_clear (log);
  ctx_step (log, 4, primary_ctx, NULL);
  /* From a thread with the second's context current: it stays. */
  (void) log->d.set_current (gst);
  ctx_step (log, 5, primary_ctx, gst);

  ce_cuda_ctx_free (primary_ctx);
  ctx_clear (log);
  ce_cuda_ctx_free (current_ctx);
  (void) log->d.destroy (gst);
  ctx_clear (log);
  return NULL;
}

/* A ce_cuda_ctx works in the CUDA context it was made in (the device's
 * primary one, or the caller's for ce_cuda_ctx_new_current), whatever
 * the calling thread has current, and gives the thread its own back:
 * one made while an application's context was current does not end up
 * in it, nor fail once that context is gone. */
static void
test_contexts_work_in_their_own_cuda_context (void)
{
  CtxLog log;
  int i;

  if (skip_without_gpu ())
    return;
  memset (&log, 0, sizeof log);
  for (i = 0; i < 6; i++)
    log.status[i] = CE_STATUS_CUDA_ERROR;
  if (!driver_calls (&log.d)) {
    g_printerr ("\n*** SKIP %s: the driver gives no context calls ***\n",
        g_test_get_path ());
    g_test_skip ("no driver context calls");
    return;
  }
  log.device = gpu_count () - 1;
  g_thread_join (g_thread_new ("contexts", ctx_thread, &log));

  g_assert_null (log.setup_failed);
  for (i = 0; i < 6; i++) {
    g_test_message ("step %d: %s, %s, context after %p (expected %p)", i,
        ce_status_string (log.status[i]), log.equal[i] ? "exact" : "differs",
        (void *) log.after[i], (void *) log.expect_after[i]);
    g_assert_cmpint (log.status[i], ==, CE_STATUS_OK);
    g_assert_true (log.equal[i]);
    g_assert_true (log.after[i] == log.expect_after[i]);
  }
}

/* ce_cuda_dev_primary_context on a thread with a stack of two contexts
 * of its own, then on one with none: the handle is the device's primary
 * context, and the stack is as it was. */
typedef struct
{
  DriverCalls d;
  int device;
  const char *setup_failed;
  ce_status with_stack, without;
  CUcontext app, gst, got_with_stack, got_without, primary;
  CUcontext top_after, below_after, none_after;
} PrimaryLog;

static gpointer
primary_thread (gpointer data)
{
  PrimaryLog *log = data;
  CUcontext c = NULL;
  CUdevice dev;

  if (log->d.device_get (&dev, log->device) != CUDA_SUCCESS
      || log->d.create (&log->app, 0, dev) != CUDA_SUCCESS
      || log->d.create (&log->gst, 0, dev) != CUDA_SUCCESS) {
    log->setup_failed = "cuCtxCreate";
    return NULL;
  }
  /* cuCtxCreate pushed both: the stack is app, gst. */
  log->with_stack = ce_cuda_dev_primary_context (log->device,
      &log->got_with_stack);
  (void) log->d.get_current (&log->top_after);
  if (log->d.pop_current (&c) == CUDA_SUCCESS)
    (void) log->d.get_current (&log->below_after);
  (void) log->d.destroy (log->gst);
  (void) log->d.destroy (log->app);
  while (log->d.get_current (&c) == CUDA_SUCCESS && c != NULL)
    (void) log->d.pop_current (&c);

  log->without = ce_cuda_dev_primary_context (log->device,
      &log->got_without);
  (void) log->d.get_current (&log->none_after);
  /* The runtime's own context for the device, to compare with. */
  if (cudaSetDevice (log->device) == cudaSuccess
      && cudaFree (NULL) == cudaSuccess)
    (void) log->d.get_current (&log->primary);
  (void) log->d.set_current (NULL);
  return NULL;
}

static void
test_primary_context_leaves_the_stack (void)
{
  PrimaryLog log;

  if (skip_without_gpu ())
    return;
  memset (&log, 0, sizeof log);
  log.with_stack = log.without = CE_STATUS_CUDA_ERROR;
  if (!driver_calls (&log.d)) {
    g_printerr ("\n*** SKIP %s: the driver gives no context calls ***\n",
        g_test_get_path ());
    g_test_skip ("no driver context calls");
    return;
  }
  log.device = gpu_count () - 1;
  g_thread_join (g_thread_new ("primary", primary_thread, &log));

  g_test_message ("app %p, gst %p, primary %p; with a stack: %s, %p, then "
      "%p over %p; without: %s, %p, then %p", (void *) log.app,
      (void *) log.gst, (void *) log.primary,
      ce_status_string (log.with_stack), (void *) log.got_with_stack,
      (void *) log.top_after, (void *) log.below_after,
      ce_status_string (log.without), (void *) log.got_without,
      (void *) log.none_after);
  g_assert_null (log.setup_failed);
  g_assert_cmpint (log.with_stack, ==, CE_STATUS_OK);
  g_assert_cmpint (log.without, ==, CE_STATUS_OK);
  g_assert_nonnull (log.primary);
  g_assert_true (log.got_with_stack == log.primary);
  g_assert_true (log.got_without == log.primary);
  g_assert_true (log.top_after == log.gst);
  g_assert_true (log.below_after == log.app);
  g_assert_null (log.none_after);
}

/* ce_cuda_ctx_new_current on a thread with no context current: refused,
 * not opened in device 0's primary context; with one current (here the
 * last device's primary context, made current by cudaSetDevice), opened
 * on that device. */
typedef struct
{
  int device;
  ce_status without, with;
  char without_error[256];
  ce_cuda_ctx *without_ctx;
  int with_device;
} NewCurrentLog;

static gpointer
new_current_thread (gpointer data)
{
  NewCurrentLog *log = data;
  ce_cuda_ctx *ctx = (ce_cuda_ctx *) & ctx;     /* not NULL */

  log->without = ce_cuda_ctx_new_current (2, &ctx);
  g_strlcpy (log->without_error, ce_last_error (),
      sizeof log->without_error);
  log->without_ctx = ctx;
  if (ctx != NULL)
    ce_cuda_ctx_free (ctx);

  if (cudaSetDevice (log->device) != cudaSuccess || cudaFree (NULL)
      != cudaSuccess)
    return NULL;                /* the case fails on log->with */
  ctx = NULL;
  log->with = ce_cuda_ctx_new_current (2, &ctx);
  log->with_device = ce_cuda_ctx_device_id (ctx);
  ce_cuda_ctx_free (ctx);
  return NULL;
}

static void
test_new_current_needs_a_current_context (void)
{
  NewCurrentLog log;

  if (skip_without_gpu ())
    return;
  memset (&log, 0, sizeof log);
  log.device = gpu_count () - 1;
  log.with = CE_STATUS_CUDA_ERROR;
  log.with_device = -2;
  g_thread_join (g_thread_new ("no context", new_current_thread, &log));

  g_test_message ("without a context: %s (%s)",
      ce_status_string (log.without), log.without_error);
  g_assert_cmpint (log.without, ==, CE_STATUS_NO_DEVICE);
  g_assert_null (log.without_ctx);
  g_assert_nonnull (strstr (log.without_error, "current"));
  g_assert_cmpint (log.with, ==, CE_STATUS_OK);
  g_assert_cmpint (log.with_device, ==, log.device);
}

/* A call that fails on a CUDA error (pinned memory that cannot be had, a
 * device frame with arguments refused) leaves nothing behind: the next
 * valid frame of the same thread works and, on the device path, is
 * timed.  A stride whose plane spans more than memory is refused, not
 * followed off the end. */
static void
test_failed_calls_leave_no_error_behind (void)
{
  const int w = 64, h = 48;
  const size_t huge = (size_t) 1 << 62;
  guint8 *src = random_bytes ((gsize) w * h), *want, *got;
  guint8 *d_src = NULL, *d_up = NULL;
  ce_cuda_ctx *ctx = NULL;
  ce_cuda_dev *dev = NULL;
  ce_edge_params params;
  ce_timing timing;
  void *pinned = NULL;
  ce_frame f;
  int i;

  if (skip_without_gpu ()) {
    g_free (src);
    return;
  }
  want = g_malloc ((gsize) 4 * w * h);
  got = poisoned_bytes ((gsize) 4 * w * h);
  ce_edge_params_init (&params);
  f = ce_test_frame (src, w, w, h, CE_FORMAT_GRAY8);
  ce_assert_status (ce_cpu_edge_rows (&f, &params, 0, h, want, w),
      CE_STATUS_OK);
  ce_assert_status (ce_cuda_ctx_new (-1, 2, &ctx), CE_STATUS_OK);
  if (g_test_failed ())
    goto out;

  /* Host path: pinned memory nobody has, then a frame. */
  g_assert_true (ce_cuda_host_alloc (ctx, (size_t) 1 << 50, &pinned)
      != CE_STATUS_OK);
  g_assert_null (pinned);
  ce_assert_status (ce_cuda_edge_frame (ctx, &f, &params, got, w, NULL),
      CE_STATUS_OK);
  ce_assert_rows_equal ("64x48 edges after a failed pinned allocation", want,
      w, got, w, w, 0, h, CE_TEST_POISON);

  /* Strides whose planes cannot exist. */
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &params, got, huge, NULL),
      "spans");
  ce_assert_invalid (ce_cuda_upscale2x_frame (ctx, src, huge, w, h, 1, got,
          2 * w, NULL), "spans");
  ce_assert_invalid (ce_cuda_upscale2x_frame (ctx, src, w, w, h, 1, got,
          huge, NULL), "spans");
  f.stride = huge;
  ce_assert_invalid (ce_cuda_edge_frame (ctx, &f, &params, got, w, NULL),
      "");
  f.stride = w;

  /* Device path: a refused upscale, then frames on both slots, timed. */
  if (!CUDA_OK (cudaSetDevice (ce_cuda_ctx_device_id (ctx)))
      || !(d_src = to_device (src, (gsize) w * h))
      || !CUDA_OK (cudaMalloc ((void **) &d_up, (gsize) 4 * w * h)))
    goto out;
  ce_assert_status (ce_cuda_dev_new (&dev), CE_STATUS_OK);
  if (g_test_failed ())
    goto out;
  ce_cuda_dev_set_timing (dev, 0, 1);
  ce_cuda_dev_set_timing (dev, 1, 1);
  ce_assert_invalid (ce_cuda_dev_upscale2x_submit (dev, 0, d_src, w, w, h, 1,
          d_up, w), "pitch");
  ce_assert_invalid (ce_cuda_dev_upscale2x_submit (dev, 0, d_src, huge, w, h,
          1, d_up, 2 * w), "spans");
  ce_assert_status (ce_cuda_dev_wait (dev, 0, &timing), CE_STATUS_OK);
  f.data = d_src;
  for (i = 0; i < 3; i++) {
    ce_assert_status (ce_cuda_dev_upscale2x_submit (dev, 0, d_src, w, w, h, 1,
            d_up, 2 * w), CE_STATUS_OK);
    ce_assert_status (ce_cuda_dev_wait (dev, 0, &timing), CE_STATUS_OK);
    g_assert_cmpfloat (timing.kernel_us, >, 0.0);
    memset (got, CE_TEST_POISON, (gsize) w * h);
    ce_assert_status (ce_cuda_dev_edge_submit (dev, 1, &f, &params, NULL, 0,
            got, w), CE_STATUS_OK);
    ce_assert_status (ce_cuda_dev_wait (dev, 1, &timing), CE_STATUS_OK);
    g_assert_cmpfloat (timing.kernel_us, >, 0.0);
    ce_assert_rows_equal ("64x48 edges on the device after a refused frame",
        want, w, got, w, w, 0, h, CE_TEST_POISON);
  }
  ce_assert_invalid (ce_cuda_dev_edge_submit (dev, 1, &f, &params, NULL, 0,
          got, huge), "spans");
  g_assert_true (cudaGetLastError () == cudaSuccess);

out:
  ce_cuda_dev_free (dev);
  ce_cuda_ctx_free (ctx);
  cudaFree (d_src);
  cudaFree (d_up);
  g_free (src);
  g_free (want);
  g_free (got);
}

void
ce_test_register_gpu_runtime (void)
{
  ce_test_add ("/gpu/runtime/context-probes-the-kernels",
      test_context_probes_the_kernels);
  ce_test_add ("/gpu/runtime/tall-gray8-edges", test_tall_gray8_edges);
  ce_test_add ("/gpu/runtime/tall-rgba-edges", test_tall_rgba_edges);
  ce_test_add ("/gpu/runtime/tall-fused-edges", test_tall_fused_edges);
  ce_test_add ("/gpu/runtime/tall-upscale", test_tall_upscale);
  ce_test_add ("/gpu/runtime/tall-frames-on-device-memory",
      test_tall_frames_on_device_memory);
  ce_test_add ("/gpu/runtime/tall-staged-kernels", test_tall_staged_kernels);
  ce_test_add ("/gpu/runtime/edge-fill-on-device-memory",
      test_edge_fill_on_device_memory);
  ce_test_add ("/gpu/runtime/edge-frames-through-one-graph",
      test_edge_frames_through_one_graph);
  ce_test_add ("/gpu/runtime/edge-frame-ends-signalled",
      test_edge_frame_ends_signalled);
  ce_test_add ("/gpu/runtime/upscale-frame-ends-signalled",
      test_upscale_frame_ends_signalled);
  ce_test_add ("/gpu/runtime/entry-points-restore-the-current-device",
      test_entry_points_restore_the_current_device);
  ce_test_add ("/gpu/runtime/contexts-work-in-their-own-cuda-context",
      test_contexts_work_in_their_own_cuda_context);
  ce_test_add ("/gpu/runtime/new-current-needs-a-current-context",
      test_new_current_needs_a_current_context);
  ce_test_add ("/gpu/runtime/primary-context-leaves-the-stack",
      test_primary_context_leaves_the_stack);
  ce_test_add ("/gpu/runtime/failed-calls-leave-no-error-behind",
      test_failed_calls_leave_no_error_behind);
}
